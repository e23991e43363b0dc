"""Work that may wait its turn: at most so many jobs at once, first come first served.

Past capacity the event loop's queue is what makes a click late: Discord wants
its acknowledgement within 3 seconds, and an acknowledgement waits behind
every callback already queued. The work after an acknowledgement (a move and
its save, a table message or hand panel edit) holds a slot while it runs, and
the number of slots shrinks with the load (tables/load.py `Shedding.at_once`):
jobs beyond it wait here, costing nothing, instead of crowding the loop.
A table or panel that waits is shown once, in its newest state, when its turn
comes (the presenter's lanes coalesce), so waiting also saves work.

A slot is taken before any table's lock and never while holding one, so a
job in a slot never waits for a job that waits for a slot.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator, Callable


class Slots:
    """At most `limit()` holders at once (None: no limit); the limit may
    change at any time: a lower one is kept by new holders waiting, a higher
    one lets waiters in at the next release or `reconsider`."""

    def __init__(self, limit: Callable[[], int | None]) -> None:
        self._limit = limit
        self.busy = 0
        self._waiters: deque[asyncio.Future[None]] = deque()

    @property
    def waiting(self) -> int:
        return sum(1 for waiter in self._waiters if not waiter.done())

    def _free(self) -> bool:
        limit = self._limit()
        return limit is None or self.busy < limit

    @contextlib.asynccontextmanager
    async def hold(self) -> AsyncIterator[None]:
        """One slot for the body of the `async with`, waited for in turn."""
        await self._acquire()
        try:
            yield
        finally:
            self._release()

    async def _acquire(self) -> None:
        if not self._waiters and self._free():
            self.busy += 1
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await waiter  # `_wake` counts it busy before it runs
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._release()  # granted, then cancelled before it could run
            else:
                with contextlib.suppress(ValueError):
                    self._waiters.remove(waiter)
            raise

    def _release(self) -> None:
        self.busy -= 1
        self.reconsider()

    def reconsider(self) -> None:
        """Let in as many waiters as the limit allows now, oldest first."""
        while self._waiters and self._free():
            waiter = self._waiters.popleft()
            if not waiter.done():
                self.busy += 1
                waiter.set_result(None)
