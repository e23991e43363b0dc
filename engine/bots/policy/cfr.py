"""Counterfactual regret minimisation (CFR+) over many small games at once.

A `Game` is a tree of two-action decisions, the same for every game in a
batch, and a set of chance samples: each sample says which of the stacked
games it belongs to (its context), its chance weight, every player's private
bucket and the payoff of every leaf. An information set is (context, node's
group, the acting player's bucket): a player knows its own bucket and the
public path, nothing of the others' buckets. Samples are processed as numpy
vectors, so one pass over the tree updates every context and sample.

CFR+ (Tammelin 2014): regrets are floored at zero, the players update in
turn, and the average strategy weighs iteration t by t. For two players in a
zero-sum game the average converges to a Nash equilibrium; for more players
it is the self-play policy that Pluribus-style solvers use. Everything is
deterministic: no sampling inside the solver.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

log = logging.getLogger(__name__)

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Node:
    """A decision of `player` (info-set `group`) with two children, or a
    leaf (player -1) whose payoffs are row `leaf` of the game's payoffs."""

    player: int = -1
    group: int = 0
    children: tuple[Node, ...] = ()
    leaf: int = 0


def leaf(index: int) -> Node:
    return Node(leaf=index)


def decision(player: int, group: int, first: Node, second: Node) -> Node:
    return Node(player, group, (first, second))


@dataclass
class Game:
    """A batch of games with one tree: `contexts` games, `groups` decision
    groups, `buckets` buckets per player."""

    root: Node
    players: int
    contexts: int
    groups: int
    buckets: int
    context: Ints  # (S,) which game a sample belongs to
    weight: Floats  # (S,) chance weight; each context's weights sum to 1
    bucket: Ints  # (S, players)
    payoff: Floats  # (leaves, S, players)
    _base: dict[int, Ints] = field(default_factory=dict, repr=False)

    @property
    def size(self) -> int:
        """The number of information sets."""
        return self.contexts * self.groups * self.buckets

    def infoset(self, node: Node) -> Ints:
        """(S,) the information set of the acting player at `node`, per sample."""
        key = node.group * self.players + node.player
        if key not in self._base:
            base = (self.context * self.groups + node.group) * self.buckets
            self._base[key] = base + self.bucket[:, node.player]
        return self._base[key]


def sums(index: Ints, weights: Floats, size: int) -> Floats:
    """The weights summed per index value (0 to size-1)."""
    return np.asarray(np.bincount(index, weights, size), dtype=np.float64)


def payoff_of(game: Game, node: Node, p: int | None = None) -> Floats:
    """A leaf's payoffs: (S, players), or (S,) for player `p`."""
    rows = game.payoff[node.leaf]
    out: Floats = rows if p is None else rows[:, p]
    return out


def regret_matching(regret: Floats) -> Floats:
    """The strategy in proportion to positive regret; uniform without any."""
    positive = np.maximum(regret, 0.0)
    total = positive.sum(axis=1, keepdims=True)
    uniform = np.full_like(positive, 1.0 / positive.shape[1])
    return np.where(total > 0.0, positive / np.where(total > 0.0, total, 1.0), uniform)


class Solver:
    """CFR+ on a `Game`; `average()` is the policy."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.regret = np.zeros((game.size, 2))
        self.total = np.zeros((game.size, 2))  # the average strategy's weights
        self.reach = np.zeros(game.size)  # chance and the others' reach, summed
        self.iterations = 0

    def run(self, iterations: int) -> None:
        game = self.game
        for _ in range(iterations):
            self.iterations += 1
            for p in range(game.players):
                self._strategy = regret_matching(self.regret)
                self._walk(game.root, p, game.weight, np.ones_like(game.weight))

    def _walk(self, node: Node, p: int, others: Floats, own: Floats) -> Floats:
        """The value for `p` per sample; `others` is the chance and the other
        players' reach, `own` is p's."""
        game = self.game
        if node.player < 0:
            return payoff_of(game, node, p)
        idx = game.infoset(node)
        sigma = self._strategy[idx]
        if node.player != p:
            values = [self._walk(child, p, others * sigma[:, a], own)
                      for a, child in enumerate(node.children)]
            return sigma[:, 0] * values[0] + sigma[:, 1] * values[1]
        values = [self._walk(child, p, others, own * sigma[:, a])
                  for a, child in enumerate(node.children)]
        value = sigma[:, 0] * values[0] + sigma[:, 1] * values[1]
        self.reach += sums(idx, others, game.size)
        for a in range(2):
            gain = sums(idx, others * (values[a] - value), game.size)
            self.regret[:, a] = np.maximum(self.regret[:, a] + gain, 0.0)
            self.total[:, a] += self.iterations * sums(idx, own * sigma[:, a], game.size)
        return value

    def average(self, min_reach: float = 0.0) -> Floats:
        """The average strategy. An information set never reached is NaN, and
        so is one whose mean reach by chance and the others (the share of its
        game's moments that come to it) is below `min_reach`: off the path of
        play, or too rare in the samples for its strategy to mean anything."""
        total = self.total.sum(axis=1, keepdims=True)
        often = (self.reach / max(1, self.iterations) >= min_reach)[:, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where((total > 0.0) & often, self.total / total, np.nan)


def _filled(game: Game, strategy: Floats) -> Floats:
    """The strategy with unreached information sets played uniformly."""
    return np.where(np.isnan(strategy), 0.5, strategy)


def values(game: Game, strategy: Floats) -> Floats:
    """(contexts, players): every player's expected payoff in each game."""
    sigma = _filled(game, strategy)

    def walk(node: Node) -> Floats:
        if node.player < 0:
            return payoff_of(game, node)
        s = sigma[game.infoset(node)]
        first, second = (walk(child) for child in node.children)
        out: Floats = s[:, 0:1] * first + s[:, 1:2] * second
        return out

    per_sample = walk(game.root) * game.weight[:, None]
    out = np.zeros((game.contexts, game.players))
    for p in range(game.players):
        out[:, p] = sums(game.context, per_sample[:, p], game.contexts)
    return out


def best_response(game: Game, strategy: Floats, p: int) -> Floats:
    """(contexts,): what player p gets in each game by its best response to
    the others playing `strategy`."""
    sigma = _filled(game, strategy)

    def walk(node: Node, others: Floats) -> Floats:
        if node.player < 0:
            return payoff_of(game, node, p)
        idx = game.infoset(node)
        s = sigma[idx]
        if node.player != p:
            first, second = (walk(child, others * s[:, a])
                             for a, child in enumerate(node.children))
            return s[:, 0] * first + s[:, 1] * second
        first, second = (walk(child, others) for child in node.children)
        q0 = sums(idx, others * first, game.size)
        q1 = sums(idx, others * second, game.size)
        pick = (q1 > q0)[idx]
        return np.where(pick, second, first)

    per_sample = walk(game.root, game.weight) * game.weight
    return sums(game.context, per_sample, game.contexts)
