"""The worlds a review weighs a decision in: the hidden hands, guessed.

Built from the seat's `SeatView` alone, as the hard player guesses (see
`engine.bots.sampling`): nobody holds a suit it showed it lacks, and a world
counts as much as it explains the others' toeps, calls and card play. Late
in a round the worlds are few: then every one of them is dealt out
(`enumerate_hands`), each with its weight, and nothing is left to chance.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from itertools import combinations
from random import Random

from engine.bots.habits import habits, loose_toeper, serial_toeper
from engine.bots.knowledge import Knowledge, know, sim_from_view
from engine.bots.sampling import Hands, likelihood, moments, play_likelihood, plays, sample_hands
from engine.bots.sim import RoundSim
from engine.views import SeatView

log = logging.getLogger(__name__)

# At most this many worlds are dealt out one by one; more, and they are sampled.
ENUMERATE_LIMIT = 2000


World = tuple[RoundSim, float]  # the moment in one world, and its weight


def enumerate_hands(known: Knowledge, limit: int) -> list[Hands] | None:
    """Every deal of the pool to the hidden hands that leaves each seat's
    shown voids void, or None if there are more than `limit`."""
    order = sorted(known.hidden, key=lambda s: -known.voids.get(s, 0).bit_count())
    out: list[Hands] = []

    def deal(k: int, left: tuple[int, ...], hands: Hands) -> Iterator[Hands]:
        if k == len(order):
            yield dict(hands)
            return
        seat = order[k]
        void = known.voids.get(seat, 0)
        fits = [c for c in left if not (void >> (c >> 3)) & 1]
        for got in combinations(fits, known.hidden[seat]):
            hands[seat] = list(got)
            rest = tuple(c for c in left if c not in got)
            yield from deal(k + 1, rest, hands)
        hands.pop(seat, None)

    start: Hands = {s: list(h) for s, h in known.hands.items()}
    for hands in deal(0, tuple(known.pool), start):
        out.append(hands)
        if len(out) > limit:
            return None
    return out


def weighed(view: SeatView, known: Knowledge, all_hands: list[Hands]) -> list[tuple[Hands, float]]:
    """Each deal with how well it explains the round's toeps, calls and plays."""
    moments_ = moments(view, known)
    plays_ = plays(view, known)
    # A serial toeper's toep says nothing of its cards (as in `sample_hands`).
    loose = ([max(loose_toeper(h), serial_toeper(h)) for h in habits(view)]
             if moments_ else [])
    out = []
    for hands in all_hands:
        weight = play_likelihood(plays_, hands) if plays_ else 1.0
        if moments_:
            weight *= likelihood(moments_, hands, loose)
        if weight > 0.0:
            out.append((hands, weight))
    return out


def dealt_out(view: SeatView, limit: int = ENUMERATE_LIMIT) -> list[World] | None:
    """Every world of this moment with its weight, or None if there are more than `limit`."""
    known = know(view)
    every = enumerate_hands(known, limit)
    kept = None if every is None else weighed(view, known, every)
    return [(sim_from_view(view, h), w) for h, w in kept] if kept else None


def guessed(view: SeatView, count: int, rng: Random) -> list[World]:
    """About `count` guesses of the worlds of this moment (at least one)."""
    guesses = sample_hands(view, know(view), max(2, count), rng)
    return [(sim_from_view(view, h), w) for h, w in guesses]
