"""Search over guessed hands: the hard player's way of weighing its options.

Every option is played out on the SAME guesses with the same random draws
(common random numbers), so the comparison between options is not drowned in
the noise of the guesses. Endings of at most `SOLVE_TRICKS` tricks are solved
exactly on each guess (every seat plays the card that is best for itself,
knowing all hands: "max-n"); longer rests are played out by the rules of
thumb for every seat, toeps and calls included.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from random import Random

from engine.bots.cardints import legal_cards
from engine.bots.sim import ANSWERING, OVER, RoundSim, run
from engine.bots.thumb import ThumbPolicy, choose_card

log = logging.getLogger(__name__)

SOLVE_TRICKS = 2
SOLVE_TRICKS_TWO = 3  # two players in the round: three tricks are still cheap to solve
SOLVE_MAX_SEATS = 5
# Near the limit, marks are weighed by the game. With k players left, each
# wins the game about 1/k of the time: going out loses that, and another
# player going out raises it to 1/(k-1), a gain of 1/(k(k-1)). In marks: going
# out weighs OUT_PENALTY extra, another going out OUT_PENALTY/(k-1) less.
OUT_PENALTY = 8.0

POLICY = ThumbPolicy()

Option = Callable[[RoundSim], None]


def cost_of(sim: RoundSim, seat: int) -> float:
    """Marks taken, weighed by the game: plus the penalty if they put the
    seat out, less a share of it for each other player they put out."""
    limit = sim.limit
    before = [m - t for m, t in zip(sim.marks, sim.taken, strict=True)]
    alive = sum(1 for m in before if m < limit)
    cost = float(sim.taken[seat])
    if sim.marks[seat] >= limit > before[seat]:
        cost += OUT_PENALTY
    if alive > 1:
        put_out = sum(1 for s in range(sim.n)
                      if s != seat and sim.marks[s] >= limit > before[s])
        cost -= put_out * OUT_PENALTY / (alive - 1)
    return cost


def fold_cost(seat: int, marks: int, before: list[int], limit: int) -> float:
    """`cost_of` for taking `marks` at once (a fold, sitting out)."""
    cost = float(marks)
    return cost + OUT_PENALTY if before[seat] < limit <= before[seat] + marks else cost


def solve(sim: RoundSim) -> RoundSim:
    """Play the rest without toeps, every seat minimising its own marks."""
    if sim.phase == OVER:
        return sim
    seat = sim.turn
    hand = sim.hands[seat]
    legal = legal_cards(hand, sim.led)
    if len(legal) == 1:
        sim.play(legal[0])
        return solve(sim)
    # Try the rules-of-thumb card first, so ties go to the natural play.
    first = choose_card(hand, sim.table, sim.tricks_left)
    order = [first] + [c for c in legal if c != first]
    best: RoundSim | None = None
    best_cost = 1 << 30
    for card in order:
        child = sim.copy()
        child.play(card)
        end = solve(child)
        cost = end.taken[seat]
        if cost < best_cost:
            best, best_cost = end, cost
            if cost == 0:
                break
    assert best is not None
    return best


def finish(sim: RoundSim, rng: Random, policy: ThumbPolicy = POLICY) -> RoundSim:
    """Play `sim` to the end: exactly if the ending is small, else by the rules of thumb."""
    while sim.phase == ANSWERING:
        sim.answer(policy.call(sim, sim.answer_seat, rng))
    if sim.phase != OVER and small_ending(sim):
        sim.may_toep = False
        return solve(sim)
    return run(sim, policy, rng)


def small_ending(sim: RoundSim) -> bool:
    if sim.n_in <= 2:
        return sim.tricks_left <= SOLVE_TRICKS_TWO
    return sim.tricks_left <= SOLVE_TRICKS and sim.n_in <= SOLVE_MAX_SEATS


def compare(base: Sequence[tuple[RoundSim, float]], options: Sequence[Option], seat: int,
            seed: int) -> list[float]:
    """The weighted mean cost (`cost_of`) for `seat` of each option over the same guesses."""
    if not base:
        return [0.0] * len(options)
    totals = [0.0] * len(options)
    weights = 0.0
    policy = ThumbPolicy(seat)
    for i, (start, weight) in enumerate(base):
        weights += weight
        for j, option in enumerate(options):
            sim = start.copy()
            option(sim)
            end = finish(sim, Random(seed * 7919 + i), policy)
            totals[j] += weight * cost_of(end, seat)
    return [t / weights for t in totals]


def play_option(card: int) -> Option:
    def apply(sim: RoundSim) -> None:
        sim.play(card)
    return apply


def toep_option(sim: RoundSim) -> None:
    sim.toep()


def call_option(sim: RoundSim) -> None:
    sim.answer(True)
