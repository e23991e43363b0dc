"""The presenter's lanes and their back-off: an update of a table (its message,
its hand panels) that failed for a passing reason is tried again after a
growing pause, and the pause ends early the moment Discord answers again.

A failed lane waits 1, 2, 4, 8... seconds (at most RETRY_MAX). Waiting out
those pauses after Discord is back would leave a table up to half a minute
behind, so a lane's pause is cut short (its back-off reset) by:

- any request for the same table that succeeds (its other lane);
- a probe: while any lane waits, one of them is tried every PROBE_EVERY
  seconds, in turn. It is a real retry, not a request of another kind that
  might pass while edits still fail, and never sooner after the lane's
  last try than its pace allows; once one succeeds, Discord answers again,
  and every waiting lane is tried at once.

So the probes cost one request per PROBE_EVERY for the whole bot, whatever
the number of tables, and a table is shown again within about PROBE_EVERY
of Discord's return.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field

import aiohttp
import discord

from data.sql import OUTAGE_ERRORS
from tables.load import EDIT_INTERVAL

RETRY_MAX = 30.0  # seconds: the longest wait before trying a failed update again
PROBE_EVERY = 0.5  # seconds between two probes while any lane waits to try again


@dataclass(eq=False)
class Lane:
    """One kind of update of a table (its message, its panels): the newest
    state shown at most once per EDIT_INTERVAL, tried again after a failure."""

    dirty: bool = False
    task: asyncio.Task[None] | None = None
    next_at: float = 0.0  # loop time before which it does not try
    failures: int = 0
    interval: Callable[[], float] = field(default=lambda: EDIT_INTERVAL)  # between updates
    urgent: bool = False  # past capacity it goes before others (tables/slots.py)
    tried_at: float = 0.0  # loop time its last try ended
    _woken: asyncio.Event = field(default_factory=asyncio.Event)

    async def pause(self, seconds: float) -> None:
        """Wait `seconds`, or less if `cut_short` is called meanwhile."""
        self._woken.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._woken.wait(), seconds)

    def cut_short(self, reset: bool) -> None:
        """Try now (`reset`: and start the back-off over)."""
        if reset:
            self.failures = 0
        self.next_at = 0.0
        self._woken.set()


class Backoff:
    """The lanes waiting to try a failed update again, and the probe that
    finds Discord answering again."""

    def __init__(self) -> None:
        self.waiting: list[Lane] = []  # oldest first: the next probe's is the first
        self._probe: asyncio.Task[None] | None = None
        self.probes = 0  # lanes tried early (for tests and benches)

    def failed(self, lane: Lane) -> None:
        if lane not in self.waiting:
            self.waiting.append(lane)
        if self._probe is None or self._probe.done():
            self._probe = asyncio.get_running_loop().create_task(self._probing())

    def succeeded(self, lane: Lane, table_lanes: tuple[Lane, ...]) -> None:
        """`lane` landed an update: the table's other lanes try at once; and
        if `lane` had been failing, Discord answers again: every lane does."""
        recovered = lane in self.waiting
        if recovered:
            self.waiting.remove(lane)
        for other in list(self.waiting) if recovered else table_lanes:
            if other is not lane and other in self.waiting:
                self.waiting.remove(other)
                other.cut_short(reset=True)

    def forget(self, lane: Lane) -> None:
        """A lane that stopped trying (a refusal, shutting down)."""
        if lane in self.waiting:
            self.waiting.remove(lane)

    async def _probing(self) -> None:
        while self.waiting:
            await asyncio.sleep(PROBE_EVERY)
            if not self.waiting:
                return
            now = asyncio.get_running_loop().time()
            # Not sooner than its pace allows: Discord's bucket for edits in a
            # channel is a few a second, and discord.py would wait it out.
            lane = next((lane for lane in self.waiting
                         if now - lane.tried_at >= lane.interval()), None)
            if lane is None:
                continue
            self.waiting.remove(lane)
            self.waiting.append(lane)  # the next probe tries another lane
            if lane.failures and lane.next_at > now:
                self.probes += 1
                lane.cut_short(reset=False)

    def close(self) -> None:
        if self._probe is not None:
            self._probe.cancel()
        self.waiting.clear()


def retry_delay(err: Exception, failures: int) -> float | None:
    """Seconds to wait before trying an update again after `err`; None when
    trying again cannot help (a refusal: the channel is gone, a bad body)."""
    backoff = min(RETRY_MAX, EDIT_INTERVAL * 2.0 ** failures)
    if isinstance(err, discord.RateLimited):
        return max(err.retry_after, EDIT_INTERVAL)
    if isinstance(err, discord.HTTPException):
        return backoff if err.status == 429 or err.status >= 500 else None
    if isinstance(err, OSError | aiohttp.ClientError | asyncio.TimeoutError):
        return backoff  # the network
    if isinstance(err, OUTAGE_ERRORS):
        return backoff  # the database locked for a moment, the disk full, gone away
    return None


def discord_trouble(err: Exception) -> bool:
    """Whether `err` says Discord (or the way to it) failed for now: a 5xx, a
    rate limit, the network; not a refusal, not the database."""
    if isinstance(err, discord.RateLimited):
        return True
    if isinstance(err, discord.HTTPException):
        return err.status == 429 or err.status >= 500
    return isinstance(err, OSError | aiohttp.ClientError | asyncio.TimeoutError)
