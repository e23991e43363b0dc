"""Saves that fail on a timer or a computer player's turn: try again later.

A database locked for a few seconds, a disk full for a moment: the table
was put back to its last saved state, and the same step (the clock that ran
out, the computer's move) is tried again after a growing pause. Only a table
whose saves keep failing for `give_up` ends, unrated.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

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
