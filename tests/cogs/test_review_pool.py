"""The review pool: worker processes started at the first ask, one job per
game and seat that a second ask joins, a limit per member, and every worker
gone after close."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs.review_pool import ReviewPool, TooMany
from cogs.review_work import ReviewFailed, version
from tests.engine.review_games import finished

SAMPLES = 6
ANNA, BRAM = 1, 2


async def test_a_second_ask_joins_and_the_review_is_stored_once() -> None:
    pool = ReviewPool(workers=1)
    stored: list[dict[str, Any]] = []

    async def store(body: dict[str, Any]) -> None:
        stored.append(body)

    try:
        record = finished(1)
        first = pool.ask((1, 0), ANNA, record, SAMPLES, store)
        again = pool.ask((1, 0), BRAM, record, SAMPLES, store)
        assert again is first and pool.started == 1 and first.askers == {ANNA, BRAM}
        assert first.task is not None
        body = await asyncio.wait_for(first.task, 120)
        assert stored == [body] and body["version"] == version(SAMPLES)
        assert body["seat"] == 0 and {d["seat"] for d in body["decisions"]} == {0}
        assert len(body["rounds"]) >= 1 and body["limit"] > 0
        assert pool.running((1, 0)) is None  # done: the next ask starts anew
    finally:
        await pool.close()


async def test_a_member_waits_on_few_at_once() -> None:
    pool = ReviewPool(workers=1)
    pool.per_member = 1

    async def store(body: dict[str, Any]) -> None:
        pass

    try:
        record = finished(1)
        job = pool.ask((1, 0), ANNA, record, SAMPLES, store)
        assert pool.ask((1, 0), ANNA, record, SAMPLES, store) is job  # the same: no more
        with pytest.raises(TooMany):
            pool.ask((1, 1), ANNA, record, SAMPLES, store)
        other = pool.ask((1, 1), BRAM, record, SAMPLES, store)
        assert other is not job and pool.started == 2
        await asyncio.wait_for(asyncio.gather(job.task, other.task), 120)  # type: ignore[arg-type]
    finally:
        await pool.close()


async def test_a_broken_record_fails_plainly() -> None:
    pool = ReviewPool(workers=1)

    async def store(body: dict[str, Any]) -> None:
        raise AssertionError("nothing is kept of a failed review")

    try:
        record = dict(finished(1))
        record["events"] = [*record["events"], {"seat": 0, "do": "play", "card": "AH"}]
        job = pool.ask((1, 0), ANNA, record, SAMPLES, store)
        with pytest.raises(ReviewFailed):
            await asyncio.wait_for(job.task, 120)  # type: ignore[arg-type]
    finally:
        await pool.close()


async def test_close_ends_every_worker_and_refuses_more() -> None:
    pool = ReviewPool(workers=2)

    async def store(body: dict[str, Any]) -> None:
        pass

    job = pool.ask((1, 0), ANNA, finished(1), 160, store)
    processes: list[Any] = []
    for _ in range(300):  # until the first worker is started (a loaded machine is slow)
        await asyncio.sleep(0.1)
        processes = list(getattr(pool._executor, "_processes", {}).values())
        if processes:
            break
    assert 1 <= len(processes) <= 2
    await pool.close()
    assert job.task is not None and job.task.cancelled()
    assert all(not p.is_alive() for p in processes)
    with pytest.raises(RuntimeError):
        pool.ask((1, 1), ANNA, finished(1), SAMPLES, store)
    with pytest.raises(RuntimeError):  # no worker starts again
        await pool.render(len, "a picture")
    assert pool._executor is None
