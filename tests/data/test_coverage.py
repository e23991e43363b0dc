"""Shards that no process holds are told to the operator once, after a grace, and
when they are held again; a lapsed lease holds nothing. On both backends."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta

import pytest

from data import lease
from data.coverage import Coverage, uncovered
from data.db import Database
from data.lease import LeaseKeeper, LeaseLost

GRACE = timedelta(seconds=60)


def shards(*ids: int, count: int = 4) -> tuple[str, ...]:
    return tuple(lease.shard_resource(shard, count) for shard in ids)


async def test_a_shard_without_a_live_lease_is_uncovered(db: Database) -> None:
    now = (await lease.acquire(db, "a:1:1", resources=shards(0, 1))).acquired_at
    await lease.acquire(db, "b:2:2", resources=shards(3), ttl=timedelta(seconds=5))
    assert await uncovered(db, 4, now) == [2]
    assert await uncovered(db, 4, now + timedelta(seconds=10)) == [2, 3]  # b's lapsed
    assert await uncovered(db, 2, now) == [0, 1]  # leases of another count hold nothing


async def test_the_operator_is_told_once_after_the_grace_and_when_it_is_back(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="data.coverage")
    taken = await lease.acquire(db, "a:1:1", resources=shards(0, 1),
                                ttl=timedelta(hours=1))  # a process that runs all along
    now = taken.acquired_at
    coverage = Coverage(db, 4, GRACE)
    for seconds in (0, 30):  # a process starting or restarting: not yet worth a word
        await coverage.check(now + timedelta(seconds=seconds))
    assert caplog.records == []
    await coverage.check(now + timedelta(seconds=60))
    await coverage.check(now + timedelta(seconds=70))  # told once, not at every heartbeat
    (told,) = caplog.records
    assert told.levelno == logging.WARNING
    assert told.getMessage().startswith("shards 2, 3 of 4 held by no running process")
    assert "SHARD_IDS include 2,3" in told.getMessage()

    caplog.clear()
    await lease.acquire(db, "c:3:3", resources=shards(2), ttl=timedelta(hours=1))
    await coverage.check(now + timedelta(seconds=80))
    assert [r.getMessage() for r in caplog.records] == [
        "shard 2 of 4 held again by a running process"]


async def test_each_heartbeat_of_a_sharded_process_looks(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    lost: list[LeaseLost] = []
    coverage = Coverage(db, 2, grace=timedelta(0))
    keeper = LeaseKeeper(db, lost.append, resources=shards(0, count=2),
                         heartbeat=timedelta(seconds=0.05), after_renewal=coverage.check)
    await keeper.start()
    try:
        for _ in range(100):
            if "shard 1 of 2 held by no running process" in caplog.text:
                break
            await asyncio.sleep(0.05)
        assert "shard 1 of 2 held by no running process" in caplog.text
        assert "shard 0" not in caplog.text and lost == []
    finally:
        await keeper.stop()


async def test_a_process_whose_clock_runs_ahead_sees_live_leases_as_live(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    """Lapses are read on the database's clock: on this machine's, 40 s ahead, the
    other process's lease (renewed just now, for 30 s) would look lapsed already."""
    await lease.acquire(db, "b:2:2", resources=shards(1, count=2))
    coverage = Coverage(db, 2, grace=timedelta(0))
    looks: list[object] = []

    async def check(moment: datetime) -> None:
        looks.append(moment)
        await coverage.check(moment)

    keeper = LeaseKeeper(db, lambda lost: None, resources=shards(0, count=2),
                         heartbeat=timedelta(seconds=0.05), after_renewal=check,
                         now=lambda: datetime.now(UTC) + timedelta(seconds=40))
    await keeper.start()
    try:
        for _ in range(100):
            if len(looks) >= 3:
                break
            await asyncio.sleep(0.05)
        assert len(looks) >= 3 and "held by no running process" not in caplog.text
        assert "40 s ahead of the database's" in caplog.text
    finally:
        await keeper.stop()
