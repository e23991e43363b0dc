"""Work that may wait its turn: at most so many jobs at once, first come first served.

Past capacity the event loop's queue is what makes a click late: Discord wants
its acknowledgement within 3 seconds, and an acknowledgement waits behind
every callback already queued. The work after an acknowledgement (a move and
its save, a table message or hand panel edit) holds a slot while it runs, and
the number of slots shrinks with the load (tables/load.py `Shedding.at_once`):
jobs beyond it wait here, costing nothing, instead of crowding the loop.
A table or panel that waits is shown once, in its newest state, when its turn
comes (the presenter's lanes coalesce), so waiting also saves work.

Moves and hand panels are urgent (the game goes on through them): they go
before the table message's edits, but leave one slot to those while any
wait, so the table message is late past capacity, never frozen.

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
        self._others = 0  # holders that are not urgent
        # Waiters in turn, per kind; a future's result says it was let in.
        self._queues: dict[bool, deque[asyncio.Future[None]]] = {True: deque(), False: deque()}

    @property
    def waiting(self) -> int:
        return sum(1 for queue in self._queues.values() for w in queue if not w.done())

    def _free(self, urgent: bool) -> bool:
        limit = self._limit()
        if limit is None:
            return True
        if urgent and self._queues[False] and not self._others:
            limit = max(1, limit - 1)  # one slot stays for what else waits
        return self.busy < limit

    @contextlib.asynccontextmanager
    async def hold(self, urgent: bool = False) -> AsyncIterator[None]:
        """One slot for the body of the `async with`, waited for in turn
        (an urgent job before any other)."""
        await self._acquire(urgent)
        try:
            yield
        finally:
            self._release(urgent)

    async def _acquire(self, urgent: bool) -> None:
        queue = self._queues[urgent]
        ahead = queue or (not urgent and self._queues[True])
        if not ahead and self._free(urgent):
            self._take(urgent)
            return
        waiter = asyncio.get_running_loop().create_future()
        queue.append(waiter)
        try:
            await waiter  # `reconsider` counts it busy before it runs
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._release(urgent)  # let in, then cancelled before it could run
            else:
                with contextlib.suppress(ValueError):
                    queue.remove(waiter)
            raise

    def _take(self, urgent: bool) -> None:
        self.busy += 1
        self._others += not urgent

    def _release(self, urgent: bool) -> None:
        self.busy -= 1
        self._others -= not urgent
        self.reconsider()

    def reconsider(self) -> None:
        """Let in as many waiters as the limit allows now: urgent ones first,
        oldest first."""
        for urgent in (True, False):
            queue = self._queues[urgent]
            while queue and self._free(urgent):
                waiter = queue.popleft()
                if not waiter.done():
                    self._take(urgent)
                    waiter.set_result(None)
