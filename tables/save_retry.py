"""Saves that fail on a timer or a computer player's turn: try again later.

A database locked for a few seconds, a disk full for a moment: the table
was put back to its last saved state, and the same step (the clock that ran
out, the computer's move) is tried again after a growing pause. Only a table
whose saves keep failing for `give_up` ends, unrated. The saves of how a
game ended (its result, an unrated end) never give up.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from tables.clock import Callback, ClockSource
from tables.table_clocks import TableClocks

log = logging.getLogger(__name__)

FIRST_PAUSE = 0.5  # seconds
LONGEST_PAUSE = 15.0


@dataclass
class SaveTrouble:
    give_up: timedelta
    since: datetime | None = None  # the first failure in a row
    failures: int = 0

    def failed(self, now: datetime) -> float | None:
        """Seconds to wait before trying again, or None: give up."""
        if self.since is None:
            self.since = now
        self.failures += 1
        if now - self.since >= self.give_up:
            return None
        return min(LONGEST_PAUSE, FIRST_PAUSE * 2.0 ** (self.failures - 1))

    def saved(self) -> None:
        self.since, self.failures = None, 0

    @property
    def failing(self) -> bool:
        return self.since is not None


class Retries:
    """One table's saves that failed, each tried again after a pause."""

    def __init__(self, table_id: int, give_up: timedelta, clock: ClockSource,
                 clocks: TableClocks) -> None:
        self._id, self._clock, self._clocks = table_id, clock, clocks
        self.trouble = SaveTrouble(give_up)

    async def step(self, action: Callable[[], Awaitable[None]], retry: Callable[[float], None],
                   give_up: Callable[[], Awaitable[None]]) -> bool:
        """Run `action`, a step the table takes on its own (a clock that ran
        out, a computer's move). False if it could not be saved (the table was
        put back): `retry(seconds)` it after a pause, or `give_up()` once
        saves have failed for too long."""
        try:
            await action()
        except Exception:
            delay = self.trouble.failed(self._clock.now())
            if delay is None:
                await give_up()
                return False
            log.warning("table %s: a save failed; trying again in %.1f s", self._id, delay)
            retry(delay)
            return False
        self.trouble.saved()
        return True

    async def until_saved(self, save: Callable[[], Awaitable[None]], what: str,
                          again: Callback) -> bool:
        """`save()`; if it fails, `again()` after a pause, however long saves
        keep failing (nothing is lost meanwhile: the events are saved)."""
        try:
            await save()
        except Exception as err:
            delay = self.trouble.failed(self._clock.now()) or LONGEST_PAUSE
            log.warning("table %s: saving %s failed (%s); trying again in %.1f s",
                        self._id, what, err, delay)
            self._clocks.later(delay, again)
            return False
        self.trouble.saved()
        return True
