"""The order and places of a finished game, as every renderer shows them:
the winner first, then by marks, forfeits last; equal marks share a place
(the table message, the slate picture and its alt text all use this; the
sharing is data/places.py's, the leaderboard's too)."""

from __future__ import annotations

from data.places import shared_places
from engine.views import PublicView


def placed(view: PublicView) -> list[tuple[int, int]]:
    """(place, seat) pairs, best first."""
    def key(seat: int) -> tuple[bool, bool, int]:
        return (seat != view.winner, view.forfeited[seat], view.marks[seat])

    order = sorted(range(view.seats), key=lambda s: (*key(s), s))
    return list(zip(shared_places([key(s) for s in order]), order, strict=True))


def ended_in(view: PublicView, seat: int) -> bool:
    """Whether a seat was still in the game when it ended without reaching the
    limit (the last of V6's rounds, a super toep lost): the end, not the
    slate, put it out, so it is named by its place, not "out"."""
    return (view.over and view.out[seat] and view.winner != seat
            and not view.forfeited[seat] and view.marks[seat] < view.rules.limit)


def place_of(view: PublicView, seat: int) -> int:
    """The seat's place in the final standings."""
    return next(place for place, s in placed(view) if s == seat)
