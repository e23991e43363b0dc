"""The solver converges on a game whose answer is known: Kuhn poker."""

from __future__ import annotations

import numpy as np

from engine.bots.policy import cfr, exploit
from tests.engine.bots.policy.kuhn import kuhn

KUHN_VALUE = -1.0 / 18.0


def _solved(iterations: int) -> tuple[cfr.Game, cfr.Floats]:
    game = kuhn()
    solver = cfr.Solver(game)
    solver.run(iterations)
    return game, solver.average()


def test_kuhn_value_and_exploitability() -> None:
    game, strategy = _solved(1000)
    value = cfr.values(game, strategy)[0]
    assert abs(value[0] - KUHN_VALUE) < 1e-3
    assert abs(value[0] + value[1]) < 1e-12  # zero-sum
    assert exploit.gains(game, strategy).sum() < 1e-3


def test_exploitability_falls_with_iterations() -> None:
    early = exploit.gains(*_solved(10)).sum()
    late = exploit.gains(*_solved(300)).sum()
    assert late < early / 5


def test_uniform_play_is_exploitable() -> None:
    game = kuhn()
    uniform = np.full((game.size, 2), 0.5)
    assert exploit.gains(game, uniform).sum() > 0.3


def test_kuhn_equilibrium_shape() -> None:
    """The second player always calls a bet with the king, never with the jack."""
    game, strategy = _solved(1000)
    call = strategy[:, 1].reshape(game.groups, game.buckets)[3]  # facing a bet
    assert call[2] > 0.99
    assert call[0] < 0.01


def test_regret_matching_is_a_distribution() -> None:
    got = cfr.regret_matching(np.array([[1.0, 3.0], [-1.0, -2.0], [0.0, 2.0]]))
    assert np.allclose(got, [[0.25, 0.75], [0.5, 0.5], [0.0, 1.0]])
