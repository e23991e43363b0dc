"""Snowflake ids shaped like Discord's, so discord.py's created_at works."""

from __future__ import annotations

import time
from collections.abc import Callable

DISCORD_EPOCH_MS = 1420070400000


class Snowflakes:
    """Strictly increasing ids: a timestamp in the high bits, like Discord's,
    from `wall_clock` (seconds since 1970; tests on a fake clock pass theirs,
    so a message's age agrees with the bot's idea of now)."""

    def __init__(self, wall_clock: Callable[[], float] = time.time) -> None:
        self.wall_clock = wall_clock
        self._last = 0

    def next(self) -> int:
        ms = int(self.wall_clock() * 1000) - DISCORD_EPOCH_MS
        self._last = max(self._last + 1, ms << 22)
        return self._last

    def next_on(self, shard_id: int, shard_count: int) -> int:
        """The next id whose guild would be on that shard: `(id >> 22) % count`
        is the id's millisecond, so that moves on (a few ms ahead of the clock)."""
        ms = self.next() >> 22
        ms += (shard_id - ms) % shard_count
        self._last = max(self._last, ms << 22)
        return self._last

    def age(self, snowflake: int) -> float:
        """Seconds since the id was made, by the same clock."""
        return self.wall_clock() - ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000
