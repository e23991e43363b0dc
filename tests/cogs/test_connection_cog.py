"""The connection cog hands discord.py's events to `Reach`: a plain client's
connect/resume/disconnect, a sharded client's shard events only."""

from __future__ import annotations

from typing import Any, cast

import discord

from cogs.connection_cog import REMEMBER_DELETED, ConnectionCog
from tables.outage import Reach

GUILD_ON_SHARD_1 = 1 << 22  # of two shards


class _Presenter:
    """Which guilds the presenter heard are here (their language is known)."""

    def __init__(self) -> None:
        self.guilds: list[int] = []

    def guild_available(self, guild_id: int) -> None:
        self.guilds.append(guild_id)


class _Sharded(discord.AutoShardedClient):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents(guilds=True), shard_count=2)
        self.reach = Reach()
        self.presenter = _Presenter()


class _Plain(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents(guilds=True))
        self.reach = Reach()
        self.presenter = _Presenter()


async def test_a_sharded_bot_pauses_only_the_shard_that_dropped() -> None:
    bot = _Sharded()
    cog = ConnectionCog(cast(Any, bot))
    reach = bot.reach
    await cog.on_shard_connect(0)
    await cog.on_shard_connect(1)
    await cog.on_guild_available(cast(Any, discord.Object(id=GUILD_ON_SHARD_1)))
    await cog.on_guild_available(cast(Any, discord.Object(id=2 << 22)))
    assert reach.reachable(GUILD_ON_SHARD_1) and reach.reachable(2 << 22)
    await cog.on_disconnect()  # dispatched beside shard_disconnect: not for a sharded bot
    assert reach.reachable(GUILD_ON_SHARD_1)
    await cog.on_shard_disconnect(1)
    assert not reach.reachable(GUILD_ON_SHARD_1) and reach.reachable(2 << 22)
    await cog.on_shard_resumed(1)
    assert reach.reachable(GUILD_ON_SHARD_1)
    assert bot.presenter.guilds == [GUILD_ON_SHARD_1, 2 << 22]


async def test_a_plain_bot_follows_connect_resume_and_disconnect() -> None:
    bot = _Plain()
    cog = ConnectionCog(cast(Any, bot))
    reach = bot.reach
    await cog.on_connect()
    assert not reach.reachable(5)  # READY came, the guild not yet
    await cog.on_guild_join(cast(Any, discord.Object(id=5)))  # arrived after READY
    assert reach.reachable(5) and bot.presenter.guilds == [5]
    await cog.on_disconnect()
    assert not reach.reachable(5)
    await cog.on_resumed()
    assert reach.reachable(5)
    await cog.on_guild_unavailable(cast(Any, discord.Object(id=5)))
    assert not reach.reachable(5)
    await bot.close()


class _Table:
    def __init__(self, guild_id: int) -> None:
        self.row = type("Row", (), {"guild_id": guild_id, "channel_id": guild_id + 1})()
        self.open = True
        self.lost: list[str] = []

    async def lose_channel(self, reason: str) -> None:
        self.lost.append(reason)


async def test_a_bot_removed_from_a_guild_ends_its_tables_there() -> None:
    bot = _Plain()
    here, elsewhere = _Table(5), _Table(6)
    cast(Any, bot).manager = [here, elsewhere]
    cog = ConnectionCog(cast(Any, bot))
    await cog.on_guild_remove(cast(Any, discord.Object(id=5)))
    assert here.lost == ["no_permission"] and elsewhere.lost == []
    await bot.close()


class _Manager(list[_Table]):
    def in_channel(self, channel_id: int) -> _Table | None:
        return next((t for t in self if t.row.channel_id == channel_id), None)


async def test_deleted_channels_are_remembered_within_a_bound() -> None:
    """A bot that runs for months hears of many deleted channels: it keeps the
    newest REMEMBER_DELETED, which still answer "channel_gone"."""
    bot = _Plain()
    table = _Table(5)
    cast(Any, bot).manager = _Manager([table])
    cog = ConnectionCog(cast(Any, bot))
    await cog.on_raw_thread_delete(cast(Any, type("P", (), {"thread_id": 6})()))
    assert table.lost == ["channel_gone"] and cog.channel_problem(5, 6) == "channel_gone"
    for channel_id in range(100, 100 + REMEMBER_DELETED):
        await cog.on_raw_thread_delete(cast(Any, type("P", (), {"thread_id": channel_id})()))
    assert len(cog._deleted) == REMEMBER_DELETED
    assert cog.channel_problem(5, 6) is None  # forgotten: the oldest
    assert cog.channel_problem(5, 99 + REMEMBER_DELETED) == "channel_gone"
    await bot.close()
