"""tables/clock.py: the system clock's timers let go of what they would have
run once cancelled (a closed table's decision clock or idle end, due hours
later, keeps nothing of it alive meanwhile)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from datetime import timedelta

from tables.clock import SystemClock


class Holder:
    """Stands for a table: its bound method is a timer's callback."""

    def __init__(self) -> None:
        self.fired = False

    async def expire(self) -> None:
        self.fired = True


async def test_a_cancelled_timer_keeps_nothing_alive() -> None:
    clock = SystemClock()
    holder = Holder()
    timer = clock.call_at(clock.now() + timedelta(hours=1), holder.expire)
    gone = weakref.ref(holder)
    timer.cancel()
    del holder
    gc.collect()
    assert gone() is None


async def test_a_timer_runs_its_callback_when_due() -> None:
    clock = SystemClock()
    holder = Holder()
    clock.call_at(clock.now(), holder.expire)
    for _ in range(5):
        await asyncio.sleep(0)
    assert holder.fired
