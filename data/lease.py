"""One owner per database: a lease row that its holder keeps renewing.

A bot process takes the lease of the resource 'database' when it starts and
renews it every HEARTBEAT; a lease not renewed for TTL lapses. Another process
starting on the same database meanwhile is refused (`LeaseHeld`, one line). A
lapsed lease is taken over, and so, at once, is the lease of a process on this
machine that no longer runs (a crash, a SIGKILL): a restart after a crash needs
nobody to do anything.

The holder's write transactions are fenced (`Database.fence`): each one checks,
inside its own transaction, that the lease is still its own. A process that
stalled while another took over can therefore never write again; its next save
raises `LeaseLost`, and so does its next heartbeat, which tells the bot to stop.

Every time a lease is judged by is the database's own clock (`database_now`):
when it was taken, renewed, and whether it lapsed. The processes sharing a
database may run on machines whose clocks differ by seconds; read on each
one's clock, a lease could look lapsed to one machine while its holder still
renews it, or stay held by a stopped process past its lapse. A process's own
clock only serves to tell the operator how far it is off the database's.

A sharded process (SHARD_COUNT, SHARD_IDS) holds one lease per shard instead,
'shard:N/COUNT', taken all at once or not at all, and fenced and renewed
together: several processes share the database, each owning its shards. Leases
that could name the same guilds conflict even when their names differ: the
whole database with any shard, and shards of two different shard counts.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from data.db import Database
from data.errors import DatabaseOpenError, DataError
from data.sql import DRIVER_ERRORS, OUTAGE_ERRORS, Connection, Query, Row
from data.times import database_now, from_db, to_db

log = logging.getLogger(__name__)

DATABASE = "database"
SHARD = "shard:"
TTL = timedelta(seconds=30)
HEARTBEAT = timedelta(seconds=10)
# A machine's clock this far off the database's is told to the operator (once).
SKEW_WARNING = timedelta(seconds=5)
Now = Callable[[], datetime]


def shard_resource(shard_id: int, shard_count: int) -> str:
    """The lease of one shard: 'shard:1/4' (the count is part of it, see `conflicts`)."""
    return f"{SHARD}{shard_id}/{shard_count}"


def conflicts(mine: str, theirs: str) -> bool:
    """Whether two leases could cover the same guild: the same one, the whole database
    and anything else, or shards of different shard counts."""
    if mine == theirs or DATABASE in (mine, theirs):
        return True
    return mine.partition("/")[2] != theirs.partition("/")[2]


def describe(resource: str) -> str:
    """For the operator: 'the database' or 'shard 1 of 4'."""
    if not resource.startswith(SHARD):
        return f"the {resource}"
    shard_id, _, count = resource.removeprefix(SHARD).partition("/")
    return f"shard {shard_id} of {count}"


def utc_now() -> datetime:
    """This machine's wall clock: only compared with the database's (`Skew`)."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class Lease:
    resource: str
    owner: str
    acquired_at: datetime
    heartbeat_at: datetime
    expires_at: datetime

    def lapsed(self, now: datetime) -> bool:
        return now >= self.expires_at


class LeaseHeld(DataError):
    """Another live process holds the lease: this one must not start."""

    def __init__(self, lease: Lease, now: datetime, path: Path | str) -> None:
        renewed = (now - lease.heartbeat_at).total_seconds()
        left = (lease.expires_at - now).total_seconds()
        what = "" if lease.resource == DATABASE else f" ({describe(lease.resource)})"
        super().__init__(
            f"another Toep process ({lease.owner}) is using {path}{what}: its lease was renewed "
            f"{renewed:.0f} s ago and lapses in {left:.0f} s if it stops; stop that process "
            "first (after a crash, start this one again: a lapsed lease is taken over)"
        )
        self.lease = lease


class LeaseLost(DataError):
    """Another process took over this process's lease: it must stop at once."""

    def __init__(self, resource: str, owner: str, taker: str | None) -> None:
        by = f"to {taker}" if taker else "(its row is gone: taken over under another name)"
        super().__init__(
            f"this process ({owner}) lost the lease of {describe(resource)} {by}; it stops "
            "saving and exits so that two processes never act on the same tables"
        )
        self.taker = taker


def new_owner() -> str:
    """An owner id, new for every process start: where:pid:random."""
    return f"{pid_space()}:{os.getpid()}:{secrets.token_hex(4)}"


@functools.cache
def pid_space() -> str:
    """Where a pid names one process: the host's name and, on Linux, the kernel's
    boot and the pid namespace. Containers can share a host name (Docker's host
    network does) and still each count their pids from 1: a pid of another one,
    looked up here, says nothing about whether that process runs."""
    host = socket.gethostname()
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
        namespace = os.readlink("/proc/self/ns/pid")
    except OSError:  # no /proc: not Linux, and one pid space per host
        return host
    digest = hashlib.blake2s(f"{boot} {namespace}".encode(), digest_size=4).hexdigest()
    return f"{host}/{digest}"


def owner_is_gone(owner: str) -> bool:
    """Whether `owner` was a process of this pid space that no longer runs (or is
    a zombie). One of another space (another machine or container, or an owner
    id from before spaces were named) is never judged: its lease must lapse."""
    parts = owner.rsplit(":", 2)
    if len(parts) != 3 or parts[0] != pid_space() or not parts[1].isdigit():
        return False
    pid = int(parts[1])
    if pid == os.getpid():
        return False  # another bot in this very process: alive
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False  # someone else's process, alive
    return _is_zombie(pid)


def _is_zombie(pid: int) -> bool:
    """A killed child its parent has not reaped yet still answers kill(pid, 0)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[:1] == ["Z"]


def _lease(row: Row) -> Lease:
    return Lease(
        row["resource"],
        row["owner"],
        from_db(row["acquired_at"]),
        from_db(row["heartbeat_at"]),
        from_db(row["expires_at"]),
    )


async def _read(conn: Connection, resource: str) -> Lease | None:
    rows = list(
        await conn.execute_fetchall("SELECT * FROM leases WHERE resource = ?", (resource,))
    )
    return _lease(rows[0]) if rows else None


async def holder(db: Database, resource: str = DATABASE) -> Lease | None:
    async with db.read() as conn:
        return await _read(conn, resource)


async def acquire(
    db: Database,
    owner: str,
    *,
    resources: Sequence[str] = (DATABASE,),
    ttl: timedelta = TTL,
) -> Lease:
    """Take the leases of `resources` all at once, taking over any that lapsed (on the
    database's clock) or whose process is gone; LeaseHeld (and none taken) if a live
    process holds one of them or a lease that conflicts with one. Returns the first
    (they share their times)."""
    async with db.transaction() as conn:
        # One taker at a time (leases of other names may conflict), and each lease
        # taken only between the fenced writes of its old holder: the rows are
        # locked as read, after every fenced transaction that locked them (`check`).
        await conn.lock(_lock_name("acquire"))
        rows = await conn.execute_fetchall(
            f"SELECT * FROM leases ORDER BY resource{conn.dialect.update_rows}")
        others = [held for held in map(_lease, rows) if held.owner != owner]
        moment = await database_now(conn)  # after the lock: not before a wait for it
        ousted = [held for held in others
                  if any(conflicts(mine, held.resource) for mine in resources)]
        for held in ousted:
            if not held.lapsed(moment) and not owner_is_gone(held.owner):
                raise LeaseHeld(held, moment, db.name)
        # A lease of another name over the same guilds ('database' and shards,
        # or shards of another count) goes with the takeover: left in place, it
        # would still pass its old holder's fence and heartbeat.
        await conn.executemany("DELETE FROM leases WHERE resource = ? AND owner = ?",
                               [(held.resource, held.owner) for held in ousted
                                if held.resource not in resources])
        taken = [Lease(resource, owner, moment, moment, moment + ttl) for resource in resources]
        await conn.executemany(
            "INSERT INTO leases (resource, owner, acquired_at, heartbeat_at, expires_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (resource) DO UPDATE SET owner = excluded.owner, "
            "acquired_at = excluded.acquired_at, heartbeat_at = excluded.heartbeat_at, "
            "expires_at = excluded.expires_at",
            [(t.resource, owner, to_db(moment), to_db(moment), to_db(t.expires_at))
             for t in taken],
        )
    for held in ousted:
        log.warning("took over the lease of %s from %s (%s)", describe(held.resource),
                    held.owner, "lapsed" if held.lapsed(moment) else "its process is gone")
    return taken[0]


async def renew(
    db: Database,
    owner: str,
    *,
    resources: Sequence[str] = (DATABASE,),
    ttl: timedelta = TTL,
) -> datetime:
    """A heartbeat: push the expiries on; LeaseLost if one of them is no longer ours.
    Returns the database's time of the renewal."""
    async with db.transaction() as conn:
        moment = await database_now(conn)
        for resource in resources:
            changed = await conn.execute(
                "UPDATE leases SET heartbeat_at = ?, expires_at = ? "
                "WHERE resource = ? AND owner = ?",
                (to_db(moment), to_db(moment + ttl), resource, owner),
            )
            if changed == 0:
                current = await _read(conn, resource)
                raise LeaseLost(resource, owner, None if current is None else current.owner)
    return moment


async def release(db: Database, owner: str, *, resources: Sequence[str] = (DATABASE,)) -> None:
    """Give the leases up (a clean stop), those that are still ours."""
    async with db.transaction() as conn:
        await conn.executemany(
            "DELETE FROM leases WHERE resource = ? AND owner = ?",
            [(resource, owner) for resource in resources],
        )


async def check(conn: Connection, resources: Sequence[str], owner: str) -> None:
    """Inside a write transaction: LeaseLost unless `owner` holds every lease of `resources`.

    A fenced transaction runs `fence_query` with its BEGIN, then `verdict`."""
    query = fence_query(conn, resources, owner)
    found = len(await conn.execute_fetchall(query.sql, query.params))
    await verdict(conn, resources, owner, found)


def fence_query(conn: Connection, resources: Sequence[str], owner: str) -> Query:
    """The leases of `resources` that `owner` holds, each row locked as it is read.

    One statement, in the same round trip as BEGIN: it locks the lease rows in
    one order, as `acquire` does, so a taker waits until this transaction ends
    and every write it fences lands before a takeover, never after; and a
    takeover that committed while it waited is read as it is now, so it no
    longer counts as `owner`'s and the write is refused."""
    where, params = conn.one_of("resource", sorted(set(resources)))
    return Query(f"SELECT resource FROM leases WHERE {where} AND owner = ? "
                 f"ORDER BY resource{conn.dialect.share_rows}", [*params, owner])


async def verdict(conn: Connection, resources: Sequence[str], owner: str, found: int) -> None:
    """LeaseLost unless `fence_query` found every lease; the error names the taker."""
    wanted = sorted(set(resources))
    if found == len(wanted):
        return
    where, params = conn.one_of("resource", wanted)
    rows = await conn.execute_fetchall(
        f"SELECT resource, owner FROM leases WHERE {where}", params)
    held = {str(row[0]): str(row[1]) for row in rows}
    lost = next((resource for resource in wanted if held.get(resource) != owner), wanted[0])
    taker = held.get(lost)
    raise LeaseLost(lost, owner, None if taker == owner else taker)


# A renewal or a release that failed for the database's sake, not ours.
_TROUBLE: tuple[type[Exception], ...] = (DataError, *DRIVER_ERRORS, *OUTAGE_ERRORS)


def _lock_name(resource: str) -> str:
    return f"lease:{resource}"


class _Fence:
    """A keeper's check of every write transaction (data/db.py: `Fence`)."""

    def __init__(self, resources: Sequence[str], owner: str,
                 lose: Callable[[LeaseLost], None]) -> None:
        self._resources, self._owner, self._lose = resources, owner, lose

    def query(self, conn: Connection) -> Query:
        return fence_query(conn, self._resources, self._owner)

    async def verdict(self, conn: Connection, found: int) -> None:
        try:
            await verdict(conn, self._resources, self._owner, found)
        except LeaseLost as lost:
            self._lose(lost)
            raise


class LeasesGivenUp(DataError):
    """This process gave its leases up (it stops): it may write nothing more."""

    def __init__(self, owner: str) -> None:
        super().__init__(f"this process ({owner}) gave its leases up as it stops; "
                         "it saves nothing more")


class _GivenUp:
    """The fence once the leases are given up: every write is refused, but the
    release of the leases itself (in the task `releasing`)."""

    def __init__(self, owner: str, releasing: asyncio.Task[object] | None) -> None:
        self._owner, self.releasing = owner, releasing

    def query(self, conn: Connection) -> Query:
        return Query("SELECT 1 WHERE 1 = 0")

    async def verdict(self, conn: Connection, found: int) -> None:
        if self.releasing is None or asyncio.current_task() is not self.releasing:
            raise LeasesGivenUp(self._owner)


class LeaseKeeper:
    """Holds a running process's leases (the database's, or its shards'): takes them,
    fences the database's write transactions with them, renews them, and calls
    `on_lost` once if one is lost."""

    def __init__(
        self,
        db: Database,
        on_lost: Callable[[LeaseLost], None],
        *,
        resources: Sequence[str] = (DATABASE,),
        ttl: timedelta = TTL,
        heartbeat: timedelta = HEARTBEAT,
        now: Now = utc_now,
        after_renewal: Callable[[datetime], Awaitable[None]] | None = None,
    ) -> None:
        """`after_renewal(moment)`: more work for each heartbeat that renewed the
        leases (data/coverage.py), given the renewal's time on the database's
        clock; the database's trouble there is only logged. `now`: this
        machine's clock, only compared with the database's (`Skew`)."""
        self.db = db
        self._after_renewal = after_renewal
        self.owner = new_owner()
        self.resources = tuple(resources)
        self._on_lost = on_lost
        self._ttl = ttl
        self._heartbeat = heartbeat
        self._skew = Skew(now)
        self._task: asyncio.Task[None] | None = None
        self.lost: LeaseLost | None = None
        self._fence = _Fence(self.resources, self.owner, self._lose)

    async def start(self) -> Lease:
        """Take the lease (LeaseHeld if another live process has it) and keep it;
        DatabaseOpenError if the database does not let it be taken (locked by
        another process for longer than its busy timeout, or out of reach)."""
        try:
            lease = await acquire(self.db, self.owner, resources=self.resources, ttl=self._ttl)
        except OUTAGE_ERRORS as err:
            raise DatabaseOpenError(
                f"{self.db.name}: taking the lease of {', '.join(map(describe, self.resources))}"
                f" failed ({err}); start again once the database answers") from err
        self._skew.compare(lease.acquired_at)
        self.db.fence = self._fence
        self._task = asyncio.create_task(self._beat(), name="lease")
        log.info("holding the lease of %s as %s",
                 ", ".join(map(describe, self.resources)), self.owner)
        return lease

    async def stop(self) -> None:
        """Stop renewing and give the lease up, if it is still ours. From then on
        this process writes nothing: a save still on its way would land under the
        leases of the next process, which may take over at once."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self.db.fence == self._fence:
            given_up = _GivenUp(self.owner, asyncio.current_task())
            self.db.fence = given_up
            # Only the leases still its own (after losing one shard, the others).
            with contextlib.suppress(*_TROUBLE):
                await release(self.db, self.owner, resources=self.resources)
            given_up.releasing = None

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self._heartbeat.total_seconds())
            try:
                moment = await renew(self.db, self.owner, resources=self.resources, ttl=self._ttl)
            except LeaseLost as lost:
                self._lose(lost)
                return
            except _TROUBLE as err:
                # A locked or full database: the lease may lapse, but the fence keeps
                # every write safe until someone else really takes it over.
                log.warning("could not renew the leases (%s); trying again in %.0f s",
                            err, self._heartbeat.total_seconds())
                continue
            self._skew.compare(moment)
            if self._after_renewal is not None:
                await self._after(self._after_renewal, moment)

    async def _after(self, work: Callable[[datetime], Awaitable[None]], moment: datetime) -> None:
        """Work that must never stop the renewals, nor delay the next one much."""
        try:
            await asyncio.wait_for(work(moment), self._heartbeat.total_seconds() / 2)
        except _TROUBLE as err:  # TimeoutError among them: an OSError
            log.warning("after renewing the leases: %s", str(err) or "it took too long")
        except Exception:
            log.exception("after renewing the leases")

    def _lose(self, lost: LeaseLost) -> None:
        if self.lost is None:
            self.lost = lost
            log.critical("%s", lost)
            self._on_lost(lost)


class Skew:
    """How far this machine's clock is off the database's, told once past SKEW_WARNING:
    the leases never read it, but the games' own times (when a game began, a
    forfeit's date for a ban) come from this machine."""

    def __init__(self, now: Now) -> None:
        self._now = now
        self.told = False

    def compare(self, database: datetime) -> None:
        """`database`: the database's time a moment ago (a statement's round trip)."""
        off = (self._now() - database).total_seconds()
        if self.told or abs(off) < SKEW_WARNING.total_seconds():
            return
        self.told = True
        log.warning("this machine's clock is %.0f s %s the database's: the leases go by the "
                    "database's clock, but the times of games come from this machine's; "
                    "set it right (NTP)", abs(off), "ahead of" if off > 0 else "behind")
