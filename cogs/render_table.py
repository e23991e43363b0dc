"""The public table message. Built from the snapshot's PublicView only: it
never sees a SeatView, so it cannot show a hidden card."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

import discord

from engine.events import Happening
from engine.state import NORMAL, Phase
from engine.views import PublicView
from tables.snapshot import Clock, Status, TableSnapshot

from .i18n import t
from .ids import encode
from .render_lobby import lobby_message
from .render_manage import again_view
from .render_ratings import ratings_text
from .render_story import stake_line
from .render_text import (
    MAX_DESCRIPTION,
    MAX_FIELD_VALUE,
    MAX_TITLE,
    Rendered,
    card_label,
    cards_label,
    clip,
    happening_line,
    join_list,
    names_of,
    timestamp,
)
from .standings import ended_in, place_of, placed

log = logging.getLogger(__name__)

RECENT_LINES = 6
TABLE_COLOUR = discord.Colour.dark_green()
OVER_COLOUR = discord.Colour.gold()


def table_message(snap: TableSnapshot, lang: str, now: datetime) -> Rendered:
    """The public message of a table at `snap`: the lobby before the game."""
    public = snap.view
    if public is None:
        return lobby_message(snap, lang)
    names = names_of(snap)
    over = public.over or snap.status is not Status.PLAYING
    embed = discord.Embed(title=clip(_title(public, lang, over), MAX_TITLE),
                          colour=OVER_COLOUR if over else TABLE_COLOUR)
    embed.description = clip("\n".join(_head(snap, public, names, lang, now, over)),
                             MAX_DESCRIPTION)
    embed.add_field(name=t(lang, "table.slates", limit=public.rules.limit),
                    value=clip(_slates(snap, public, names, lang), MAX_FIELD_VALUE),
                    inline=False)
    if not over:
        embed.add_field(name=t(lang, "table.on_table"),
                        value=clip(_on_table(public, names, lang), MAX_FIELD_VALUE),
                        inline=False)
    recent = recent_text(snap.recent, names, lang)
    if recent:
        embed.add_field(name=t(lang, "table.recent"), value=recent, inline=False)
    if public.over:
        embed.add_field(name=t(lang, "table.standings"),
                        value=clip(_standings(public, names, lang), MAX_FIELD_VALUE),
                        inline=False)
    ratings = ratings_text(snap, lang)
    if ratings:
        embed.add_field(name=t(lang, "table.ratings"), value=clip(ratings, MAX_FIELD_VALUE),
                        inline=False)
    footer = "table.footer_over" if over else "table.footer"
    embed.set_footer(text=t(lang, footer, id=snap.table_id))
    if not over:
        return Rendered(None, embed, table_view(snap, lang))
    finished = snap.status is Status.FINISHED  # not ended by an admin or for idling
    return Rendered(None, embed, again_view(snap.table_id, lang) if finished else None)


def table_view(snap: TableSnapshot, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=t(lang, "btn.hand"),
                                    custom_id=encode(snap.table_id, "hand"),
                                    style=discord.ButtonStyle.primary))
    return view


def _title(public: PublicView, lang: str, over: bool) -> str:
    if over:
        return t(lang, "table.title_over")
    if public.kind == NORMAL:
        return t(lang, "table.title", number=public.round)
    return t(lang, "table.title_kind", number=public.round, kind=t(lang, f"kind.{public.kind}"))


def _head(snap: TableSnapshot, public: PublicView, names: Sequence[str], lang: str,
          now: datetime, over: bool) -> list[str]:
    if snap.status is Status.ENDED:
        return [ended_text(snap, lang)]
    if over:
        return [] if public.winner is None else [
            t(lang, "hap.game_won", name=names[public.winner])]
    lines = [stake_line(public, lang)]
    turn = turn_line(snap, public, names, lang, now)
    if turn:
        lines.append(turn)
    return lines


# Why a game ended unrated: each has its text, table.ended.<reason>.
ENDED_REASONS = frozenset({"admin", "idle", "save_failed", "channel_gone", "no_permission"})


def ended_text(snap: TableSnapshot, lang: str) -> str:
    """Why the game ended unrated."""
    reason = snap.end_reason if snap.end_reason in ENDED_REASONS else "other"
    return t(lang, f"table.ended.{reason}")


def clock_text(clock: Clock | None, lang: str, now: datetime | None) -> str:
    """A live countdown, or nothing when no clock runs (or it ran out before `now`);
    during an outage, that the clock waits (a countdown would lie)."""
    if clock is not None and clock.paused:
        return t(lang, "clock.paused")
    if clock is None or clock.deadline is None:
        return ""
    if now is not None and clock.deadline <= now:
        return ""
    return t(lang, "clock.window" if clock.window else "clock.turn",
             time=timestamp(clock.deadline))


def waiting_seats(snap: TableSnapshot, public: PublicView) -> tuple[int, ...]:
    seats = snap.clock.seats if snap.clock is not None else public.waiting
    if public.phase is Phase.WINDOW:
        seats = tuple(s for s in seats if s not in snap.passed)
    return seats


def turn_line(snap: TableSnapshot, public: PublicView, names: Sequence[str], lang: str,
              now: datetime) -> str:
    """Whose turn it is, or whom a window waits for, with the clock."""
    clock = clock_text(snap.clock, lang, now)
    seats = waiting_seats(snap, public)
    who = join_list([names[s] for s in seats], lang)
    first = names[seats[0]] if seats else "?"
    phase = public.phase
    if phase is Phase.PLAY:
        text = t(lang, "turn.play", name=first, clock=clock)
    elif phase is Phase.TOEP_ANSWER:
        text = t(lang, "turn.toep_answer", name=first, clock=clock)
    elif phase is Phase.WINDOW:
        text = (t(lang, "turn.window", names=who, clock=clock) if seats
                else t(lang, "turn.window_nobody", clock=clock))
    elif phase is Phase.CHECK:
        caller = "?" if public.caller is None else names[public.caller]
        text = t(lang, "turn.check", caller=caller, name=first, clock=clock)
    elif phase is Phase.DEAD_MAN_CHOICE:
        text = t(lang, "turn.dead_man_choice", names=who, clock=clock)
    elif phase is Phase.SUPER_QUESTION:
        text = t(lang, "turn.super_question", names=who, clock=clock)
    else:
        return ""
    return text.strip()


def tally(marks: int) -> str:
    """A slate: strokes in fives, in a code span (bare "||" is a spoiler)."""
    if marks <= 0:
        return "`·`"
    fives, rest = divmod(marks, 5)
    groups = ["|||||"] * fives + (["|" * rest] if rest else [])
    return "`" + " ".join(groups) + "`"


def seat_notes(public: PublicView, seat: int, lang: str, place_shown: bool = False) -> list[str]:
    """`place_shown`: the line shows the seat's place already (the standings)."""
    notes: list[str] = []
    if public.forfeited[seat]:
        notes.append(t(lang, "note.forfeited"))
    elif ended_in(public, seat):
        if not place_shown:
            notes.append(t(lang, "note.place", place=place_of(public, seat)))
    elif public.out[seat]:
        notes.append(t(lang, "note.out"))
    elif public.marks[seat] == public.rules.edge:
        notes.append(t(lang, "note.edge"))
    if public.winner == seat:
        notes.append(t(lang, "note.winner"))
    if not public.out[seat] and not public.over:
        if public.folded[seat]:
            notes.append(t(lang, "note.folded"))
        elif public.sat_out[seat]:
            notes.append(t(lang, "note.sat_out"))
        if seat in public.dead_men:
            notes.append(t(lang, "note.dead_man"))
        if public.barred[seat]:
            notes.append(t(lang, "note.barred"))
    return notes


def _slates(snap: TableSnapshot, public: PublicView, names: Sequence[str], lang: str) -> str:
    bots = {s.index for s in snap.seats if s.is_bot}
    # Nobody is on turn at a table that was ended (its game stopped, not over).
    done = public.over or snap.status is not Status.PLAYING
    turn = set() if done or public.window else set(waiting_seats(snap, public))
    lines = []
    for seat in range(public.seats):
        marker = "▶" if seat in turn else "▫"
        bot = "🤖 " if seat in bots else ""
        notes = seat_notes(public, seat, lang)
        note = f" · {', '.join(notes)}" if notes else ""
        lines.append(f"{marker} {bot}**{names[seat]}** {tally(public.marks[seat])} "
                     f"{public.marks[seat]}/{public.rules.limit}{note}")
    return "\n".join(lines)


def _on_table(public: PublicView, names: Sequence[str], lang: str) -> str:
    lines = [t(lang, "table.played", name=names[s], card=card_label(c, lang))
             for s, c in public.table] or [t(lang, "table.no_cards")]
    for seat, cards in public.open_hands:
        lines.append(t(lang, "table.open_hand", name=names[seat],
                       cards=cards_label(sorted(cards), lang)))
    return "\n".join(lines)


def recent_text(recent: Sequence[Happening], names: Sequence[str], lang: str,
                limit: int = RECENT_LINES) -> str:
    """The last few happenings, newest last, within one embed field."""
    lines = [happening_line(h, names, lang) for h in recent[-limit:]]
    while lines and len("\n".join(lines)) > MAX_FIELD_VALUE:
        lines.pop(0)
    return "\n".join(lines)


def _standings(public: PublicView, names: Sequence[str], lang: str) -> str:
    lines = []
    for place, s in placed(public):
        notes = seat_notes(public, s, lang, place_shown=True)
        lines.append(t(lang, "table.standing", place=place, name=names[s], marks=public.marks[s],
                       limit=public.rules.limit) + (f" · {', '.join(notes)}" if notes else ""))
    return "\n".join(lines)
