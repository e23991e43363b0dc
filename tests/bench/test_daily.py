"""bench/daily.py on a tiny scale: its figures are there and mean what they say."""

from __future__ import annotations

from bench.daily import bench_busy_day, bench_replays, bench_separation


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


def test_a_busy_day_of_a_few_entrants() -> None:
    figures = bench_busy_day(3, "easy")
    assert figures["errors"] == 0, figures["first_errors"]
    assert figures["finished"] == 3 and figures["ranking_ms"] >= 0
