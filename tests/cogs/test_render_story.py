"""Every panel tells the story (issue 26): the stake, the trick, the cards on
the table and the last happenings, on waiting panels too; nothing a seat may
not see; no countdown for a seat that is out or a game that is over."""

from __future__ import annotations

import dataclasses
import random
from datetime import timedelta

import pytest

from cogs.i18n import t
from cogs.render import card_label, hand_panel
from engine import events as ev
from engine.chance import SeededChance
from engine.events import Happening
from engine.game import Game
from engine.rules import TableRules
from engine.views import public_view, seat_view
from tables.snapshot import Clock, SeatInfo, Status, TableSnapshot, stamp_of
from tests.cogs.helpers import NOW, hidden_cards, random_moments
from tests.cogs.limits import check_limits

LANGS = ("en", "nl")
NAMES = ("anna", "bram", "cees")


def _snap(game: Game, recent: tuple[Happening, ...], names: tuple[str, ...] = NAMES
          ) -> TableSnapshot:
    public = public_view(game)
    clock = Clock(public.waiting, NOW + timedelta(seconds=20), public.window)
    return TableSnapshot(
        table_id=7, guild_id=1, channel_id=2, host_id=1000, public=False, rules=game.rules,
        status=Status.FINISHED if public.over else Status.PLAYING,
        seats=tuple(SeatInfo(i, 1000 + i, None, n) for i, n in enumerate(names)),
        invited=frozenset(), view=public, clock=clock, passed=frozenset(), recent=recent,
        stamp=stamp_of(public.event_count))


def _after_a_toep() -> tuple[Game, TableSnapshot, int, int]:
    """The leader plays a card, the next player toeps: the game, its snapshot,
    the toeper and a seat that waits (neither on turn nor the toeper)."""
    game = Game(TableRules(), list(NAMES), SeededChance(11))
    recent: tuple[Happening, ...] = game.opening
    recent += game.apply(ev.act(ev.CLOSE_WINDOW))
    leader = game.turn
    card = next(e for e in game.legal_events(leader) if e.do == ev.PLAY)
    recent += game.apply(card)
    toeper = game.turn
    recent += game.apply(ev.act(ev.TOEP, toeper))
    assert game.stake == 2
    waiting = next(s for s in range(3) if s != toeper and s not in game.waiting().seats)
    return game, _snap(game, recent), toeper, waiting


@pytest.mark.parametrize("lang", LANGS)
def test_a_waiting_panel_after_a_toep_shows_the_toep_the_stake_and_the_table(lang: str
                                                                             ) -> None:
    game, snap, toeper, waiting = _after_a_toep()
    panel = hand_panel(snap, seat_view(game, waiting), lang, NOW)
    check_limits(panel)
    assert panel.embed is not None
    text = panel.embed.description or ""
    assert t(lang, "table.stake", stake=2) in text
    assert t(lang, "table.trick", number=1, total=4) in text
    assert t(lang, "hap.toeped", name=NAMES[toeper], stake=2) in text
    seat, card = game.table[0]
    assert t(lang, "hand.on_table", cards=t(lang, "hand.played", name=NAMES[seat],
                                           card=card_label(card, lang))) in text
    # The story comes first, then what this seat is asked: here, whom it waits for.
    assert text.index(t(lang, "hap.toeped", name=NAMES[toeper], stake=2)) < text.index(
        t(lang, "hand.ask.wait", names=NAMES[game.waiting().seats[0]]))


def test_the_story_is_told_in_the_readers_language() -> None:
    game, snap, _, waiting = _after_a_toep()
    english = hand_panel(snap, seat_view(game, waiting), "en", NOW).embed
    dutch = hand_panel(snap, seat_view(game, waiting), "nl", NOW).embed
    assert english is not None and dutch is not None
    assert "Stake **2**" in (english.description or "")
    assert "Inzet **2**" in (dutch.description or "")
    assert "toept: de inzet is nu 2" in (dutch.description or "")


def test_the_learn_panel_leaves_the_story_to_the_table_beside_it() -> None:
    game, snap, _, waiting = _after_a_toep()
    panel = hand_panel(snap, seat_view(game, waiting), "en", NOW, story=False)
    assert panel.embed is not None and "Stake" not in (panel.embed.description or "")


def test_a_seat_that_is_out_sees_no_countdown() -> None:
    game, snap, toeper, waiting = _after_a_toep()
    game.apply(ev.act(ev.FORFEIT, waiting))
    out = _snap(game, snap.recent)
    assert out.clock is not None and out.clock.deadline is not None
    for lang in LANGS:
        mine = hand_panel(out, seat_view(game, waiting), lang, NOW).embed
        theirs = hand_panel(out, seat_view(game, toeper), lang, NOW).embed
        assert mine is not None and theirs is not None
        assert t(lang, "hand.ask.out") in (mine.description or "")
        assert "<t:" not in (mine.description or "")
        assert "<t:" in (theirs.description or "")  # those still in see it


def test_a_game_that_ended_shows_no_countdown() -> None:
    game, snap, _, waiting = _after_a_toep()
    ended = dataclasses.replace(snap, status=Status.ENDED, end_reason="admin")
    for lang in LANGS:
        embed = hand_panel(ended, seat_view(game, waiting), lang, NOW).embed
        assert embed is not None and "<t:" not in (embed.description or "")


@pytest.mark.parametrize("seed", range(30))
def test_a_panels_story_shows_no_card_its_seat_may_not_see(seed: int) -> None:
    for moment in random_moments(seed, every=0.3):
        snap = moment.snap
        long_names = tuple(f"{'W' * 30}{i}" for i in range(moment.game.n))
        snap = dataclasses.replace(snap, seats=tuple(
            dataclasses.replace(s, name=long_names[s.index]) for s in snap.seats))
        public = snap.view
        assert public is not None
        public = dataclasses.replace(public, players=long_names)
        snap = dataclasses.replace(snap, view=public)
        for seat in range(moment.game.n):
            view = seat_view(moment.game, seat, public)
            mine = set(view.hand) | {c for ld in view.laid_down for c in ld.cards}
            hidden = hidden_cards(moment.game) - mine
            for lang in LANGS:
                panel = hand_panel(snap, view, lang, NOW)
                check_limits(panel)
                assert panel.embed is not None
                # Quoted happenings may name a card of an earlier round that is
                # in a hand again now (they are the table message's own lines).
                lines = [line for line in (panel.embed.description or "").split("\n")
                         if not line.startswith("> ")]
                text = "\n".join(lines)
                leaked = {c for c in hidden if card_label(c, lang) in text}
                assert not leaked, (seed, seat, lang, leaked, text)


def test_the_story_keeps_to_discords_limits_with_eight_long_names() -> None:
    rng = random.Random(3)
    for moment in random_moments(4, every=0.5):
        names = tuple("ẞ" * 32 for _ in range(moment.game.n))
        public = moment.snap.view
        assert public is not None
        snap = dataclasses.replace(moment.snap, view=dataclasses.replace(public, players=names))
        seat = rng.randrange(moment.game.n)
        check_limits(hand_panel(snap, seat_view(moment.game, seat, snap.view), "nl", NOW))
