"""bench/latency.py: percentiles in bounded memory, never below the exact
figure and at most 1 % above it."""

from __future__ import annotations

import random

import pytest

from bench.latency import Histogram


def exact(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


@pytest.mark.parametrize("fraction", [0.0, 0.5, 0.9, 0.99, 0.999, 1.0])
def test_percentiles_within_one_percent_above_the_exact_figure(fraction: float) -> None:
    rng = random.Random(7)
    samples = [rng.lognormvariate(-3, 1.5) for _ in range(20_000)] + [0.0, 1e-7, 2.5]
    histogram = Histogram()
    for sample in samples:
        histogram.add(sample)
    want = max(exact(samples, fraction), 1e-6)  # the first bucket holds everything up to 1 µs
    assert want <= histogram.percentile(fraction) <= want * 1.01


def test_memory_stays_bounded_however_many_samples() -> None:
    rng = random.Random(3)
    histogram = Histogram()
    for _ in range(200_000):
        histogram.add(rng.uniform(0.001, 0.5))
    assert histogram.count == 200_000
    assert histogram.buckets <= 630  # log(500) / log(1.01) + 1: the range decides, not the count


def test_samples_on_a_bucket_edge_and_the_maximum() -> None:
    histogram = Histogram()
    for sample in (0.05, 0.05, 0.05, 0.2):
        histogram.add(sample)
    assert 0.05 <= histogram.percentile(0.5) <= 0.0505
    assert histogram.percentile(1.0) == 0.2 and histogram.max == 0.2


def test_no_samples_give_zero() -> None:
    assert Histogram().percentile(0.99) == 0.0
