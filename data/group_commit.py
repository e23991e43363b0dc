"""Group commit: the appends of many tables saved in one transaction.

Every table waits until its own events are on disk before anyone hears of
them (write-ahead); with many tables at once, their waits share one commit,
one flush to disk, instead of one each. Each append runs under a savepoint,
so one that is refused (a gap in its log) fails alone.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from data.bans import Ban, Forfeit, ForfeitOutcome, log_ban, record_forfeit_in
from data.db import Database
from data.errors import GameStateError, LogOrderError, NotFoundError
from data.jsonutil import dump_object
from data.sql import OUTAGE_ERRORS, Connection

log = logging.getLogger(__name__)


@dataclass
class _Append:
    game_id: int
    events_from: int
    events: Sequence[Mapping[str, Any]]
    deals_from: int
    deals: Sequence[Mapping[str, Any]]
    round_base: Mapping[str, Any] | None
    forfeit: Forfeit | None
    done: asyncio.Future[ForfeitOutcome | None]


class LogWriter:
    def __init__(self, db: Database) -> None:
        self.db = db
        # Told of each ban a saved forfeit started (its player hears of it).
        self.on_ban: Callable[[Ban], None] | None = None
        self._pending: list[_Append] = []
        self._task: asyncio.Task[None] | None = None

    async def append(self, game_id: int, events_from: int,
                     events: Sequence[Mapping[str, Any]], deals_from: int,
                     deals: Sequence[Mapping[str, Any]],
                     round_base: Mapping[str, Any] | None = None,
                     forfeit: Forfeit | None = None) -> ForfeitOutcome | None:
        """Save events and chance rows of one game, the base of a round they
        began (its `events` count must lie within the log), and a forfeit
        they bring that counts toward a ban (R19), all in one transaction;
        returns once committed, with the forfeit's outcome if there was one."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[ForfeitOutcome | None] = loop.create_future()
        self._pending.append(_Append(game_id, events_from, events, deals_from, deals,
                                     round_base, forfeit, done))
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._run())
        # The save goes on if this caller is cancelled: the writer owns it.
        return await asyncio.shield(done)

    async def drain(self) -> None:
        """Wait until every append handed in so far is saved (or failed)."""
        while self._task is not None and not self._task.done():
            await asyncio.wait([self._task])

    async def _run(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                outcomes = await self._save(batch)
            except OUTAGE_ERRORS as err:
                # Locked, or the disk is full: the database's trouble, not a bug of
                # ours. Each table puts itself back and tries again; one line is enough.
                log.warning("saving %d appends failed: %s", len(batch), err)
                outcomes = [err] * len(batch)
            except Exception as err:  # the transaction itself failed: all of it
                log.exception("saving %d appends failed", len(batch))
                outcomes = [err] * len(batch)
            for item, outcome in zip(batch, outcomes, strict=True):
                if item.done.done():
                    continue
                if isinstance(outcome, Exception):
                    item.done.set_exception(outcome)
                else:
                    item.done.set_result(outcome)
                    if outcome is not None and outcome.ban is not None:
                        log_ban(outcome.ban)
                        if self.on_ban is not None:
                            self.on_ban(outcome.ban)

    async def _save(self, batch: list[_Append]) -> list[Exception | ForfeitOutcome | None]:
        """One transaction, and a few statements for the whole batch: each
        append is checked against its game's status and log numbers first, and
        one that does not fit is refused alone."""
        outcomes: list[Exception | ForfeitOutcome | None] = [None] * len(batch)
        ids = sorted({item.game_id for item in batch})
        async with self.db.transaction() as conn:
            status, next_event, next_deal = await _log_ends(conn, ids)
            event_rows: list[tuple[int, int, str]] = []
            deal_rows: list[tuple[int, int, str]] = []
            base_rows: dict[int, tuple[int, str]] = {}  # the last one per game
            for k, item in enumerate(batch):
                gid = item.game_id
                try:
                    _check(item, status.get(gid), next_event.get(gid, 0),
                           next_deal.get(gid, 0))
                    events = [dump_object(e) for e in item.events]
                    deals = [dump_object(d) for d in item.deals]
                    base = _base_row(item, item.events_from + len(events))
                except Exception as err:
                    outcomes[k] = err
                    continue
                event_rows += [(gid, item.events_from + i, t) for i, t in enumerate(events)]
                deal_rows += [(gid, item.deals_from + i, t) for i, t in enumerate(deals)]
                next_event[gid] = item.events_from + len(events)
                next_deal[gid] = item.deals_from + len(deals)
                if base is not None:
                    base_rows[gid] = base
            await conn.executemany(
                "INSERT INTO game_events (game_id, n, body) VALUES (?, ?, ?)", event_rows)
            await conn.executemany(
                "INSERT INTO game_deals (game_id, n, body) VALUES (?, ?, ?)", deal_rows)
            await conn.executemany(
                "INSERT INTO game_round_bases (game_id, body) VALUES (?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET body = excluded.body",
                list(base_rows.values()))
            for k, item in enumerate(batch):  # after the events that brought them
                if item.forfeit is not None and outcomes[k] is None:
                    outcomes[k] = await record_forfeit_in(conn, item.forfeit)
        return outcomes


def _base_row(item: _Append, logged: int) -> tuple[int, str] | None:
    if item.round_base is None:
        return None
    events = item.round_base.get("events")
    if type(events) is not int or not 0 <= events <= logged:
        raise ValueError(f"game {item.game_id}: a round base must lie within the event log "
                         f"({logged} events), not at {events!r}")
    return item.game_id, dump_object(item.round_base)


async def _log_ends(conn: Connection, ids: list[int]
                    ) -> tuple[dict[int, str], dict[int, int], dict[int, int]]:
    """Each game's status and the numbers its two logs continue at, in one query.

    Each log's end is its own subquery: both databases find MAX(n) of one game
    at the end of the primary key (game_id, n) at once, where a grouped MAX over
    all the batch's games read every row they ever logged. The games' rows
    stay as read until the commit: a game finished meanwhile on another
    connection takes no more entries (locked in one order: no deadlock)."""
    where, params = conn.one_of("g.id", ids)
    rows = await conn.execute_fetchall(
        "SELECT g.id, g.status,"
        " (SELECT MAX(n) FROM game_events WHERE game_id = g.id),"
        " (SELECT MAX(n) FROM game_deals WHERE game_id = g.id)"
        f" FROM games AS g WHERE {where} ORDER BY g.id{conn.dialect.share_rows}", params)
    status = {row[0]: row[1] for row in rows}
    next_event = {row[0]: _after(row[2]) for row in rows}
    next_deal = {row[0]: _after(row[3]) for row in rows}
    return status, next_event, next_deal


def _after(last: int | None) -> int:
    return 0 if last is None else last + 1


def _check(item: _Append, status: str | None, next_event: int, next_deal: int) -> None:
    if status is None:
        raise NotFoundError(f"no game {item.game_id}")
    if status != "playing":
        raise GameStateError(f"game {item.game_id} is {status}: its logs take no more entries")
    for name, first, expected in (("events", item.events_from, next_event),
                                  ("deals", item.deals_from, next_deal)):
        if first != expected:
            raise LogOrderError(f"game {item.game_id}: {name} log continues at {expected}, "
                                f"refusing an append at {first}")
