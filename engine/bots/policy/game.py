"""The abstract betting game of `abstraction` as a `cfr.Game`, from samples.

Seats are numbered in answer order: 0 is the actor (who may toep), 1 to n-1
its answerers. Node groups: 0 is the actor's toep, 1 + i the answerer who
answers after history i of `abstraction.histories`. Leaves: 0 is playing on
quietly, 1 + mask the toep answered by `mask` (bit j-1: answerer j calls).
Action 0 is the quiet one (play on, fold), action 1 the bold one (toep, call).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np

from engine.bots.policy.abstraction import BUCKETS, MAX_STAKE, Context, contexts, histories
from engine.bots.policy.cfr import Game, Node, decision, leaf
from engine.bots.policy.dataset import Sample

log = logging.getLogger(__name__)


def tree(players: int) -> Node:
    index = {h: i for i, h in enumerate(histories(players))}

    def answer(j: int, before: tuple[bool, ...]) -> Node:
        if j == players:
            return leaf(1 + sum(1 << k for k, called in enumerate(before) if called))
        return decision(j, 1 + index[before], answer(j + 1, (*before, False)),
                        answer(j + 1, (*before, True)))

    return decision(0, 0, leaf(0), answer(1, ()))


def relative(marks: Sequence[float]) -> list[float]:
    """Each seat's payoff: minus its marks, plus the mean of the others'."""
    n = len(marks)
    total = sum(marks)
    return [-(m - (total - m) / (n - 1)) for m in marks]


def own(marks: Sequence[float]) -> list[float]:
    """Each seat's payoff: minus its own marks (what the search minimises)."""
    return [-m for m in marks]


PAYOFFS = {"relative": relative, "own": own}


def leaf_marks(sample: Sample, stake: int, mask: int | None) -> list[float]:
    """The marks every seat takes at a leaf: `mask` None is the quiet round."""
    n = len(sample.buckets)
    full = (1 << (n - 1)) - 1
    if mask is None:
        winner, jack = sample.winners[full], sample.jacks[full]
        return [0.0 if s == winner else float(stake * (2 if jack else 1)) for s in range(n)]
    winner, jack = sample.winners[mask], sample.jacks[mask]
    raised = (stake + 1) * (2 if jack else 1)
    out = []
    for s in range(n):
        if s > 0 and not mask >> (s - 1) & 1:
            out.append(float(stake))  # folded: the stake before the toep
        else:
            out.append(0.0 if s == winner else float(raised))
    return out


def build(players: int, samples: Sequence[Sample],
          payoff_name: str = "relative") -> tuple[Game, list[Context]]:
    """Every context of `players` as one batch, each sample at every stake;
    `payoff_name` names the payoff (see PAYOFFS)."""
    value = PAYOFFS[payoff_name]
    ctxs = contexts(players)
    where = {c: i for i, c in enumerate(ctxs)}
    rows: list[tuple[int, Sample, int]] = []
    for sample in samples:
        c = sample.context
        if c.players != players:
            continue
        for stake in range(1, MAX_STAKE + 1):
            rows.append((where[Context(players, c.tricks_left, stake, c.place)], sample, stake))
    count = len(rows)
    leaves = 1 << (players - 1)
    context = np.array([r[0] for r in rows], dtype=np.int64)
    per = np.bincount(context, minlength=len(ctxs)).astype(np.float64)
    weight = 1.0 / per[context]
    bucket = np.array([r[1].buckets for r in rows], dtype=np.int64).reshape(count, players)
    payoff = np.zeros((leaves + 1, count, players))
    for i, (_, sample, stake) in enumerate(rows):
        payoff[0, i] = value(leaf_marks(sample, stake, None))
        for mask in range(leaves):
            payoff[1 + mask, i] = value(leaf_marks(sample, stake, mask))
    game = Game(tree(players), players, len(ctxs), leaves, BUCKETS, context, weight,
                bucket, payoff)
    return game, ctxs
