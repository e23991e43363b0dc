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
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Worlds:
    sims: list[tuple[RoundSim, float]]  # the moment in each world, and its weight
    exact: bool  # every world is here (else a sample)


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


def worlds(view: SeatView, samples: int, rng: Random, enumerate_ok: bool,
           limit: int = ENUMERATE_LIMIT) -> Worlds:
    """The worlds of this moment: all of them if `enumerate_ok` and they are
    at most `limit`, else `samples` guesses."""
    known = know(view)
    if enumerate_ok:
        every = enumerate_hands(known, limit)
        if every is not None:
            kept = weighed(view, known, every)
            if kept:
                return Worlds([(sim_from_view(view, h), w) for h, w in kept], True)
    guesses = sample_hands(view, known, samples, rng)
    return Worlds([(sim_from_view(view, h), w) for h, w in guesses], False)
