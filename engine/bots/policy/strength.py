"""A seat's strength: its chance of winning the round from here, the bucket
of the abstract game. Read the same way offline (`dataset`) and at the table
(the hard player), or the policy would answer a question it was not asked.

Guesses of the hidden hands are dealt at random, respecting the suits a seat
showed it lacks, and a guess under which a seat's card play would not have
been the rules-of-thumb card is kept less often (the same rejection as the
hard player's guesses, `sampling.play_likelihood`). The toeps and calls of
the round are not read: the abstract game's players see each other's toeps
and answers themselves, so reading them into the bucket would count them
twice. The strength is the share of the guesses that the seat wins when the
round is played out quietly by the rules-of-thumb card play.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from random import Random

from engine.bots.knowledge import Knowledge
from engine.bots.policy.abstraction import bucket
from engine.bots.sampling import ATTEMPTS, Hands, Play, deal_guess, play_likelihood
from engine.bots.sim import OVER, RoundSim
from engine.bots.thumb import choose_card

log = logging.getLogger(__name__)

GUESSES = 16


def quiet(sim: RoundSim) -> RoundSim:
    """Play the round out by the rules-of-thumb card play, without toeps."""
    sim.may_toep = False
    while sim.phase != OVER:
        seat = sim.turn
        sim.play(choose_card(sim.hands[seat], sim.table, sim.tricks_left))
    return sim


def guesses(know: Knowledge, plays: list[Play], count: int, rng: Random) -> list[Hands]:
    """Up to `count` guesses of the hidden hands that pass the card-play
    rejection; if too few pass, the best-fitting rejected ones make up half."""
    out: list[Hands] = []
    spare: list[tuple[float, int, Hands]] = []
    for attempt in range(count * ATTEMPTS):
        if len(out) == count:
            break
        hands = deal_guess(know, rng, respect_voids=attempt < count * (ATTEMPTS - 2))
        if hands is None:
            continue
        draw = rng.random() if plays else 0.0
        fit = play_likelihood(plays, hands, draw) if plays else 1.0
        if fit > draw:
            out.append(hands)
        else:
            spare.append((-fit, attempt, hands))
    spare.sort(key=lambda item: item[:2])
    out.extend(hands for _, _, hands in spare[:max(0, count // 2 - len(out))])
    return out


def chance(know: Knowledge, plays: list[Play], make: Callable[[Hands], RoundSim],
           rng: Random, count: int = GUESSES) -> float:
    """The share of guesses the seat wins; `make` builds the round from a guess."""
    seat = know.seat
    dealt = guesses(know, plays, count, rng)
    if not dealt:
        return 0.0
    wins = sum(1 for hands in dealt if quiet(make(hands)).winner == seat)
    return wins / len(dealt)


def strength_bucket(know: Knowledge, plays: list[Play], make: Callable[[Hands], RoundSim],
                    rng: Random, count: int = GUESSES) -> int:
    return bucket(chance(know, plays, make, rng, count))
