"""A round's base: everything a game carries from one round into the next.

A live table saves the base of each round it begins, next to its event log,
so a restart replays only the events of the round in play instead of the
whole game (`Game.at_round`). The log stays the truth: a base is a shortcut
that must give exactly the game a full replay gives, and anything amiss in a
saved base is a `RecordError` (the caller then replays the whole log).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.chance import card_list
from engine.errors import RecordError
from engine.state import DEAD_MAN, NORMAL, SUPER_TOEP, DealEntry, RoundSummary

# 2: the vuile was record (caught, shown_genuine) came in; 3: the base of the
# round before rides along (`previous`). Format 2 still reads (no previous).
BASE_FORMAT = 3
_FORMATS = frozenset({2, BASE_FORMAT})
_KINDS = frozenset({NORMAL, DEAD_MAN, SUPER_TOEP})


@dataclass(frozen=True)
class RoundBase:
    """The state just before round `round_no + 1` of `kind` is dealt, after
    `events` events and `deals` deals."""

    events: int
    deals: int
    kind: str
    round_no: int
    marks: tuple[int, ...]
    out: tuple[bool, ...]
    forfeited: tuple[bool, ...]
    forfeit_order: tuple[int, ...]
    fold_count: tuple[int, ...]
    had_dead_man: tuple[bool, ...]
    caught: tuple[int, ...]
    shown_genuine: tuple[int, ...]
    two_left_done: bool
    due_dead: tuple[int, ...]
    rounds: tuple[RoundSummary, ...]
    # The base of the round before this one (itself without a previous), so a
    # restart early in a round can replay from there and still tell the last
    # round's closing lines, instead of replaying the whole game.
    previous: RoundBase | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "format": BASE_FORMAT, "events": self.events, "deals": self.deals,
            "kind": self.kind, "round_no": self.round_no, "marks": list(self.marks),
            "out": list(self.out), "forfeited": list(self.forfeited),
            "forfeit_order": list(self.forfeit_order), "fold_count": list(self.fold_count),
            "had_dead_man": list(self.had_dead_man), "caught": list(self.caught),
            "shown_genuine": list(self.shown_genuine), "two_left_done": self.two_left_done,
            "due_dead": list(self.due_dead), "rounds": [r.to_json() for r in self.rounds],
            "previous": None if self.previous is None else self.previous.to_json(),
        }

    def alone(self) -> RoundBase:
        """This base without the one before it (what the next base keeps)."""
        return self if self.previous is None else replace(self, previous=None)

    def check(self, limit: int) -> None:
        """RecordError unless the base agrees with itself: a summary of every
        round before it, marks that add up, and out who must be out."""
        if [r.number for r in self.rounds] != list(range(1, self.round_no + 1)):
            raise RecordError("round base: it must sum up every round before its own")
        for seat, marks in enumerate(self.marks):
            if sum(r.marks[seat] for r in self.rounds) != marks:
                raise RecordError(f"round base: seat {seat}'s marks are not those of its rounds")
            if self.out[seat] != (self.forfeited[seat] or marks >= limit):
                raise RecordError(f"round base: seat {seat} is out or in against its marks")
        if sorted(self.forfeit_order) != [s for s, f in enumerate(self.forfeited) if f]:
            raise RecordError("round base: the order of forfeits must name each forfeit once")

    @classmethod
    def from_json(cls, data: object, seats: int) -> RoundBase:
        """A saved base, checked for shape (RecordError if anything is off)."""
        if not isinstance(data, Mapping) or data.get("format") not in _FORMATS:
            raise RecordError(f"a round base must be an object of format {BASE_FORMAT}")
        kind = data.get("kind")
        if kind not in _KINDS:
            raise RecordError(f"round base: unknown round kind {kind!r}")
        return cls(
            events=_count(data, "events"), deals=_count(data, "deals"), kind=str(kind),
            round_no=_count(data, "round_no"), marks=_ints(data, "marks", seats),
            out=_flags(data, "out", seats), forfeited=_flags(data, "forfeited", seats),
            forfeit_order=_seats(data, "forfeit_order", seats),
            fold_count=_ints(data, "fold_count", seats),
            had_dead_man=_flags(data, "had_dead_man", seats),
            caught=_ints(data, "caught", seats),
            shown_genuine=_ints(data, "shown_genuine", seats),
            two_left_done=_flag(data.get("two_left_done"), "two_left_done"),
            due_dead=_seats(data, "due_dead", seats),
            rounds=tuple(_summary(r, seats) for r in _list(data, "rounds")),
            previous=_previous(data, seats),
        )


def deal_entry(data: object, seats: int) -> DealEntry:
    """One of a record's `deals` as the game's deal log keeps it (the shape
    only: the cards were checked when the deal was first dealt)."""
    if not isinstance(data, Mapping):
        raise RecordError("a deal must be an object with hands and stock")
    hands = data.get("hands")
    if not isinstance(hands, list) or len(hands) != seats:
        raise RecordError(f"a deal's hands must list one entry per seat ({seats})")
    leader = data.get("leader")
    if leader is not None and (type(leader) is not int or not 0 <= leader < seats):
        raise RecordError(f"a deal's leader must be a seat, got {leader!r}")
    reshuffles = data.get("reshuffles", [])
    if not isinstance(reshuffles, list):
        raise RecordError("a deal's reshuffles must be a list of card lists")
    return DealEntry([None if h is None else card_list("a deal's hand", h) for h in hands],
                     card_list("a deal's stock", data.get("stock")), leader,
                     [card_list("a reshuffle", r) for r in reshuffles])


def _previous(data: Mapping[str, Any], seats: int) -> RoundBase | None:
    """The base of the round before, if saved: a round earlier, and no further back."""
    saved = data.get("previous")
    if saved is None:
        return None
    previous = RoundBase.from_json(saved, seats).alone()
    if previous.round_no >= _count(data, "round_no") or previous.events > _count(data, "events"):
        raise RecordError("round base: the previous base must lie before it")
    return previous


def _summary(data: object, seats: int) -> RoundSummary:
    if not isinstance(data, Mapping):
        raise RecordError("round base: a round summary must be an object")
    kind, winner = data.get("kind"), data.get("winner")
    if kind not in _KINDS:
        raise RecordError(f"round base: unknown round kind {kind!r}")
    if winner is not None and (type(winner) is not int or not 0 <= winner < seats):
        raise RecordError(f"round base: a round's winner must be a seat, got {winner!r}")
    return RoundSummary(_count(data, "number"), str(kind), _seat(data.get("leader"), seats),
                        _count(data, "stake"), winner,
                        _flag(data.get("jack_finish"), "jack_finish"),
                        _ints(data, "marks", seats))


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        raise RecordError(f"round base: {key} must be a list")
    return value


def _count(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if type(value) is not int or value < 0:
        raise RecordError(f"round base: {key} must be a whole number, got {value!r}")
    return value


def _ints(data: Mapping[str, Any], key: str, seats: int) -> tuple[int, ...]:
    values = _list(data, key)
    if len(values) != seats or any(type(v) is not int or v < 0 for v in values):
        raise RecordError(f"round base: {key} must hold {seats} whole numbers")
    return tuple(values)


def _flags(data: Mapping[str, Any], key: str, seats: int) -> tuple[bool, ...]:
    values = _list(data, key)
    if len(values) != seats:
        raise RecordError(f"round base: {key} must hold {seats} flags")
    return tuple(_flag(v, key) for v in values)


def _flag(value: object, key: str) -> bool:
    if not isinstance(value, bool):
        raise RecordError(f"round base: {key} must be true or false")
    return value


def _seats(data: Mapping[str, Any], key: str, seats: int) -> tuple[int, ...]:
    return tuple(_seat(v, seats) for v in _list(data, key))


def _seat(value: object, seats: int) -> int:
    if type(value) is not int or not 0 <= value < seats:
        raise RecordError(f"round base: {value!r} is not a seat")
    return value
