"""Kuhn poker as a `cfr.Game`: a small game whose value is known (-1/18 for
the first player), to test the solver against."""

from __future__ import annotations

import itertools

import numpy as np

from engine.bots.policy.cfr import Game, decision, leaf

# Leaves: 0 check-check (showdown for 1), 1 check-bet-fold, 2 check-bet-call
# (showdown for 2), 3 bet-fold, 4 bet-call (showdown for 2).
ROOT = decision(0, 0,
                decision(1, 1, leaf(0), decision(0, 2, leaf(1), leaf(2))),
                decision(1, 3, leaf(3), leaf(4)))


def kuhn() -> Game:
    deals = list(itertools.permutations(range(3), 2))
    s = len(deals)
    bucket = np.array(deals, dtype=np.int64)
    payoff = np.zeros((5, s, 2))
    for i, (a, b) in enumerate(deals):
        sign = 1.0 if a > b else -1.0
        for row, value in ((0, sign), (1, -1.0), (2, 2 * sign), (3, 1.0), (4, 2 * sign)):
            payoff[row, i] = (value, -value)
    return Game(ROOT, 2, 1, 4, 3, np.zeros(s, dtype=np.int64), np.full(s, 1.0 / s),
                bucket, payoff)
