"""Reviews run in worker processes, never on the event loop (issue 27).

One `ReviewPool` per bot: a ProcessPoolExecutor of one worker per core but
one (at least one), the workers at a lower priority (cogs/review_work.py),
so the event loop keeps a core for the tables' clicks; started at the first
ask and shut down when the review cog unloads (the bot's close). A review
is one job per (game, seat); a second ask for a job already running joins
it. A member waits on at most MAX_PER_MEMBER reviews at once (their own
asks; joining one counts as one): more is refused before any work starts,
so one person cannot fill the queue for everyone.

Workers tell how far they are through one multiprocessing queue; the pool
drains it on the event loop every PUMP seconds while a job runs (a read that
never blocks), and each job holds its latest (done, all).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import queue
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.queues import Queue
from typing import Any

from cogs.review_work import review_seat, start_worker

log = logging.getLogger(__name__)

MAX_PER_MEMBER = 2
PUMP = 0.25  # seconds between reads of the workers' progress
JOIN_WAIT = 5.0  # seconds a terminated worker may take to end before it is killed

JobKey = tuple[int, int]  # game, seat
Store = Callable[[dict[str, Any]], Awaitable[None]]


class TooMany(Exception):
    """The member already waits on MAX_PER_MEMBER reviews."""


@dataclass(eq=False)
class Job:
    key: JobKey
    task: asyncio.Task[dict[str, Any]] | None = None
    done: int = 0
    total: int = 0  # 0: not started in a worker yet
    askers: set[int] = field(default_factory=set)


def worker_count() -> int:
    """One per core this process may run on, but one: that one is the event loop's."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)
    return max(1, cores - 1)


class ReviewPool:
    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or worker_count()
        self.per_member = MAX_PER_MEMBER
        self.started = 0  # reviews begun (joins not counted)
        self._executor: ProcessPoolExecutor | None = None
        self._progress: Queue[tuple[str, int, int]] | None = None
        self._jobs: dict[JobKey, Job] = {}
        self._pump: asyncio.Task[None] | None = None
        self._closed = False

    def running(self, key: JobKey) -> Job | None:
        return self._jobs.get(key)

    def ask(self, key: JobKey, user_id: int, record: dict[str, Any], samples: int,
            store: Store) -> Job:
        """The job reviewing `key`: the running one joined, else a new one.
        TooMany if the member already waits on too many others."""
        if self._closed:
            raise RuntimeError("the review pool is closed")
        job = self._jobs.get(key)
        if job is not None and user_id in job.askers:
            return job
        waiting = sum(1 for j in self._jobs.values() if user_id in j.askers)
        if waiting >= self.per_member:
            raise TooMany()
        if job is None:
            job = Job(key)
            job.task = asyncio.get_running_loop().create_task(
                self._run(job, record, samples, store), name=f"review {key}")
            self._jobs[key] = job
            self.started += 1
            self._start_pump()
        job.askers.add(user_id)
        return job

    async def render(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in a worker (a picture: no work on the event loop);
        RuntimeError once closed."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), fn, *args)

    async def _run(self, job: Job, record: dict[str, Any], samples: int,
                   store: Store) -> dict[str, Any]:
        try:
            loop = asyncio.get_running_loop()
            body: dict[str, Any] = await loop.run_in_executor(
                self._pool(), review_seat, _tag(job.key), record, job.key[1], samples)
            await store(body)
            return body
        finally:
            self._jobs.pop(job.key, None)

    def _pool(self) -> ProcessPoolExecutor:
        if self._closed:
            raise RuntimeError("the review pool is closed")
        if self._executor is None:
            # spawn: a fork of a process with an event loop and threads copies their locks
            context = multiprocessing.get_context("spawn")
            self._progress = context.Queue()
            self._executor = ProcessPoolExecutor(self.workers, mp_context=context,
                                                 initializer=start_worker,
                                                 initargs=(self._progress,))
            log.info("review workers: up to %d processes", self.workers)
        return self._executor

    def _start_pump(self) -> None:
        if self._pump is None or self._pump.done():
            self._pump = asyncio.get_running_loop().create_task(self._read_progress(),
                                                                name="review progress")

    async def _read_progress(self) -> None:
        while self._jobs:
            self.drain()
            await asyncio.sleep(PUMP)

    def drain(self) -> None:
        """Every progress report sent so far, onto its job."""
        if self._progress is None:
            return
        by_tag = {_tag(key): job for key, job in self._jobs.items()}
        while True:
            try:
                tag, done, total = self._progress.get_nowait()
            except queue.Empty:
                return
            job = by_tag.get(tag)
            if job is not None and done >= job.done:
                job.done, job.total = done, total

    async def close(self) -> None:
        """Cancel what waits, end the workers (a running review is lost, not
        kept half), and wait for them to go."""
        self._closed = True
        if self._pump is not None:
            self._pump.cancel()
        for job in list(self._jobs.values()):
            if job.task is not None:
                job.task.cancel()
        executor, self._executor = self._executor, None
        if executor is None:
            return
        processes = list(getattr(executor, "_processes", {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        await asyncio.to_thread(_join, processes)
        # The executor's own thread joins the workers too: once it has ended,
        # each worker's end is on record whichever thread reaped it.
        await asyncio.to_thread(executor.shutdown, True)
        if self._progress is not None:
            self._progress.close()
            self._progress.cancel_join_thread()


def _join(processes: list[Any]) -> None:
    """Wait for terminated workers; one that outlasts JOIN_WAIT is killed."""
    for process in processes:
        process.join(JOIN_WAIT)
        if process.is_alive():
            process.kill()
            process.join()


def _tag(key: JobKey) -> str:
    return f"{key[0]}:{key[1]}"
