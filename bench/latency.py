"""Durations counted in a fixed amount of memory, for benches that time
millions of steps.

Keeping every sample grows without bound (a soak of 5,000 games times over a
million acts: tens of megabytes of floats that hid any leak in the product).
`Histogram` counts each duration in a logarithmic bucket instead: each bucket
is `resolution` (1 %) wider than the one below it, so 1 µs to an hour takes
about 2,200 buckets at most, whatever the number of samples. A percentile is
the upper edge of the bucket holding that rank (capped at the largest sample
seen): never below the exact figure over all samples, and at most
`resolution` above it.
"""

from __future__ import annotations

import math

FLOOR_S = 1e-6  # every duration at or below 1 µs shares the first bucket


class Histogram:
    def __init__(self, resolution: float = 0.01) -> None:
        self._growth = math.log1p(resolution)
        self._counts: dict[int, int] = {}
        self.count = 0
        self.max = 0.0

    def add(self, seconds: float) -> None:
        index = 0 if seconds <= FLOOR_S else math.ceil(math.log(seconds / FLOOR_S) / self._growth)
        if self._edge(index) < seconds:  # the logarithm rounded down by a hair
            index += 1
        self._counts[index] = self._counts.get(index, 0) + 1
        self.count += 1
        self.max = max(self.max, seconds)

    def percentile(self, fraction: float) -> float:
        """The duration at rank `int(count * fraction)` of the sorted samples
        (0.0 with none), rounded up to its bucket's upper edge."""
        if not self.count:
            return 0.0
        rank = min(self.count - 1, int(self.count * fraction))
        below = 0
        for index in sorted(self._counts):
            below += self._counts[index]
            if below > rank:
                return min(self.max, self._edge(index))
        return self.max  # not reached: the counts add up to `count`

    def _edge(self, index: int) -> float:
        """The largest duration bucket `index` holds."""
        return FLOOR_S * math.exp(index * self._growth)

    @property
    def buckets(self) -> int:
        """How many buckets hold a sample (the memory it takes)."""
        return len(self._counts)
