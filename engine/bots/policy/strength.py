"""A seat's strength: its chance of winning the round from here, the bucket
of the abstract game. Read the same way offline (`dataset`) and at the table
(the hard player), or the policy would answer a question it was not asked.

Guesses of the hidden hands are dealt at random, respecting the suits a seat
showed it lacks, and a guess under which a seat's card play would not have
been the rules-of-thumb card is kept less often (the same rejection as the
hard player's guesses, `sampling.guesses_by_play`). The toeps and calls of
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
from engine.bots.sampling import Hands, Play, guesses_by_play
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


def chance(know: Knowledge, plays: list[Play], make: Callable[[Hands], RoundSim],
           rng: Random, count: int = GUESSES) -> float:
    """The share of guesses the seat wins; `make` builds the round from a guess."""
    seat = know.seat
    passed, extra = guesses_by_play(know, plays, count, rng)
    dealt = passed + [hands for _, hands in extra]
    if not dealt:
        return 0.0
    wins = sum(1 for hands in dealt if quiet(make(hands)).winner == seat)
    return wins / len(dealt)


def strength_bucket(know: Knowledge, plays: list[Play], make: Callable[[Hands], RoundSim],
                    rng: Random, count: int = GUESSES) -> int:
    return bucket(chance(know, plays, make, rng, count))
