"""Which shards of a cluster no process holds, told to the operator.

A shard left out of every process's SHARD_IDS, or whose process died and was
not started again, has its servers' clicks delivered to no one: "This
interaction failed" for everyone there, and nothing in any log. Each running
process of the cluster looks at the shard leases at its heartbeat and warns,
once, of a shard that has had no live lease for a while (a process starting
or restarting is not worth a warning), and says when it is held again.

Every `now` here is the database's clock (the time of the heartbeat's renewal,
data/lease.py), as for the leases themselves: a machine whose clock ran ahead
would otherwise see the live leases of the others as lapsed.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from data.db import Database
from data.lease import SHARD
from data.times import from_db

log = logging.getLogger(__name__)

# Two lease lifetimes: a crashed process's lease lapses after one, and its
# restart takes it back well within the next.
GRACE = timedelta(seconds=60)


async def uncovered(db: Database, shard_count: int, now: datetime) -> list[int]:
    """The shards of `shard_count` with no lease, or only one lapsed by `now`
    (the database's time)."""
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT resource, expires_at FROM leases WHERE resource LIKE ?",
            (f"{SHARD}%/{shard_count}",))
    held = {int(row[0].removeprefix(SHARD).partition("/")[0])
            for row in rows if from_db(row[1]) > now}
    return [shard for shard in range(shard_count) if shard not in held]


class Coverage:
    """What one process has seen of its cluster's shards, and told."""

    def __init__(self, db: Database, shard_count: int, grace: timedelta = GRACE) -> None:
        self.db = db
        self.shard_count = shard_count
        self._grace = grace
        self._missing_since: dict[int, datetime] = {}
        self._told: set[int] = set()

    async def check(self, now: datetime) -> None:
        """Look at the leases (a heartbeat's work, `now` its renewal's time on the
        database's clock) and tell what changed."""
        self.seen(await uncovered(self.db, self.shard_count, now), now)

    def seen(self, missing: Sequence[int], now: datetime) -> None:
        for shard in missing:
            self._missing_since.setdefault(shard, now)
        back = sorted(set(self._missing_since) - set(missing))
        for shard in back:
            del self._missing_since[shard]
        if told_back := [shard for shard in back if shard in self._told]:
            self._told -= set(told_back)
            log.info("%s of %d held again by a running process",
                     _shards(told_back), self.shard_count)
        late = sorted(shard for shard, since in self._missing_since.items()
                      if now - since >= self._grace and shard not in self._told)
        if late:
            self._told |= set(late)
            log.warning(
                "%s of %d held by no running process for %.0f s: the servers on %s get no "
                "answer to any click; start a process whose SHARD_IDS include %s",
                _shards(late), self.shard_count, self._grace.total_seconds(),
                "them" if len(late) > 1 else "it", ",".join(map(str, late)))


def _shards(ids: Sequence[int]) -> str:
    return ("shard " if len(ids) == 1 else "shards ") + ", ".join(map(str, ids))
