"""Fair limits per member (issue 25): open lobbies a member hosts, lobbies a
member sits in at once, and live tables in a server, each settable by the
server's admins (data/guilds.py; defaults there).

What is counted is what lives in this process's manager. That is the whole
server even in a cluster: a guild's clicks and tables all live on the process
of its shard. Practice games (/toep learn) are private and in memory only,
not tables in a channel: they count toward nothing.

Every check and the change it guards run under one lock per server, so two
clicks that race (Join in two lobbies at once, two /toep new) are judged one
after the other, each against what the other left.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Protocol

from data import guilds
from data.db import Database
from tables.errors import Refusal
from tables.snapshot import Status

if TYPE_CHECKING:
    from tables.table import Table


class SeatGate(Protocol):
    def new_seat(self, guild_id: int, user_id: int) -> AbstractAsyncContextManager[None]:
        """Held while a person takes a lobby seat; refuses past the limit."""
        ...


class Limits:
    def __init__(self, db: Database, tables: Callable[[], Iterable[Table]],
                 defaults: guilds.Limits = guilds.DEFAULT_LIMITS) -> None:
        self._db = db
        self._defaults = defaults  # where a server's admins set none
        self._tables = tables  # the manager's live tables
        self._known: dict[int, guilds.Limits] = {}  # per server, read once
        self._locks: dict[int, asyncio.Lock] = {}

    async def of(self, guild_id: int) -> guilds.Limits:
        known = self._known.get(guild_id)
        if known is None:
            known = await guilds.get_limits(self._db, guild_id, self._defaults)
            self._known[guild_id] = known
        return known

    def forget(self, guild_id: int) -> None:
        """The server's admins changed a limit: read it again at the next check
        (the settings command runs in the process that holds its tables)."""
        self._known.pop(guild_id, None)

    @contextlib.asynccontextmanager
    async def new_lobby(self, guild_id: int, host_id: int) -> AsyncIterator[None]:
        """Room for one more lobby hosted by `host_id` (who sits in it), or a
        Refusal naming the limit; held until the lobby is made."""
        async with self._lock(guild_id):
            limits = await self.of(guild_id)
            lobbies = self._lobbies(guild_id)
            hosted = [t for t in lobbies if t.row.host_id == host_id]
            if len(hosted) >= limits.hosted:
                raise Refusal("limit_hosted", count=len(hosted), channels=_channels(hosted))
            self._check_seated(lobbies, host_id, limits)
            live = [t for t in self._tables() if t.row.guild_id == guild_id and t.open]
            if len(live) >= limits.tables:
                raise Refusal("limit_tables", count=len(live))
            yield

    @contextlib.asynccontextmanager
    async def new_seat(self, guild_id: int, user_id: int) -> AsyncIterator[None]:
        """Room for `user_id` in one more lobby, or a Refusal; held until seated."""
        async with self._lock(guild_id):
            self._check_seated(self._lobbies(guild_id), user_id, await self.of(guild_id))
            yield

    def _check_seated(self, lobbies: list[Table], user_id: int,
                      limits: guilds.Limits) -> None:
        seated = [t for t in lobbies if t.seat_of(user_id) is not None]
        if len(seated) >= limits.seated:
            raise Refusal("limit_seated", count=len(seated), channels=_channels(seated))

    def _lobbies(self, guild_id: int) -> list[Table]:
        return [t for t in self._tables()
                if t.row.guild_id == guild_id and t.status is Status.LOBBY]

    def _lock(self, guild_id: int) -> asyncio.Lock:
        lock = self._locks.get(guild_id)
        if lock is None:
            lock = self._locks[guild_id] = asyncio.Lock()
        return lock


class NoLimits:
    """A lobby outside a manager (tests of one table): nothing is counted."""

    @contextlib.asynccontextmanager
    async def new_seat(self, guild_id: int, user_id: int) -> AsyncIterator[None]:
        yield


def _channels(tables: list[Table]) -> str:
    """The lobbies' channels, as mentions (they link, and notify nobody)."""
    return ", ".join(f"<#{t.row.channel_id}>" for t in sorted(tables, key=lambda t: t.id))
