"""Time for tables: the one place that reads the clock.

`SystemClock` runs timers on the event loop; `FakeClock` runs them when a test
moves time on with `advance`, in deadline order, without sleeping.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol

from tables.log_safe import log_failure

log = logging.getLogger(__name__)

Callback = Callable[[], Awaitable[None]]


class Timer(Protocol):
    def cancel(self) -> None: ...


class ClockSource(Protocol):
    def now(self) -> datetime: ...

    def call_at(self, when: datetime, callback: Callback) -> Timer:
        """Run `callback` at `when` (at once if that is past)."""
        ...

    async def sleep(self, seconds: float) -> None: ...


class _LoopTimer:
    def __init__(self, handle: asyncio.TimerHandle) -> None:
        self.handle = handle
        self.task: asyncio.Task[None] | None = None

    def cancel(self) -> None:
        self.handle.cancel()


class SystemClock:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def now(self) -> datetime:
        return datetime.now(UTC)

    def call_at(self, when: datetime, callback: Callback) -> Timer:
        loop = asyncio.get_running_loop()
        delay = max(0.0, (when - self.now()).total_seconds())

        def fire() -> None:
            task = loop.create_task(_guarded(callback))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        return _LoopTimer(loop.call_later(delay, fire))

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


async def _guarded(callback: Callback) -> None:
    try:
        await callback()
    except Exception:
        log_failure(log, logging.ERROR, "a timer's callback failed")


class _FakeTimer:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """Time stands still until `advance` moves it; due timers then run in order."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
        self._queue: list[tuple[datetime, int, _FakeTimer, Callback]] = []
        self._order = itertools.count()
        # Awaited before and after each timer, so work a timer started (a
        # computer's turn, a save) is done before the next one falls due.
        self.settle_hooks: list[Callable[[], Awaitable[None]]] = []

    def now(self) -> datetime:
        return self._now

    def call_at(self, when: datetime, callback: Callback) -> Timer:
        timer = _FakeTimer()
        heapq.heappush(self._queue, (when, next(self._order), timer, callback))
        return timer

    async def sleep(self, seconds: float) -> None:
        # Pauses (a computer player's readable pause) take no fake time.
        await asyncio.sleep(0)

    def pending(self) -> list[datetime]:
        return sorted(when for when, _, timer, _ in self._queue if not timer.cancelled)

    async def advance(self, seconds: float) -> None:
        """Move time on, running every timer that falls due, in order."""
        end = self._now + timedelta(seconds=seconds)
        await self._settle()
        while self._queue and self._queue[0][0] <= end:
            when, _, timer, callback = heapq.heappop(self._queue)
            if timer.cancelled:
                continue
            self._now = max(self._now, when)
            await _guarded(callback)
            await self._settle()
        self._now = end

    async def _settle(self) -> None:
        await settle()
        for hook in self.settle_hooks:
            await hook()


async def settle(rounds: int = 50) -> None:
    """Let tasks that are ready run (computer turns, notifications)."""
    for _ in range(rounds):
        await asyncio.sleep(0)
