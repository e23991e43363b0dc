"""The invitations `/toep invite` (and Play again) post in a lobby's channel
go when the lobby starts or closes: deleted, so none stays behind as a live
invite to a table that no longer takes anyone. Their ids are saved
(data/invitations.py), so a restart in between still finds them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord

from data import invitations
from data.db import Database
from tables.snapshot import Status
from tables.table import Table

if TYPE_CHECKING:
    from bot import ToepBot

log = logging.getLogger(__name__)


class Invitations:
    def __init__(self, bot: ToepBot) -> None:
        self.bot = bot
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def db(self) -> Database:
        return self.bot.db

    async def posted(self, table: Table, message_id: int) -> None:
        """Keep an invitation until its lobby is over; if it is already (it
        started while the invitation was being posted), it goes at once."""
        try:
            await invitations.add(self.db, table.id, message_id)
        except Exception:
            log.warning("table %s: an invitation's id could not be saved; it goes now",
                        table.id, exc_info=True)
            await self._delete(table.row.channel_id, table.row.guild_id, [message_id])
            return
        if table.status is not Status.LOBBY:
            self.lobby_over(table)

    def lobby_over(self, table: Table) -> None:
        """The lobby started or closed (told by the manager, under the table's lock)."""
        self._spawn(self._sweep(table.id, table.row.guild_id, table.row.channel_id))

    def sweep_left_over(self, owns: Callable[[int], bool]) -> None:
        """At start-up: invitations of lobbies that started or closed while the
        bot was down or stopping (on this process's shards)."""
        self._spawn(self._sweep_left_over(owns))

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _sweep(self, table_id: int, guild_id: int, channel_id: int) -> None:
        try:
            message_ids = await invitations.take(self.db, table_id)
        except Exception:  # left for the next start-up's sweep
            log.warning("table %s: its invitations could not be read", table_id, exc_info=True)
            return
        await self._delete(channel_id, guild_id, message_ids)

    async def _sweep_left_over(self, owns: Callable[[int], bool]) -> None:
        try:
            rows = await invitations.left_over(self.db)
        except Exception:
            log.warning("invitations left over could not be read", exc_info=True)
            return
        for table_id, guild_id, channel_id in sorted({r[:3] for r in rows}):
            if owns(guild_id):
                await self._sweep(table_id, guild_id, channel_id)

    async def _delete(self, channel_id: int, guild_id: int, message_ids: list[int]) -> None:
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        for message_id in message_ids:
            try:
                await channel.get_partial_message(message_id).delete()
            except discord.NotFound:
                pass  # deleted already, by a person or with its channel
            except discord.HTTPException as err:
                log.warning("an invitation (message %s) could not be deleted: %s",
                            message_id, err)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
