"""The ephemeral hand panel: one seat's cards as buttons and what it is asked."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

import discord

from engine import events as ev
from engine.state import Phase
from engine.views import PublicView, SeatView
from tables.snapshot import Status, TableSnapshot

from .i18n import t
from .ids import encode
from .render_story import story_lines
from .render_table import clock_text, ended_text, waiting_seats
from .render_text import (
    MAX_DESCRIPTION,
    MAX_LABEL,
    MAX_TITLE,
    Rendered,
    card_label,
    cards_label,
    clip,
    join_list,
    marks_text,
    names_of,
    timestamp,
)

log = logging.getLogger(__name__)

CARDS_PER_ROW = 4
HAND_COLOUR = discord.Colour.blurple()

# The order of answer buttons, their verbs and styles.
_ACTIONS: tuple[tuple[str, discord.ButtonStyle], ...] = (
    (ev.TOEP, discord.ButtonStyle.danger),
    (ev.CALL, discord.ButtonStyle.success),
    (ev.FOLD, discord.ButtonStyle.secondary),
    (ev.VUILE_WAS, discord.ButtonStyle.danger),
    ("pass", discord.ButtonStyle.secondary),
    (ev.CHECK, discord.ButtonStyle.danger),
    (ev.BELIEVE, discord.ButtonStyle.success),
    (ev.PLAY_IN, discord.ButtonStyle.success),
    (ev.SIT_OUT, discord.ButtonStyle.secondary),
    (ev.SUPER_YES, discord.ButtonStyle.success),
    (ev.SUPER_NO, discord.ButtonStyle.secondary),
)


def hand_panel(snap: TableSnapshot, seat: SeatView, lang: str,
               now: datetime | None = None, hint: str | None = None,
               notice: str | None = None, story: bool = True,
               warning: str | None = None) -> Rendered:
    """`seat`'s private panel. Game buttons carry `snap.stamp`. `hint` is a
    line from `hint_text`, if the cog asked engine.bots.hints for one;
    `notice` one from `panel_notice`; `warning` what running out of time
    would cost (cogs/forfeit_warnings.py), shown while the seat's clock runs.
    `story`: the panel tells what the table is at (render_story.py); off
    where the table is shown beside it."""
    names = names_of(snap)
    embed = discord.Embed(title=clip(t(lang, "hand.title"), MAX_TITLE), colour=HAND_COLOUR)
    head = story_lines(seat.public, snap.recent, names, lang,
                       snap.status is Status.PLAYING) if story else []
    clock_warning = t(lang, "hand.clock_warning", warning=warning) if warning else None
    lines = head + _lines(snap, seat, names, lang, now) + [
        line for line in (clock_warning, hint, notice) if line]
    embed.description = clip("\n".join(lines), MAX_DESCRIPTION)
    view = panel_view(snap, seat, lang)
    return Rendered(None, embed, view if view.children else None)


def panel_notice(stops: datetime, now: datetime, lang: str) -> str:
    """The line of a panel whose interaction token runs out soon (Discord
    lets a panel be edited for 15 minutes): when it stops following the game."""
    if now >= stops:
        return t(lang, "hand.expired")
    return t(lang, "hand.expiring", time=timestamp(stops))


def _lines(snap: TableSnapshot, seat: SeatView, names: Sequence[str], lang: str,
           now: datetime | None) -> list[str]:
    public = seat.public
    lines = [ask_line(snap, seat, names, lang)]
    clock = clock_text(snap.clock, lang, now)
    if clock and _follows_clock(snap, seat):
        lines[0] += " " + clock
    lines += _notes(seat, names, lang)
    if seat.hand:
        lines.append("**" + cards_label(seat.hand, lang) + "**")
    for laid in seat.laid_down:
        lines.append(t(lang, "hand.laid_down", name=names[laid.caller],
                       cards=cards_label(laid.cards, lang)))
    marks = public.marks[seat.seat]
    key = "hand.slate_edge" if marks == public.rules.edge and not public.out[seat.seat] \
        else "hand.slate"
    lines.append(t(lang, key, marks=marks, limit=public.rules.limit))
    return lines


def _follows_clock(snap: TableSnapshot, seat: SeatView) -> bool:
    """Whether the countdown means anything to this seat: not once it is out
    of the game, nor once the game is over or ended."""
    public = seat.public
    return snap.status is Status.PLAYING and not public.over and not public.out[seat.seat]


def _notes(seat: SeatView, names: Sequence[str], lang: str) -> list[str]:
    public = seat.public
    notes = []
    if public.phase is Phase.PLAY and seat.my_turn and public.table:
        notes.append(t(lang, "hand.follow", suit=t(lang, f"suit.{public.table[0][1].suit.value}")))
    if any(s == seat.seat for s, _ in public.open_hands):
        notes.append(t(lang, "hand.open"))
    threshold = public.rules.small_players
    count = public.fold_count[seat.seat]
    if threshold is not None and count >= threshold and not public.out[seat.seat]:
        notes.append(t(lang, "hand.must_call", count=count))
    return notes


def ask_line(snap: TableSnapshot, seat: SeatView, names: Sequence[str], lang: str) -> str:
    """What this seat is asked now, or whom the table waits for."""
    public = seat.public
    me = seat.seat
    if snap.status is Status.ENDED:
        return ended_text(snap, lang)  # an admin, the idle end, a lost channel...
    if public.over:
        return t(lang, "hand.ask.over")
    if public.out[me]:
        return t(lang, "hand.ask.out")
    asked = me in waiting_seats(snap, public)
    legal = {e.do for e in seat.legal}
    phase = public.phase
    if phase is Phase.WINDOW:
        return _window_line(snap, seat, lang, ev.VUILE_WAS in legal)
    if not asked:
        if not public.in_round[me] and phase in (Phase.PLAY, Phase.TOEP_ANSWER, Phase.CHECK):
            return t(lang, "hand.ask.not_in_round")
        return _wait_line(snap, public, names, lang, me)
    if phase is Phase.PLAY:
        return t(lang, "hand.ask.play_toep" if ev.TOEP in legal else "hand.ask.play")
    if phase is Phase.TOEP_ANSWER:
        toeper = "?" if public.last_toeper is None else names[public.last_toeper]
        return t(lang, "hand.ask.toep_answer", name=toeper, stake=public.stake,
                 old=marks_text(public.stake - 1, lang))
    if phase is Phase.CHECK:
        caller = "?" if public.caller is None else names[public.caller]
        return t(lang, "hand.ask.check", name=caller)
    if phase is Phase.DEAD_MAN_CHOICE:
        dead = join_list([names[s] for s in public.dead_men], lang)
        return t(lang, "hand.ask.dead_man_choice", dead=dead)
    if phase is Phase.SUPER_QUESTION:
        return t(lang, "hand.ask.super_question")
    return _wait_line(snap, public, names, lang, me)


def _window_line(snap: TableSnapshot, seat: SeatView, lang: str, may_call: bool) -> str:
    if not seat.public.in_round[seat.seat]:
        return t(lang, "hand.ask.not_in_round")
    if seat.seat in snap.passed:
        return t(lang, "hand.ask.window_passed")
    return t(lang, "hand.ask.window" if may_call else "hand.ask.window_cannot")


def _wait_line(snap: TableSnapshot, public: PublicView, names: Sequence[str], lang: str,
               me: int) -> str:
    others = [names[s] for s in waiting_seats(snap, public) if s != me]
    return t(lang, "hand.ask.wait", names=join_list(others, lang)) if others else ""


def panel_view(snap: TableSnapshot, seat: SeatView, lang: str) -> discord.ui.View:
    """Cards in order (those you may not play disabled), then the answers."""
    view = discord.ui.View(timeout=None)
    if snap.status is Status.ENDED:
        return view  # nothing to play any more
    playable = {e.card for e in seat.legal if e.do == ev.PLAY}
    tid, stamp = snap.table_id, snap.stamp
    for i, card in enumerate(seat.hand):
        enabled = card in playable
        view.add_item(discord.ui.Button(
            label=card_label(card, lang), custom_id=encode(tid, "play", card.text, stamp),
            style=discord.ButtonStyle.primary if enabled else discord.ButtonStyle.secondary,
            disabled=not enabled, row=i // CARDS_PER_ROW))
    row = (len(seat.hand) + CARDS_PER_ROW - 1) // CARDS_PER_ROW
    for verb, style in _ACTIONS:
        if verb in answer_verbs(snap, seat):
            view.add_item(discord.ui.Button(
                label=clip(_label(verb, seat.public, lang), MAX_LABEL),
                custom_id=encode(tid, verb, stamp=stamp), style=style, row=row))
    return view


def answer_verbs(snap: TableSnapshot, seat: SeatView) -> frozenset[str]:
    """The answer buttons this seat gets now: its legal events but plays, and
    "pass" while the vuile was window waits for it. Once it passed, its
    answer is given (R17): no vuile was either."""
    verbs = {e.do for e in seat.legal if e.do != ev.PLAY}
    public = seat.public
    if public.phase is Phase.WINDOW and seat.seat in snap.passed:
        verbs.discard(ev.VUILE_WAS)
    elif public.phase is Phase.WINDOW and seat.seat in public.waiting:
        verbs.add("pass")
    return frozenset(verbs)


def _label(verb: str, public: PublicView, lang: str) -> str:
    if verb == ev.TOEP:
        return t(lang, "btn.toep", stake=public.stake + 1)
    if verb == ev.CALL:
        return t(lang, "btn.call", stake=public.stake)
    if verb == ev.FOLD:
        return t(lang, "btn.fold", marks=marks_text(public.stake - 1, lang))
    if verb == ev.PLAY_IN:
        return t(lang, "btn.play_in", stake=public.stake)
    if verb == ev.SIT_OUT:
        return t(lang, "btn.sit_out", marks=marks_text(1, lang))
    return t(lang, f"btn.{verb}")
