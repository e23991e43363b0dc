"""Render random moments of random games: no hidden card in public, Discord's
limits hold, and the hand panel offers exactly the legal plays."""

from __future__ import annotations

import dataclasses
import random

import discord
import pytest

from cogs import ids
from cogs.i18n import t
from cogs.render import hand_panel, happening_line, table_message
from cogs.render_hand import answer_verbs
from cogs.render_text import card_label
from cogs.slate_picture import standings
from cogs.standings import placed
from engine import events as ev
from engine.bots import make_bot
from engine.bots.runner import play_out
from engine.cards import DECK
from engine.chance import RandomChance
from engine.game import Game, Phase
from engine.rules import TableRules
from engine.views import seat_view
from tests.cogs.helpers import (
    NOW,
    TABLE_ID,
    Moment,
    hidden_cards,
    random_moments,
    snapshot,
    texts_of,
)
from tests.cogs.limits import check_limits

LANGS = ("en", "nl")
SEEDS = range(60)


def _hidden_texts(moment: Moment) -> set[str]:
    return {text for card in hidden_cards(moment.game)
            for text in (card.text, card_label(card, "en"), card_label(card, "nl"))}


@pytest.mark.parametrize("seed", SEEDS)
def test_table_message_shows_no_hidden_card(seed: int) -> None:
    for moment in random_moments(seed):
        for lang in LANGS:
            r = table_message(moment.snap, lang, NOW)
            check_limits(r)
            assert r.embed is not None
            # "What happened" may name a card of an earlier round that is in a
            # hand again now; its lines are checked one by one below.
            recent = t(lang, "table.recent")
            public = discord.Embed.from_dict(r.embed.to_dict())
            public.clear_fields()
            for f in r.embed.fields:
                if f.name != recent:
                    public.add_field(name=f.name or "", value=f.value or "")
            text = texts_of(r.content, public, r.view)
            leaked = {h for h in _hidden_texts(moment) if h in text}
            assert not leaked, (seed, lang, leaked, text)


@pytest.mark.parametrize("seed", range(20))
def test_happening_lines_name_only_their_own_card(seed: int) -> None:
    all_labels = {lang: {card_label(c, lang): c for c in DECK} for lang in LANGS}
    for moment in random_moments(seed, every=0.5):
        for h in moment.snap.recent:
            own = getattr(h, "card", None)
            for lang in LANGS:
                line = happening_line(h, ("P0", "P1", "P2", "P3", "P4", "P5", "P6", "P7"),
                                      lang)
                named = {c for label, c in all_labels[lang].items() if label in line}
                assert named <= ({own} if own is not None else set()), (h, line)


@pytest.mark.parametrize("seed", SEEDS)
def test_hand_panel_offers_the_legal_events(seed: int) -> None:
    for moment in random_moments(seed, every=0.4):
        snap, public = moment.snap, moment.snap.view
        assert public is not None
        for seat in range(moment.game.n):
            view = seat_view(moment.game, seat, public)
            for lang in LANGS:
                r = hand_panel(snap, view, lang, NOW)
                check_limits(r)
                _check_panel(r.view, view, snap.stamp, seat in snap.passed)


def test_a_seat_that_passed_the_window_is_offered_no_vuile_was() -> None:
    """R17: its pass is its answer; the others still get theirs."""
    checked = 0
    for seed in SEEDS:
        for moment in random_moments(seed, every=1.0):  # every moment
            public = moment.snap.view
            if public is None or public.phase is not Phase.WINDOW:
                continue
            for seat in public.waiting:
                view = seat_view(moment.game, seat, public)
                if ev.VUILE_WAS not in {e.do for e in view.legal}:
                    continue
                before = answer_verbs(dataclasses.replace(moment.snap, passed=frozenset()), view)
                passed = dataclasses.replace(moment.snap, passed=frozenset({seat}))
                assert {"pass", ev.VUILE_WAS} <= before
                assert answer_verbs(passed, view) == before - {"pass", ev.VUILE_WAS}
                checked += 1
    assert checked > 0


def _check_panel(panel: object, view: ev.Event | object, stamp: str, passed: bool) -> None:
    from discord.ui import Button, View

    from engine.views import SeatView
    assert isinstance(view, SeatView)
    buttons = [b for b in panel.children if isinstance(b, Button)] \
        if isinstance(panel, View) else []
    decoded = [(ids.decode(b.custom_id or ""), b) for b in buttons]
    assert all(d.table_id == TABLE_ID and d.stamp == stamp for d, _ in decoded)
    cards = [d.card for d, _ in decoded if d.verb == "play"]
    assert cards == list(view.hand)  # every card, in order
    enabled = {d.card for d, b in decoded if d.verb == "play" and not b.disabled}
    assert enabled == {e.card for e in view.legal if e.do == ev.PLAY}
    answers = {d.verb for d, _ in decoded if d.verb != "play"}
    legal = {e.do for e in view.legal if e.do != ev.PLAY}
    if passed and view.public.phase is Phase.WINDOW:
        legal.discard(ev.VUILE_WAS)  # its pass answered the window (R17)
    assert legal <= answers
    assert answers - legal <= {"pass"}
    if "pass" in answers:
        assert view.seat in view.public.waiting


def test_panel_answers_follow_the_phase() -> None:
    seen: set[str] = set()
    for seed in range(40):
        for moment in random_moments(seed, every=0.5):
            assert moment.snap.view is not None
            for seat in range(moment.game.n):
                seen |= answer_verbs(moment.snap,
                                     seat_view(moment.game, seat, moment.snap.view))
    # Random games reach most decisions; each renders as a button.
    assert {"toep", "call", "fold", "vuile_was", "pass", "check", "believe"} <= seen


def test_final_standings_share_places_as_the_slate_picture_does() -> None:
    """Players with equal marks share a place in the message, as in the picture."""
    tied = 0
    for seed in range(40):
        *_, last = random_moments(seed, every=0.0)
        public = last.snap.view
        if public is None or not public.over:
            continue
        names = [f"P{i}" for i in range(public.seats)]
        field = next(f for f in (table_message(last.snap, "en", NOW).embed or discord.Embed())
                     .fields if f.name == t("en", "table.standings"))
        lines = (field.value or "").split("\n")
        for row, line in zip(standings(public, names), lines, strict=True):
            assert line.startswith(t("en", "table.standing", place=row.place,
                                     name=row.line.name, marks=row.line.marks,
                                     limit=public.rules.limit))
        places = [row.place for row in standings(public, names)]
        tied += len(places) != len(set(places))
    assert tied, "no game with a tie: the test proves nothing"


@pytest.mark.parametrize("lang", LANGS)
def test_a_fixed_rounds_game_names_the_others_by_place_not_out(lang: str) -> None:
    """V6: after the last round, whoever is still in is placed by marks; the
    slates and the standings say their place, never "out"."""
    game = Game(TableRules(rounds=2, limit=15), ["P0", "P1", "P2"],
                RandomChance(random.Random(3)))
    play_out(game, {s: make_bot("easy", s) for s in range(3)})
    assert game.over and len(game.rounds) == 2
    snap = snapshot(game, (), random.Random(0))
    public = snap.view
    assert public is not None and all(m < 15 for m in public.marks)
    embed = table_message(snap, lang, NOW).embed
    assert embed is not None
    fields = {f.name: f.value or "" for f in embed.fields}
    slates = fields[t(lang, "table.slates", limit=15)]
    out = t(lang, "note.out")
    assert f"· {out}" not in slates and f", {out}" not in slates
    for place, seat in placed(public):
        if seat != public.winner:
            line = next(x for x in slates.split("\n") if f"**P{seat}**" in x)
            assert line.endswith(t(lang, "note.place", place=place))
    standings_text = fields[t(lang, "table.standings")]
    assert out not in standings_text.split() and t(lang, "note.place", place=2) not in \
        standings_text
    assert all(not row.line.out for row in standings(public, ["P0", "P1", "P2"]))
