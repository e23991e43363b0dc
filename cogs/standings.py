"""The order and places of a finished game, as every renderer shows them:
the winner first, then by marks, forfeits last; equal marks share a place
(the table message, the slate picture and its alt text all use this)."""

from __future__ import annotations

from engine.views import PublicView


def placed(view: PublicView) -> list[tuple[int, int]]:
    """(place, seat) pairs, best first."""
    def key(seat: int) -> tuple[bool, bool, int]:
        return (seat != view.winner, view.forfeited[seat], view.marks[seat])

    order = sorted(range(view.seats), key=lambda s: (*key(s), s))
    out: list[tuple[int, int]] = []
    for rank, seat in enumerate(order, start=1):
        shares = out and key(out[-1][1]) == key(seat)
        out.append((out[-1][0] if shares else rank, seat))
    return out
