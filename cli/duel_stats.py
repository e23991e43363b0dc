"""The statistics of `python -m cli.duel`: intervals and percentiles.

Rounds are measured over duplicate deals, so the sample unit is a deal (all
its rotations together), not a single round: the rotations of one deal share
their cards and are not independent. Games are independent draws, so their
share gets a Wilson score interval, which behaves at shares near 0 or 1 and
for few games, where the normal approximation does not.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.96


@dataclass(frozen=True)
class Interval:
    """A value with its 95% interval; `low`/`high` are None when one sample
    cannot give a spread."""

    value: float
    low: float | None
    high: float | None

    def to_json(self) -> list[float | None]:
        return [_round(self.value), _round(self.low), _round(self.high)]


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def mean_interval(samples: Sequence[float]) -> Interval:
    """Mean ± 1.96·sd/√k over k samples (sd: the sample standard deviation)."""
    k = len(samples)
    if k == 0:
        raise ValueError("no samples")
    mean = statistics.fmean(samples)
    if k < 2:
        return Interval(mean, None, None)
    half = Z95 * statistics.stdev(samples) / math.sqrt(k)
    return Interval(mean, mean - half, mean + half)


def wilson_interval(successes: int, trials: int) -> Interval:
    """The share successes/trials with its 95% Wilson score interval."""
    if trials <= 0:
        raise ValueError("no trials")
    p = successes / trials
    z2 = Z95 * Z95
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation between order statistics."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    lower = math.floor(pos)
    upper = min(lower + 1, len(ordered) - 1)
    return ordered[lower] + (ordered[upper] - ordered[lower]) * (pos - lower)
