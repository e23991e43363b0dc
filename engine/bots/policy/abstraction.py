"""The abstract betting game: what a betting decision is cut down to.

A moment of a round is a seat on turn (the actor) with some players in the
round, some tricks left, a stake and a place in the trick (cards already on
the table). The abstract game of that moment, its "context": the actor toeps
or plays on quietly; after a toep the others answer in turn, clockwise from
the actor, each seeing the answers before its own; then the round is played
out by the rules of thumb without further toeps, and the winner of the last
trick wins. Every seat knows only its strength bucket: its chance of winning
the quiet play-out from here, read from guesses of the hidden hands.

Payoffs are the marks each seat takes (or, as a choice of the solver, its
marks less the mean of the others': see `game.PAYOFFS`). Marks near the
limit are not in the abstraction: there the hard player keeps its search.
"""

from __future__ import annotations

import logging
from bisect import bisect_right
from dataclasses import dataclass

log = logging.getLogger(__name__)

# Upper edges of the strength buckets (a chance of winning the round). Finer
# where most hands are (a four-player round is won by a quarter of the seats).
EDGES = (0.05, 0.1, 0.17, 0.25, 0.35, 0.45, 0.55, 0.7, 0.85)
BUCKETS = len(EDGES) + 1
PLAYERS = (2, 3, 4)  # players in the round; more fall back to the search
TRICKS = 4
MAX_STAKE = 3  # stakes before a toep above this are read as this


def bucket(chance: float) -> int:
    """The strength bucket of a chance of winning the round."""
    return bisect_right(EDGES, chance)


@dataclass(frozen=True, order=True)
class Context:
    """One abstract game: players in, tricks left, the stake before the
    actor's toep (capped) and the cards on the table before the actor's."""

    players: int
    tricks_left: int
    stake: int
    place: int

    @property
    def name(self) -> str:
        return f"{self.players}p-t{self.tricks_left}-s{self.stake}-c{self.place}"


def contexts(players: int) -> list[Context]:
    """Every context with this many players in the round."""
    return [Context(players, t, s, p) for t in range(TRICKS, 0, -1)
            for s in range(1, MAX_STAKE + 1) for p in range(players)]


def context_of(players: int, tricks_left: int, stake: int, place: int) -> Context | None:
    """The context of a real moment, or None where the abstraction has none."""
    if players not in PLAYERS or not 1 <= tricks_left <= TRICKS or stake < 1:
        return None
    if not 0 <= place < players:
        return None
    return Context(players, tricks_left, min(stake, MAX_STAKE), place)


def histories(players: int) -> list[tuple[bool, ...]]:
    """The answer histories an answerer may face, in the order of the
    answerers (True: called): the first answers after none, the second after
    one of two, and so on. Index = the answerer's node in the game."""
    out: list[tuple[bool, ...]] = []
    for j in range(players - 1):
        for m in range(1 << j):
            out.append(tuple(bool(m >> k & 1) for k in range(j)))
    return out


def history_index(players: int, before: tuple[bool, ...]) -> int:
    """The node of the answerer who answers after `before`."""
    return histories(players).index(before)
