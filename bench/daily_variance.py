"""Where a board's score comes from (issue 28): the deal, or the draws.

Duplicate scoring takes the deal out of a comparison and nothing else. This
part of bench/daily.py measures how much that is: each strength plays each
board `runs` times, and a board's score varies

- with everything drawn afresh (the person's own draws and the computers'):
  what is left of it is the share the board itself explains (`deal_share`,
  one less the mean variance within a board over the variance of all);
- with only the computers' salt changed (`computers_share`; the person's
  later draws follow, since they are keyed by what the person sees);
- with only the person's seed changed (`own_share`).

For each pair of strengths, `same_board_over_other` is the variance of the
difference of their scores on the same board over that on different boards:
what a duplicate comparison keeps of the noise of a random-deal one.
"""

from __future__ import annotations

import statistics
from typing import Any

from engine.board_play import net_score, play_board
from engine.boards import Board, board
from engine.bots import make_bot

STRENGTHS = ("easy", "normal", "hard")
PAIRS = (("hard", "normal"), ("hard", "easy"), ("normal", "easy"))
FIXED_SEED = 7  # the person's seed while only the computers change


def _score(b: Board, strength: str, seed: int, salt: int, level: str) -> float:
    return float(net_score(play_board(b, make_bot(strength, seed), level, salt), b.seat))


def _within(plays: list[list[float]]) -> float:
    """The mean unbiased variance of a board's scores over its plays."""
    return statistics.fmean(statistics.variance(p) for p in plays)


def _shares(boards: list[Board], strength: str, runs: int, level: str
            ) -> tuple[dict[str, float], list[list[float]]]:
    varied = [[_score(b, strength, 100 + r, r, level) for r in range(runs)] for b in boards]
    computers = [[_score(b, strength, FIXED_SEED, r, level) for r in range(runs)]
                 for b in boards]
    own = [[_score(b, strength, 100 + r, 0, level) for r in range(runs)] for b in boards]
    total = statistics.variance([s for p in varied for s in p])
    if total == 0:
        raise ValueError(f"every play of {strength} scored the same: take more boards")
    figures = {"variance": round(total, 2),
               "deal_share": round(1 - _within(varied) / total, 3),
               "computers_share": round(_within(computers) / total, 3),
               "own_share": round(_within(own) / total, 3)}
    return figures, varied


def _kept(first: list[list[float]], second: list[list[float]]) -> float:
    """Variance of A - B on the same board over that on the next board."""
    same = [a - b for pa, pb in zip(first, second, strict=True)
            for a, b in zip(pa, pb, strict=True)]
    other = [a - b for pa, pb in zip(first, second[1:] + second[:1], strict=True)
             for a, b in zip(pa, pb, strict=True)]
    return round(statistics.variance(same) / statistics.variance(other), 3)


def bench_variance(boards: int, runs: int, level: str) -> dict[str, Any]:
    """The shares of each strength and what duplicate keeps of each pair's noise."""
    if boards < 2 or runs < 2:
        raise ValueError("the variance needs at least 2 boards and 2 runs")
    chosen = [board(f"variance-{i // 8}", i % 8) for i in range(boards)]
    figures: dict[str, Any] = {"boards": boards, "runs": runs}
    plays: dict[str, list[list[float]]] = {}
    for strength in STRENGTHS:
        figures[strength], plays[strength] = _shares(chosen, strength, runs, level)
    figures["same_board_over_other"] = {f"{a}_over_{b}": _kept(plays[a], plays[b])
                                        for a, b in PAIRS}
    return figures
