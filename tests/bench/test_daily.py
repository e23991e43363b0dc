"""bench/daily.py on a tiny scale: its figures are there and mean what they say."""

from __future__ import annotations

import statistics

from bench.daily import _alike, _margin, bench_busy_day, bench_replays, bench_separation


def test_replays_of_the_same_choices_are_the_same_games() -> None:
    figures = bench_replays(4, "normal")
    assert figures["replays"] == 4 and figures["replays_differing"] == 0


def test_separation_gives_shares_for_each_pair() -> None:
    figures = bench_separation(1, "easy")
    for scoring in ("duplicate", "duplicate_total", "random_deals"):
        shares = figures[scoring]
        assert set(shares) == {"hard_over_normal", "hard_over_easy", "normal_over_easy",
                               "mean"}
        assert all(0.0 <= v <= 1.0 for v in shares.values())
        assert set(figures[f"{scoring}_plus_minus_95"]) == set(shares)
    assert set(figures["same_board"]) == {"hard_over_normal", "hard_over_easy",
                                          "normal_over_easy"}


def test_two_days_give_a_margin_and_the_gain_over_random_deals() -> None:
    figures = bench_separation(2, "easy")
    gain = figures["duplicate_less_random"]
    shares = figures["duplicate"]["mean"] - figures["random_deals"]["mean"]
    assert abs(gain["mean"] - shares) <= 0.0015  # each figure rounded to 0.001
    assert gain["plus_minus_95"] is not None and gain["plus_minus_95"] >= 0.0


def test_a_margin_is_the_95_percent_half_width_of_the_days() -> None:
    days = [1.0, 0.0, 0.5, 1.0]
    assert _margin(days) == round(1.96 * statistics.stdev(days) / 2, 3)
    assert _margin([1.0]) is None


def test_alike_counts_ties_and_correlates_the_boards() -> None:
    assert _alike([1.0, 2.0, 3.0], [2.0, 4.0, 3.0]) == {"correlation": 0.5, "ties": 0.333}
    assert _alike([1.0, 1.0], [2.0, 3.0])["correlation"] is None


def test_a_busy_day_of_a_few_entrants() -> None:
    figures = bench_busy_day(3, "easy")
    assert figures["errors"] == 0, figures["first_errors"]
    assert figures["finished"] == 3 and figures["ranking_ms"] >= 0
