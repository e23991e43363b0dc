"""Fair limits per member (tables/limits.py): lobbies hosted, lobbies sat in,
live tables per server; each refusal names its limit, and freeing one (a
start, a cancel, a leave) makes room again. Racing clicks are judged one
after the other."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import replace

import pytest

from data import guilds
from data.db import Database
from engine.rules import TableRules
from tables.errors import Refusal
from tables.manager import TableManager
from tables.table import Table, TableDeps

GUILD = 10
_channels = itertools.count(100)


async def _open(manager: TableManager, host: int, *, guild: int = GUILD) -> Table:
    return await manager.create(guild_id=guild, channel_id=next(_channels), host_id=host,
                                host_name=f"P{host}", public=True, rules=TableRules())


async def _refused(key: str, work: object) -> Refusal:
    with pytest.raises(Refusal) as info:
        await work  # type: ignore[misc]
    assert info.value.key == key
    return info.value


async def test_a_member_hosts_two_lobbies_until_one_starts_or_closes(
        manager: TableManager) -> None:
    first, second = await _open(manager, 1), await _open(manager, 1)
    refusal = await _refused("limit_hosted", _open(manager, 1))
    assert refusal.params == {"count": 2, "channels": f"<#{first.row.channel_id}>, "
                                                      f"<#{second.row.channel_id}>"}
    assert len(manager.tables) == 2  # nothing was made
    await first.add_bot(1, "easy")
    await first.start(1)  # a game in play is no longer an open lobby
    third = await _open(manager, 1)
    await _refused("limit_hosted", _open(manager, 1))
    await third.cancel(1)
    await _open(manager, 1)
    await _open(manager, 2)  # another member's own count


async def test_a_member_sits_in_three_lobbies_and_racing_joins_count(
        manager: TableManager) -> None:
    lobbies = [await _open(manager, host) for host in (2, 3, 4, 5)]
    results = await asyncio.gather(*(t.join(1, "P1") for t in lobbies),
                                   return_exceptions=True)
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(refused) == 1 and refused[0].key == "limit_seated"
    seated = [t for t in lobbies if t.seat_of(1) is not None]
    assert len(seated) == 3 and refused[0].params["count"] == 3
    assert refused[0].params["channels"] == ", ".join(f"<#{t.row.channel_id}>" for t in seated)
    # a host is seated in their own lobby: it counts
    await _refused("limit_seated", _open(manager, 1))
    await seated[0].leave(1)
    await _open(manager, 1)  # room again: hosts it, and sits in it
    await _refused("limit_seated", next(t for t in lobbies if t.seat_of(1) is None).join(
        1, "P1"))


async def test_live_tables_per_server_and_an_admins_change(
        manager: TableManager, db: Database) -> None:
    await guilds.set_limit(db, GUILD, "tables", 2)
    manager.limits.forget(GUILD)  # as the settings command does
    first, _ = await _open(manager, 1), await _open(manager, 2)
    refusal = await _refused("limit_tables", _open(manager, 3))
    assert refusal.params == {"count": 2}
    await _open(manager, 3, guild=GUILD + 1)  # another server counts its own
    await first.join(4, "P4")
    await first.start(1)  # a game in play is a live table too
    await _refused("limit_tables", _open(manager, 3))
    await first.end()
    await _open(manager, 3)
    # the admins lower the hosting limit: it counts from the next lobby
    await guilds.set_limit(db, GUILD, "hosted", 1)
    await guilds.set_limit(db, GUILD, "tables", 10)
    manager.limits.forget(GUILD)
    await _refused("limit_hosted", _open(manager, 3))


async def test_racing_creates_are_judged_one_after_the_other(manager: TableManager) -> None:
    results = await asyncio.gather(*(_open(manager, 1) for _ in range(4)),
                                   return_exceptions=True)
    assert sum(isinstance(r, Table) for r in results) == 2
    assert all(isinstance(r, Table) or (isinstance(r, Refusal) and r.key == "limit_hosted")
               for r in results)


async def test_the_tables_own_defaults_count_where_a_server_set_none(deps: TableDeps) -> None:
    deps.config = replace(deps.config, member_limits=guilds.Limits(hosted=1))
    manager = TableManager(deps)
    try:
        await _open(manager, 1)
        await _refused("limit_hosted", _open(manager, 1))
    finally:
        await manager.close()
