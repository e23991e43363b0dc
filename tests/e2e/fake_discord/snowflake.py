"""Snowflake ids shaped like Discord's, so discord.py's created_at works."""

from __future__ import annotations

import time

DISCORD_EPOCH_MS = 1420070400000


class Snowflakes:
    """Strictly increasing ids: a timestamp in the high bits, like Discord's."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        self._last = max(self._last + 1, ms << 22)
        return self._last
