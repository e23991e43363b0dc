"""What each legal choice of a decision costs in marks, world by world.

Every choice is played out in the same worlds with the same random draws
(common random numbers), so the differences between choices are not drowned
in the noise of the worlds. The rest of the round is played by the hard
player's own play-out policy (engine/bots/search.py): the rules of thumb for
every seat until the ending is small, and then every seat plays its best card
knowing all hands. In a small ending an answer to a toep is not drawn but
weighed (call with chance p: p times the call's marks plus 1-p times the
fold's), so a small ending has one answer per world and no chance in it.

Marks are weighed by the game near the limit, as the hard player weighs
them (`search.cost_of`): going out counts `OUT_PENALTY` marks more, putting
another player out a share of it less. A super toep takes no marks: its
last trick decides the game, so losing it counts `OUT_PENALTY` (the seat
goes out) and winning it `OUT_PENALTY` less (the other goes out), and its
small ending is solved for the last trick, not for marks.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import sqrt
from random import Random

from engine import events as ev
from engine.bots.cardints import legal_cards
from engine.bots.search import OUT_PENALTY, cost_of, small_ending, solve
from engine.bots.sim import ANSWERING, OVER, RoundSim
from engine.bots.thumb import ThumbPolicy, call_probability, seen_in_sim, strict_call, win_chance
from engine.events import Event

log = logging.getLogger(__name__)

Option = Callable[[RoundSim], None]


def option_of(event: Event) -> Option:
    """The choice `event` as a step of a simulated round."""
    if event.do == ev.PLAY and event.card is not None:
        card = event.card.index
        return lambda sim: sim.play(card)
    if event.do == ev.TOEP:
        return lambda sim: sim.toep()
    if event.do in (ev.CALL, ev.FOLD):
        call = event.do == ev.CALL
        return lambda sim: sim.answer(call)
    raise ValueError(f"{event.do} is not a choice within a round")


def call_chance(sim: RoundSim, seat: int, policy: ThumbPolicy) -> float:
    """How often the play-out policy calls here (the reviewed seat: 0 or 1)."""
    chance = win_chance(seen_in_sim(sim, seat))
    if seat == policy.me:
        return 1.0 if strict_call(chance, sim.stake) else 0.0
    return call_probability(chance, sim.stake)


def play_out(sim: RoundSim, seat: int, rng: Random, policy: ThumbPolicy) -> float:
    """The marks `seat` takes from this moment to the round's end, weighed by the game."""
    while sim.phase != OVER:
        small = small_ending(sim)
        if sim.phase == ANSWERING:
            p = call_chance(sim, sim.answer_seat, policy) if small else -1.0
            if 0.0 < p < 1.0:
                called = sim.copy()
                called.answer(True)
                sim.answer(False)
                return (p * play_out(called, seat, rng, policy)
                        + (1.0 - p) * play_out(sim, seat, rng, policy))
            call = p >= 1.0 if small else policy.call(sim, sim.answer_seat, rng)
            sim.answer(call)
            continue
        if small:
            return solved(sim, seat)
        turn = sim.turn
        if sim.can_toep(turn) and policy.toep(sim, turn, rng):
            sim.toep()
        else:
            sim.play(policy.card(sim, turn, rng))
    return outcome(sim, seat)


def outcome(sim: RoundSim, seat: int) -> float:
    """What the round just over cost `seat`, weighed by the game."""
    if sim.jack_counts:
        return cost_of(sim, seat)
    return -OUT_PENALTY if sim.winner == seat else OUT_PENALTY  # a super toep


def solved(sim: RoundSim, seat: int) -> float:
    """The cost of a small ending in which every seat plays its best card knowing all hands."""
    sim.may_toep = False
    if sim.jack_counts:
        return cost_of(solve(sim), seat)
    return -OUT_PENALTY if last_trick_winner(sim) == seat else OUT_PENALTY


def last_trick_winner(sim: RoundSim) -> int:
    """Who takes the last trick when each seat plays for it knowing all
    hands (a super toep has two players, so this is exact play for both)."""
    if sim.phase == OVER:
        return sim.winner
    seat = sim.turn
    winner = -1
    for card in legal_cards(sim.hands[seat], sim.led):
        child = sim.copy()
        child.play(card)
        winner = last_trick_winner(child)
        if winner == seat:
            break
    return winner


@dataclass(frozen=True)
class Table:
    """Marks of each choice (columns) in each world (rows), with the worlds' weights."""

    rows: list[list[float]]
    weights: list[float]

    def mean(self, j: int) -> float:
        total = sum(self.weights)
        return sum(w * r[j] for w, r in zip(self.weights, self.rows, strict=True)) / total

    def joined(self, more: Table) -> Table:
        return Table(self.rows + more.rows, self.weights + more.weights)

    def se_of_difference(self, j: int, k: int) -> float:
        """The standard error of mean(j) - mean(k), paired world by world."""
        total = sum(self.weights)
        diffs = [r[j] - r[k] for r in self.rows]
        mean = sum(w * d for w, d in zip(self.weights, diffs, strict=True)) / total
        var = sum((w * (d - mean)) ** 2 for w, d in zip(self.weights, diffs, strict=True))
        return sqrt(var) / total


def table(sims: Sequence[tuple[RoundSim, float]], options: Sequence[Option], seat: int,
          seed: int, first: int = 0) -> Table:
    """Each option played out in every world, with the same draws per world
    (world i of the decision, counting from `first`, draws from seed and i)."""
    policy = ThumbPolicy(seat)
    rows = []
    for i, (start, _) in enumerate(sims, first):
        row = []
        for option in options:
            sim = start.copy()
            option(sim)
            row.append(play_out(sim, seat, Random(seed * 7919 + i), policy))
        rows.append(row)
    return Table(rows, [w for _, w in sims])
