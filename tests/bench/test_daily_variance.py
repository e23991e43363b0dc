"""bench/daily_variance.py: its shares and ratios mean what they say."""

from __future__ import annotations

import pytest

from bench.daily_variance import _kept, _within, bench_variance


def test_within_is_the_mean_variance_inside_each_board() -> None:
    assert _within([[1.0, 3.0], [5.0, 5.0]]) == 1.0  # variances 2 and 0


def test_a_same_board_comparison_keeps_nothing_of_a_shared_board_effect() -> None:
    # The scores are the board's alone: the same board cancels them, the next does not.
    first = [[1.0, 1.0], [5.0, 5.0], [9.0, 9.0]]
    assert _kept(first, first) == 0.0
    noisy = [[1.0, 2.0], [5.0, 7.0], [9.0, 8.0]]
    assert 0.0 < _kept(noisy, first) < 1.0


def test_each_strength_gets_its_shares_and_each_pair_its_ratio() -> None:
    figures = bench_variance(2, 2, "easy")
    for strength in ("easy", "normal", "hard"):
        shares = figures[strength]
        assert set(shares) == {"variance", "deal_share", "computers_share", "own_share"}
        assert shares["variance"] >= 0.0
    assert set(figures["same_board_over_other"]) == {"hard_over_normal", "hard_over_easy",
                                                     "normal_over_easy"}


def test_too_small_a_sample_is_refused() -> None:
    with pytest.raises(ValueError):
        bench_variance(1, 2, "easy")
