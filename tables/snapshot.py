"""What a live table shows at one moment: plain values, no asyncio, no discord.

A listener (the Discord cog) gets a `TableSnapshot` after every change and
renders it; nothing in here is hidden from the channel except `SeatView`s,
which are given per seat.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import Enum

from data.ratings import RatingChange
from engine.events import Happening
from engine.game import Game, Phase
from engine.rules import TableRules
from engine.views import PublicView, SeatView


class Status(Enum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"  # the host cancelled, or nobody started the lobby in time
    ENDED = "ended"  # an admin ended it, or nobody acted for too long: unrated


@dataclass(frozen=True)
class SeatInfo:
    index: int
    user_id: int | None  # None for a computer player
    level: str | None  # "easy" | "normal" | "hard" for a computer player
    name: str

    @property
    def is_bot(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True)
class Clock:
    """The running clock: whose decision, until when, and whether it is a
    window (silence answers) or a turn (running out forfeits)."""

    seats: tuple[int, ...]
    deadline: datetime | None  # None: no clock runs (R18, or nobody waited for)
    window: bool
    paused: bool = False  # an outage: nobody can reach the table, no clock runs
    # Seconds left of a clock that waits for the table message to show it; it
    # starts as the message lands, so `deadline` is "if it started now".
    held: float | None = None


@dataclass(frozen=True)
class TableSnapshot:
    table_id: int
    guild_id: int
    channel_id: int
    host_id: int
    public: bool
    rules: TableRules
    status: Status
    seats: tuple[SeatInfo, ...]
    invited: frozenset[int]
    view: PublicView | None  # None in the lobby
    clock: Clock | None
    passed: frozenset[int]  # seats that passed in the open window
    recent: tuple[Happening, ...]  # the last happenings, oldest first
    stamp: str  # names the current decision; game buttons carry it
    end_reason: str | None = None  # "admin", "idle", "cancelled", "lobby_timeout"
    removed: tuple[str, ...] = ()  # names the host took off the lobby lately
    ratings: tuple[RatingChange, ...] = ()  # a rated game's, once its result is saved

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.index
        return None

    @property
    def humans(self) -> int:
        return sum(1 for s in self.seats if not s.is_bot)


@dataclass(frozen=True)
class SeatUpdate:
    """What changed for one seat: its private view (hand panel)."""

    seat: int
    user_id: int
    view: SeatView
    your_turn: bool  # their turn starts now (whether they are pinged: cogs/ping_rule.py)


def decision_stamp(game: Game) -> str:
    """The stamp of the decision on hand. Most decisions are one seat's and
    end with its event. The dead man's choice and the super toep question
    are several seats' at once, answered in any order: their stamp names
    where the decision began, so one answer leaves the others' buttons good."""
    if game.phase is Phase.DEAD_MAN_CHOICE:
        return stamp_of(game.round_base.events)  # the round's first decision
    if game.phase is Phase.SUPER_QUESTION:
        return stamp_of(len(game.events) - len(game.super_yes))  # a no ends it
    return stamp_of(len(game.events))


def stamp_of(event_count: int) -> str:
    """A game button's stamp: the number of events so far, in base 36. Every
    event moves it on, so a button from a passed moment is recognised."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    if event_count == 0:
        return "0"
    out = ""
    while event_count:
        event_count, rest = divmod(event_count, 36)
        out = digits[rest] + out
    return out


def drawn_at(snap: TableSnapshot, now: datetime) -> TableSnapshot:
    """`snap` as a table message drawn at `now` shows it: a held clock
    counts from `now`, for the message that lands starts it."""
    clock = snap.clock
    if clock is None or clock.held is None or clock.paused:
        return snap
    return replace(snap, clock=replace(clock, deadline=now + timedelta(seconds=clock.held)))
