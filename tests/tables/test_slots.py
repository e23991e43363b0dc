"""Slots: at most the limit at once, in turn, a limit that changes, and
cancellation that neither loses nor leaks a slot."""

from __future__ import annotations

import asyncio

from tables.clock import settle
from tables.load import AT_ONCE, Level, LoadGauge, shedding
from tables.slots import Slots


class Job:
    """A job that holds a slot until told to finish."""

    def __init__(self, slots: Slots, name: str, log: list[str], urgent: bool = False) -> None:
        self.done = asyncio.Event()
        self.task = asyncio.create_task(self._run(slots, name, log, urgent))

    async def _run(self, slots: Slots, name: str, log: list[str], urgent: bool) -> None:
        async with slots.hold(urgent):
            log.append(name)
            await self.done.wait()


async def test_no_more_than_the_limit_at_once_and_the_rest_in_turn() -> None:
    limit = 2
    slots, log = Slots(lambda: limit), list[str]()
    jobs = [Job(slots, name, log) for name in "abcde"]
    await settle()
    assert log == ["a", "b"] and slots.busy == 2 and slots.waiting == 3
    jobs[1].done.set()
    await settle()
    assert log == ["a", "b", "c"]
    for job in jobs:
        job.done.set()
    await asyncio.gather(*(job.task for job in jobs))
    assert log == list("abcde") and slots.busy == 0 and slots.waiting == 0


async def test_a_higher_limit_lets_waiters_in_and_a_lower_one_holds_new_ones() -> None:
    limit: int | None = 1
    slots, log = Slots(lambda: limit), list[str]()
    jobs = [Job(slots, name, log) for name in "abc"]
    await settle()
    assert log == ["a"]
    limit = None  # no limit at all
    slots.reconsider()
    await settle()
    assert log == ["a", "b", "c"]
    limit = 1
    late = Job(slots, "d", log)
    await settle()
    assert log == ["a", "b", "c"]  # three run, the limit is one: d waits
    for job in jobs:
        job.done.set()
    await settle()
    assert log[-1] == "d"
    late.done.set()
    await late.task
    assert slots.busy == 0


async def test_a_waiter_cancelled_leaves_the_queue_and_loses_no_slot() -> None:
    slots, log = Slots(lambda: 1), list[str]()
    first, second, third = (Job(slots, name, log) for name in "abc")
    await settle()
    second.task.cancel()
    await settle()
    assert second.task.cancelled() and slots.waiting == 1
    first.done.set()
    await settle()
    assert log == ["a", "c"] and slots.busy == 1
    third.done.set()
    await third.task
    assert slots.busy == 0


async def test_a_job_cancelled_just_after_its_turn_came_gives_the_slot_back() -> None:
    slots, log = Slots(lambda: 1), list[str]()
    first, second, third = (Job(slots, name, log) for name in "abc")
    await settle()
    first.done.set()
    for _ in range(10):  # until a finished and handed its slot to b, which has not run yet
        if first.task.done():
            break
        await asyncio.sleep(0)
    assert first.task.done() and "b" not in log and slots.waiting == 1
    second.task.cancel()
    await settle()
    assert "b" not in log and log[-1] == "c" and slots.busy == 1
    third.done.set()
    await third.task
    assert slots.busy == 0


async def test_the_gauge_s_slots_shrink_with_the_load_and_open_when_it_falls() -> None:
    assert [shedding(level).at_once for level in Level] == [AT_ONCE[level] for level in Level]
    assert AT_ONCE[Level.NORMAL] is None
    limits = [n for level in Level if (n := AT_ONCE[level]) is not None]
    assert len(limits) == len(Level) - 1 and limits == sorted(limits, reverse=True)
    gauge, log = LoadGauge(), list[str]()
    gauge.force(Level.SATURATED)
    at_once = AT_ONCE[Level.SATURATED]
    assert at_once is not None
    jobs = [Job(gauge.slots, str(i), log) for i in range(at_once + 3)]
    await settle()
    assert len(log) == at_once
    gauge.force(None)  # measured again: normal, no limit
    await settle()
    assert len(log) == at_once + 3
    for job in jobs:
        job.done.set()
    await asyncio.gather(*(job.task for job in jobs))
    assert gauge.slots.busy == 0


async def test_urgent_jobs_go_first_but_leave_one_slot_to_the_others() -> None:
    slots, log = Slots(lambda: 2), list[str]()
    holders = [Job(slots, name, log) for name in "ab"]
    await settle()

    edit = Job(slots, "edit", log)
    move1, move2 = Job(slots, "move1", log, urgent=True), Job(slots, "move2", log, urgent=True)
    await settle()
    for holder in holders:
        holder.done.set()
    await settle()
    # Two slots: one move goes first, one slot stays for the waiting edit.
    assert log[2:] == ["move1", "edit"]
    move1.done.set()
    await settle()
    assert log[-1] == "move2"
    for other in (edit, move2):
        other.done.set()
    await asyncio.gather(*(j.task for j in (*holders, edit, move1, move2)))
    assert slots.busy == 0
