"""What discord.py tells of the connection, handed to the tables.

A dropped gateway connection (or shard), a guild that is unavailable: no
click can reach the bot, so the tables there stop their clocks (tables/
outage.py). A resumed session, a new READY and its guilds: the clocks come
back in full. A channel that is deleted, or where the bot may no longer
post: its table ends unrated and nobody forfeits.

A plain client dispatches `connect`, `resumed` and `disconnect`; a sharded
one dispatches these too, and with each a `shard_*` event that names the
shard: a sharded bot listens to those only.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from cogs.permissions import is_thread, missing_permissions

if TYPE_CHECKING:
    from bot import ToepBot

log = logging.getLogger(__name__)

REMEMBER_DELETED = 1024  # deleted channels kept in mind: a bot runs for months


class ConnectionCog(commands.Cog):
    def __init__(self, bot: ToepBot) -> None:
        self.bot = bot
        self.reach = bot.reach
        self.reach.channel_problem = self.channel_problem
        # Channels and threads Discord said are gone, newest last. Ids are never
        # reused and a table in one is ended at once, so the recent ones suffice.
        self._deleted: dict[int, None] = {}

    @property
    def _sharded(self) -> bool:
        return isinstance(self.bot, discord.AutoShardedClient)

    # --- the gateway --------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_connect(self) -> None:
        if not self._sharded:
            log.info("connected to Discord")
            self.reach.connected()

    @commands.Cog.listener()
    async def on_shard_connect(self, shard_id: int) -> None:
        log.info("shard %s connected to Discord", shard_id)
        self.reach.connected(shard_id, self.bot.shard_count)

    @commands.Cog.listener()
    async def on_resumed(self) -> None:
        if not self._sharded:
            log.info("the connection to Discord resumed")
            self.reach.resumed()

    @commands.Cog.listener()
    async def on_shard_resumed(self, shard_id: int) -> None:
        log.info("shard %s resumed", shard_id)
        self.reach.resumed(shard_id)

    @commands.Cog.listener()
    async def on_disconnect(self) -> None:
        if not self._sharded:
            log.warning("the connection to Discord dropped: the clocks wait")
            self.reach.disconnected()

    @commands.Cog.listener()
    async def on_shard_disconnect(self, shard_id: int) -> None:
        log.warning("shard %s dropped: its tables' clocks wait", shard_id)
        self.reach.disconnected(shard_id)

    # --- guilds ---------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        # Every guild that arrived by now (discord.py calls a guild that comes
        # after READY a "join" rather than "available": both count).
        for guild in self.bot.guilds:
            if not guild.unavailable:
                self._guild_here(guild.id)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        self._guild_here(guild.id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        self._guild_here(guild.id)

    def _guild_here(self, guild_id: int) -> None:
        """Its tables' clocks run again, and they show in the guild's language."""
        self.reach.guild_available(guild_id)
        self.bot.presenter.guild_available(guild_id)

    @commands.Cog.listener()
    async def on_guild_unavailable(self, guild: discord.Guild) -> None:
        log.warning("guild %s is unavailable: its tables' clocks wait", guild.id)
        self.reach.guild_unavailable(guild.id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        for table in list(self.bot.manager):
            if table.row.guild_id == guild.id and table.open:
                await table.lose_channel("no_permission")

    # --- channels -----------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._gone(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._gone(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel,
                                      after: discord.abc.GuildChannel) -> None:
        await self._check(after.guild.id)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        await self._check(after.guild.id)

    async def _gone(self, channel_id: int) -> None:
        self._deleted[channel_id] = None
        if len(self._deleted) > REMEMBER_DELETED:
            del self._deleted[next(iter(self._deleted))]
        table = self.bot.manager.in_channel(channel_id)
        if table is not None:
            await table.lose_channel("channel_gone")

    async def _check(self, guild_id: int) -> None:
        """Permissions changed: tables the bot may no longer show end."""
        for table in list(self.bot.manager):
            if table.row.guild_id != guild_id or not table.open:
                continue
            problem = self.channel_problem(guild_id, table.row.channel_id)
            if problem is not None:
                await table.lose_channel(problem)

    def channel_problem(self, guild_id: int, channel_id: int) -> str | None:
        """Why nobody can play in the channel, as far as Discord told the bot:
        None while it does not know (an outage, a channel not in its cache)."""
        if channel_id in self._deleted:
            return "channel_gone"
        guild = self.bot.get_guild(guild_id)
        if guild is None or guild.unavailable or guild.me is None:
            return None
        channel = guild.get_channel_or_thread(channel_id)
        if channel is None:
            return None
        try:
            permissions = channel.permissions_for(guild.me)
        except discord.ClientException:  # a thread whose parent is not cached
            return None
        if missing_permissions(permissions, is_thread(channel)):
            return "no_permission"
        return None


async def setup(bot: ToepBot) -> None:
    await bot.add_cog(ConnectionCog(bot))
