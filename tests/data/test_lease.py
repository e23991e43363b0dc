"""One owner per database: taking, renewing, taking over and losing the lease."""

from __future__ import annotations

import asyncio
import socket
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from data import lease
from data.db import Database, connect
from data.errors import DatabaseOpenError
from data.lease import LeaseHeld, LeaseKeeper, LeaseLost, LeasesGivenUp
from data.meta import get_meta, set_meta
from data.times import database_now, from_db, to_db

ELSEWHERE = "other-host:4242:cafe"  # a process on another machine: never "gone"


@pytest.fixture
async def second(db: Database, db_target: str | Path) -> AsyncIterator[Database]:
    """A second connection to the same database: what a second process would open."""
    other = await connect(db_target)
    yield other
    await other.close()


async def age(db: Database, seconds: float) -> None:
    """The database's clock moves on by `seconds`, as far as the leases can tell:
    each was taken and renewed that much longer ago (it lapses that much sooner)."""
    shift = timedelta(seconds=seconds)
    async with db.transaction() as conn:
        rows = await conn.execute_fetchall(
            "SELECT resource, acquired_at, heartbeat_at, expires_at FROM leases")
        await conn.executemany(
            "UPDATE leases SET acquired_at = ?, heartbeat_at = ?, expires_at = ? "
            "WHERE resource = ?",
            [(*(to_db(from_db(row[i]) - shift) for i in (1, 2, 3)), row[0]) for row in rows])


def a_dead_pid() -> int:
    """The pid of a process that ran on this machine and is gone (reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


async def test_the_first_process_takes_the_lease_and_a_second_is_refused(
    db: Database, second: Database
) -> None:
    taken = await lease.acquire(db, ELSEWHERE)
    assert taken.expires_at == taken.acquired_at + lease.TTL
    await age(second, 10)
    with pytest.raises(LeaseHeld) as refused:
        await lease.acquire(second, "this-host:1:beef")
    text = str(refused.value)
    assert "another Toep process (other-host:4242:cafe)" in text and db.name in text
    assert "renewed 10 s ago and lapses in 20 s" in text and "\n" not in text
    held = await lease.holder(second)
    assert held is not None and held.owner == ELSEWHERE


async def test_a_lapsed_lease_is_taken_over_and_its_old_holder_can_no_longer_write(
    db: Database, second: Database
) -> None:
    await lease.acquire(db, ELSEWHERE)
    await age(second, 20)
    await lease.renew(db, ELSEWHERE)  # pushes the expiry to 50 s
    await age(second, 25)
    with pytest.raises(LeaseHeld):
        await lease.acquire(second, "new:1:1")  # at 45 s
    await age(second, 5)
    taken = await lease.acquire(second, "new:1:1")  # at 50 s: lapsed
    assert taken.owner == "new:1:1" and (await lease.holder(db)) == taken
    with pytest.raises(LeaseLost) as lost:
        await lease.renew(db, ELSEWHERE)
    assert lost.value.taker == "new:1:1" and "to new:1:1" in str(lost.value)
    async with db.transaction() as conn:
        with pytest.raises(LeaseLost):
            await lease.check(conn, (lease.DATABASE,), ELSEWHERE)


async def test_the_lease_of_a_process_gone_from_this_machine_is_taken_at_once(
    db: Database, second: Database
) -> None:
    crashed = f"{lease.pid_space()}:{a_dead_pid()}:dead"
    await lease.acquire(db, crashed)
    taken = await lease.acquire(second, "new:1:1")  # long before it lapses
    assert taken.owner == "new:1:1"


def test_only_processes_of_this_machine_that_ended_are_gone() -> None:
    host = lease.pid_space()
    assert lease.owner_is_gone(f"{host}:{a_dead_pid()}:x")
    assert not lease.owner_is_gone(f"{host}:1:x")  # init runs (or is not ours to signal)
    assert not lease.owner_is_gone(lease.new_owner())  # this very process
    assert not lease.owner_is_gone(ELSEWHERE) and not lease.owner_is_gone("garbage")
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        while not lease._is_zombie(child.pid):  # killed but not reaped: a zombie
            pass
        assert lease.owner_is_gone(f"{host}:{child.pid}:x")
    finally:
        child.wait()


def test_a_process_of_another_pid_space_under_the_same_host_name_is_not_judged() -> None:
    """Two containers on Docker's host network share the host's name, and each
    counts its pids from 1: a pid of the other one, looked up here, says nothing."""
    host = socket.gethostname()
    assert lease.pid_space().startswith(f"{host}/")  # Linux: its boot and pid namespace
    assert lease.new_owner().startswith(f"{lease.pid_space()}:")
    assert not lease.owner_is_gone(f"{host}/00000000:{a_dead_pid()}:x")
    assert not lease.owner_is_gone(f"{host}:{a_dead_pid()}:x")  # named before spaces were


async def test_release_lets_the_next_process_in(db: Database, second: Database) -> None:
    await lease.acquire(db, ELSEWHERE)
    await lease.release(second, "not-the-owner:1:1")  # changes nothing
    assert (await lease.holder(db)) is not None
    await lease.release(db, ELSEWHERE)
    assert (await lease.holder(db)) is None
    assert (await lease.acquire(second, "new:1:1")).owner == "new:1:1"


async def test_the_keeper_fences_writes_renews_and_reports_a_takeover(
    db: Database, second: Database
) -> None:
    lost: list[LeaseLost] = []
    keeper = LeaseKeeper(db, lost.append, ttl=timedelta(seconds=0.3),
                         heartbeat=timedelta(seconds=0.05))
    first = await keeper.start()
    await set_meta(db, "k", "mine")  # the holder writes freely
    await asyncio.sleep(0.5)  # past the first ttl: the heartbeats kept it
    held = await lease.holder(second)
    assert held is not None and held.owner == keeper.owner and held.expires_at > first.expires_at
    with pytest.raises(LeaseHeld):
        await lease.acquire(second, "new:1:1")
    # It stalls (no heartbeat), the lease lapses, another process takes it over.
    assert keeper._task is not None
    keeper._task.cancel()
    await asyncio.sleep(0.35)
    await lease.acquire(second, "new:1:1")
    with pytest.raises(LeaseLost):
        await set_meta(db, "k", "stale")  # refused inside its own transaction
    assert await get_meta(second, "k") == "mine"
    assert len(lost) == 1 and lost[0].taker == "new:1:1" and keeper.lost is lost[0]
    await keeper.stop()  # does not release what is no longer its own
    held = await lease.holder(second)
    assert held is not None and held.owner == "new:1:1"


async def test_a_takeover_waits_until_the_old_holders_write_is_done(
    db: Database, second: Database
) -> None:
    """A write that passed the fence lands before a takeover, never after it:
    the old holder's commit cannot follow the new holder's first write."""
    lost: list[LeaseLost] = []
    keeper = LeaseKeeper(db, lost.append, heartbeat=timedelta(hours=1))
    await keeper.start()
    await age(second, 3600)  # lapsed long ago
    async with db.transaction() as conn:  # fenced: the lease is still its own
        taking = asyncio.create_task(lease.acquire(second, "new:1:1"))
        await asyncio.sleep(0.3)
        assert not taking.done()  # the lapsed lease is not taken mid-write
        await conn.execute("INSERT INTO bot_meta (key, value) VALUES ('k', 'in time')")
    assert (await taking).owner == "new:1:1"
    with pytest.raises(LeaseLost):
        await set_meta(db, "k", "stale")
    assert await get_meta(second, "k") == "in time" and len(lost) == 1
    await keeper.stop()


async def test_a_write_waiting_for_a_takeover_in_flight_is_refused_once_it_lands(
    db: Database, second: Database
) -> None:
    """The fence reads the lease as a takeover that committed while it waited
    left it, not as it stood when its own statement began (one statement locks
    and reads): a takeover by any means, not only through `acquire`."""
    lost: list[LeaseLost] = []
    keeper = LeaseKeeper(db, lost.append, heartbeat=timedelta(hours=1))
    await keeper.start()
    async with second.transaction() as conn:  # a takeover in flight
        await conn.execute("UPDATE leases SET owner = 'thief:1:1'")
        writing = asyncio.create_task(set_meta(db, "k", "stale"))
        await asyncio.sleep(0.3)
        assert not writing.done()  # the fenced write waits for the takeover's end
    with pytest.raises(LeaseLost):
        await writing
    assert await get_meta(second, "k") is None
    assert [x.taker for x in lost] == ["thief:1:1"]
    await keeper.stop()


async def test_a_keeper_that_stops_cleanly_gives_the_lease_up_and_writes_no_more(
    db: Database, second: Database
) -> None:
    keeper = LeaseKeeper(db, lambda lost: None)
    await keeper.start()
    await keeper.stop()
    assert (await lease.holder(db)) is None
    taken = await lease.acquire(second, "next:1:1")  # at once: a released lease is free
    # A save of the stopping process still on its way lands nowhere.
    with pytest.raises(LeasesGivenUp):
        await set_meta(db, "k", "late")
    assert await get_meta(second, "k") is None
    assert (await lease.holder(second)) == taken


async def test_the_heartbeat_notices_a_takeover_by_itself(db: Database, second: Database) -> None:
    lost: list[LeaseLost] = []
    keeper = LeaseKeeper(db, lost.append, heartbeat=timedelta(seconds=0.05))
    await keeper.start()
    async with second.transaction() as conn:  # taken over behind its back
        await conn.execute("UPDATE leases SET owner = 'thief:1:1'")
    for _ in range(100):
        if lost:
            break
        await asyncio.sleep(0.02)
    assert [x.taker for x in lost] == ["thief:1:1"]
    await keeper.stop()


def test_the_migration_made_the_table(tmp_path: Path) -> None:
    async def columns() -> list[str]:
        db = await connect(tmp_path / "t.sqlite3")
        async with db.read() as conn:
            rows = list(await conn.execute_fetchall("PRAGMA table_info(leases)"))
        await db.close()
        return [str(r["name"]) for r in rows]

    assert asyncio.run(columns()) == [
        "resource", "owner", "acquired_at", "heartbeat_at", "expires_at"
    ]


SHARD_0, SHARD_1 = lease.shard_resource(0, 2), lease.shard_resource(1, 2)


async def test_processes_on_other_shards_share_the_database(
    db: Database, second: Database
) -> None:
    await lease.acquire(db, ELSEWHERE, resources=(SHARD_0,))
    taken = await lease.acquire(second, "new:1:1", resources=(SHARD_1,))
    assert taken.resource == "shard:1/2"
    assert (await lease.holder(db, SHARD_0)) is not None
    assert (await lease.holder(db, SHARD_1)) == taken


@pytest.mark.parametrize(("held", "wanted", "named"), [
    (("shard:1/2",), ("shard:0/2", "shard:1/2"), "(shard 1 of 2)"),  # the same shard
    (("database",), ("shard:1/2",), "is using"),  # an unsharded process has every guild
    (("shard:0/2",), ("database",), "(shard 0 of 2)"),
    (("shard:3/4",), ("shard:1/2",), "(shard 3 of 4)"),  # another count: other guilds mixed
])
async def test_a_process_overlapping_a_live_one_takes_no_lease_at_all(
    db: Database, second: Database, held: tuple[str, ...], wanted: tuple[str, ...], named: str
) -> None:
    await lease.acquire(db, ELSEWHERE, resources=held)
    await age(second, 5)
    with pytest.raises(LeaseHeld) as refused:
        await lease.acquire(second, "new:1:1", resources=wanted)
    text = str(refused.value)
    assert named in text and "another Toep process (other-host:4242:cafe)" in text
    assert "\n" not in text
    async with second.read() as conn:  # all or nothing: not even a free one (shard 0)
        owners = {row[0] for row in await conn.execute_fetchall("SELECT owner FROM leases")}
    assert owners == {ELSEWHERE}


async def test_a_dead_process_s_shards_are_taken_back_and_the_others_stay(
    db: Database, second: Database
) -> None:
    crashed = f"{lease.pid_space()}:{a_dead_pid()}:dead"
    await lease.acquire(db, crashed, resources=(SHARD_0,))
    await lease.acquire(db, ELSEWHERE, resources=(SHARD_1,))
    restarted = await lease.acquire(second, "new:1:1", resources=(SHARD_0,))
    assert restarted.owner == "new:1:1"
    held = await lease.holder(second, SHARD_1)
    assert held is not None and held.owner == ELSEWHERE


async def test_a_process_that_lost_one_shard_may_write_nothing(
    db: Database, second: Database
) -> None:
    lost: list[LeaseLost] = []
    keeper = LeaseKeeper(db, lost.append, resources=(SHARD_0, SHARD_1),
                         heartbeat=timedelta(seconds=30))
    await keeper.start()
    await set_meta(db, "k", "mine")
    async with second.transaction() as conn:  # shard 1 taken over behind its back
        await conn.execute("UPDATE leases SET owner = 'thief:1:1' WHERE resource = ?",
                           (SHARD_1,))
    with pytest.raises(LeaseLost) as refused:
        await set_meta(db, "k", "stale")
    assert "lost the lease of shard 1 of 2 to thief:1:1" in str(refused.value)
    assert await get_meta(second, "k") == "mine" and len(lost) == 1
    await keeper.stop()  # gives up shard 0, which is still its own, and only that
    async with second.read() as conn:
        rows = await conn.execute_fetchall("SELECT resource, owner FROM leases")
    assert [tuple(row) for row in rows] == [(SHARD_1, "thief:1:1")]


async def test_a_keeper_renews_every_shard_it_holds(db: Database, second: Database) -> None:
    keeper = LeaseKeeper(db, lambda lost: None, resources=(SHARD_0, SHARD_1),
                         ttl=timedelta(seconds=0.3), heartbeat=timedelta(seconds=0.05))
    first = await keeper.start()
    await asyncio.sleep(0.5)
    for resource in (SHARD_0, SHARD_1):
        held = await lease.holder(second, resource)
        assert held is not None and held.owner == keeper.owner
        assert held.expires_at > first.expires_at
    await keeper.stop()
    for resource in (SHARD_0, SHARD_1):
        assert await lease.holder(second, resource) is None


@pytest.mark.parametrize(("old", "new"), [
    (("database",), ("shard:0/2",)),  # an unsharded process replaced by a cluster
    (("shard:0/2", "shard:1/2"), ("database",)),  # and back
    (("shard:1/2",), ("shard:1/4",)),  # another shard count: its guilds overlap
])
async def test_a_takeover_under_another_name_fences_the_old_holder_out(
    db: Database, second: Database, old: tuple[str, ...], new: tuple[str, ...]
) -> None:
    await lease.acquire(db, ELSEWHERE, resources=old)
    await age(second, 31)
    await lease.acquire(second, "new:1:1", resources=new)  # lapsed: taken over
    with pytest.raises(LeaseLost):  # its heartbeat learns of it
        await lease.renew(db, ELSEWHERE, resources=old)
    async with db.transaction() as conn:  # and its writes are refused
        with pytest.raises(LeaseLost):
            await lease.check(conn, old, ELSEWHERE)
    async with second.read() as conn:
        owners = {row[0] for row in await conn.execute_fetchall("SELECT owner FROM leases")}
    assert owners == {"new:1:1"}


async def test_a_lapsed_lease_of_other_guilds_stays_where_it_is(
    db: Database, second: Database
) -> None:
    await lease.acquire(db, ELSEWHERE, resources=(SHARD_1,))
    await age(second, 31)
    await lease.acquire(second, "new:1:1", resources=(SHARD_0,))
    held = await lease.holder(second, SHARD_1)
    assert held is not None and held.owner == ELSEWHERE  # its process may yet come back


@pytest.mark.parametrize("trouble", [TimeoutError(), OSError(113, "No route to host")])
async def test_a_renewal_the_network_fails_is_tried_again(
    db: Database, second: Database, monkeypatch: pytest.MonkeyPatch, trouble: OSError,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A database server that cannot be reached (its host down, a route gone:
    connecting to it times out) costs heartbeats, never the keeper's task."""
    real = lease.renew
    failures = [trouble, trouble]

    async def renew(*args: Any, **kwargs: Any) -> datetime:
        if failures:
            raise failures.pop()
        return await real(*args, **kwargs)

    monkeypatch.setattr(lease, "renew", renew)
    lost: list[LeaseLost] = []
    keeper = LeaseKeeper(db, lost.append, ttl=timedelta(seconds=2),
                         heartbeat=timedelta(seconds=0.05))
    first = await keeper.start()
    await asyncio.sleep(0.4)
    held = await lease.holder(second)
    assert keeper._task is not None and not keeper._task.done()
    assert held is not None and held.expires_at > first.expires_at  # renewed since
    assert "could not renew the leases" in caplog.text and lost == []
    await keeper.stop()


async def test_a_lease_the_database_will_not_let_be_taken_is_one_clear_error(
        tmp_path: Path) -> None:
    """Another program holds the SQLite file's write lock past the busy timeout:
    the start fails with a sentence (bot.py prints it), and nothing is taken."""
    path = tmp_path / "toep.sqlite3"
    db = await connect(path, busy_timeout_ms=100)
    blocker = sqlite3.connect(path, isolation_level=None)
    try:
        blocker.execute("BEGIN IMMEDIATE")
        lost: list[LeaseLost] = []
        keeper = LeaseKeeper(db, lost.append)
        with pytest.raises(DatabaseOpenError, match="taking the lease of the database failed"):
            await keeper.start()
        blocker.execute("ROLLBACK")
        assert await lease.holder(db) is None and db.fence is None
    finally:
        blocker.close()
        await db.close()


async def test_work_after_a_renewal_never_stops_the_renewals(
    db: Database, second: Database, caplog: pytest.LogCaptureFixture
) -> None:
    """A check that fails (a bug), then one that never ends: the leases are
    renewed all the same, each heartbeat on time."""
    calls: list[object] = []

    async def troubled(now: object) -> None:
        calls.append(now)
        if len(calls) == 1:
            raise ValueError("a bug in the check")
        await asyncio.sleep(3600)

    lost: list[LeaseLost] = []
    keeper = LeaseKeeper(db, lost.append, ttl=timedelta(seconds=2),
                         heartbeat=timedelta(seconds=0.05), after_renewal=troubled)
    first = await keeper.start()
    await asyncio.sleep(0.5)
    held = await lease.holder(second)
    try:
        assert keeper._task is not None and not keeper._task.done() and lost == []
        assert held is not None and held.expires_at > first.expires_at  # renewed since
        assert len(calls) >= 3
        assert "after renewing the leases" in caplog.text and "took too long" in caplog.text
    finally:
        await keeper.stop()


SKEW = timedelta(seconds=20)


def skewed(by: timedelta) -> lease.Now:
    """The clock of a machine that is `by` off (NTP missing, a VM that slept)."""
    return lambda: lease.utc_now() + by


async def test_a_process_whose_clock_runs_ahead_takes_no_live_lease(
    db: Database, second: Database, caplog: pytest.LogCaptureFixture
) -> None:
    """The holder renewed 15 s ago by the database's clock, and lives on. On a clock
    20 s ahead its lease would have lapsed 5 s ago."""
    holder = LeaseKeeper(db, lambda lost: None, heartbeat=timedelta(hours=1))
    await holder.start()
    await age(second, 15)
    ahead = LeaseKeeper(second, lambda lost: None, now=skewed(SKEW))
    with pytest.raises(LeaseHeld, match="renewed 15 s ago and lapses in 15 s"):
        await ahead.start()
    await set_meta(db, "k", "still mine")  # the holder writes on
    assert await get_meta(second, "k") == "still mine"
    await holder.stop()


async def test_a_process_whose_clock_runs_ahead_keeps_no_lease_past_its_lapse(
    db: Database, second: Database, caplog: pytest.LogCaptureFixture
) -> None:
    """It renewed 31 s ago by the database's clock and then stalled: its lease has
    lapsed, though on its own clock it would hold 19 s more; a process whose clock
    is 20 s behind takes it over, and the stalled one may write nothing more."""
    lost: list[LeaseLost] = []
    ahead = LeaseKeeper(db, lost.append, heartbeat=timedelta(hours=1), now=skewed(SKEW))
    await ahead.start()
    assert "clock is 20 s ahead of the database's" in caplog.text  # told to the operator
    await age(second, 31)
    behind = LeaseKeeper(second, lambda lost: None, heartbeat=timedelta(hours=1),
                         now=skewed(-SKEW))
    taken = await behind.start()
    assert taken.owner == behind.owner and "clock is 20 s behind" in caplog.text
    with pytest.raises(LeaseLost):
        await set_meta(db, "k", "stale")
    assert len(lost) == 1 and lost[0].taker == behind.owner
    await ahead.stop()
    await behind.stop()


async def test_the_database_clock_is_one_clock_for_every_connection(
    db: Database, second: Database
) -> None:
    async with db.read() as conn:
        first = await database_now(conn)
    async with second.read() as conn:
        then = await database_now(conn)
    assert first.tzinfo is not None and then >= first
