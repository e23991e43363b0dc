"""The fake Discord shards as Discord does: GET /gateway/bot advises a shard count,
each shard is its own connection (IDENTIFY.shard), a guild's events and
interactions go only to the connection of shard `(guild_id >> 22) % count`, and
a shard that is not one (4010) or one that would carry too many guilds (4011)
is closed."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
from discord import app_commands

from tests.e2e.conftest import BotRunner
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_discord.shards import shard_of


class ShardedToy(discord.AutoShardedClient):
    """A sharded client with one command that says which shard answered."""

    def __init__(self, fake: FakeDiscord, **shards: Any) -> None:
        super().__init__(intents=discord.Intents(guilds=True), connector=fake.connector(),
                         guild_ready_timeout=0.05, **shards)
        self.tree = app_commands.CommandTree(self)
        self.answered: list[int] = []  # the guilds whose /where this client answered

        @self.tree.command(name="where", description="Which shard answers")
        async def where(interaction: discord.Interaction) -> None:
            assert interaction.guild is not None
            self.answered.append(interaction.guild.id)
            await interaction.response.send_message(f"shard {interaction.guild.shard_id}")

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5-second pause between the shards' IDENTIFYs (the fake has no such limit)."""


async def test_a_guild_s_events_and_interactions_reach_only_its_shard(
    run_bot: BotRunner,
) -> None:
    async with FakeDiscord(recommended_shards=2, max_concurrency=2) as fake:
        guilds = [fake.add_guild(f"g{shard}", shard=(shard, 2)) for shard in (0, 1, 0)]
        assert [shard_of(g.id, 2) for g in guilds] == [0, 1, 0]
        channels = [fake.add_channel(g) for g in guilds]
        anna = fake.add_user("anna", guild=None)
        for guild in guilds:
            fake.add_member(guild, anna)
        first = ShardedToy(fake, shard_count=2, shard_ids=[0])
        second = ShardedToy(fake, shard_count=2, shard_ids=[1])
        await first.login(fake.settings.token)  # GET /gateway/bot: Discord's advice
        limits = await first.fetch_session_start_limits()
        assert limits.max_concurrency == 2
        run_first = asyncio.create_task(first.connect())
        await run_bot(second, fake)  # ready once both shards got their guilds
        await fake.wait_commands("where")
        sessions = sorted(s.shard for s in fake.gateway.sessions.values())
        assert sessions == [(0, 2), (1, 2)]
        assert sorted(g.id for g in first.guilds) == sorted([guilds[0].id, guilds[2].id])
        assert [g.id for g in second.guilds] == [guilds[1].id]
        for channel in channels:
            res = await fake.slash(anna, channel, "where")
            assert res.acknowledged and res.message is not None
            assert res.message.content == f"shard {shard_of(channel.guild_id, 2)}"
        assert first.answered == [guilds[0].id, guilds[2].id]
        assert second.answered == [guilds[1].id]
        late = fake.add_guild("late", shard=(1, 2))  # joined later: on shard 1 only
        await fake.wait_for(lambda: second.get_guild(late.id) is not None)
        await asyncio.sleep(0.05)
        assert first.get_guild(late.id) is None
        await first.close()
        await asyncio.gather(run_first, return_exceptions=True)
        with pytest.raises(RuntimeError, match="on the guild's shard"):
            await fake.slash(anna, channels[0], "where")  # shard 0 is down: nobody hears it
        assert fake.errors == []
        await second.close()


async def test_without_a_shard_count_the_client_follows_discord_s_advice(
    run_bot: BotRunner,
) -> None:
    async with FakeDiscord(recommended_shards=3) as fake:
        fake.add_guild("g")
        client = ShardedToy(fake)
        await run_bot(client, fake)
        assert client.shard_count == 3
        assert sorted(s.shard for s in fake.gateway.sessions.values()) == [(0, 3), (1, 3), (2, 3)]
        await client.close()


@pytest.mark.parametrize(("shard_id", "shard_count", "code"), [
    (2, 2, 4010),  # no shard 2 of 2: invalid shard
    (0, 1, 4011),  # three guilds on one connection, past the fake's limit of two
])
async def test_a_shard_discord_would_not_accept_is_closed(
    shard_id: int, shard_count: int, code: int
) -> None:
    async with FakeDiscord(max_guilds_per_shard=2) as fake:
        for name in "abc":
            fake.add_guild(name)
        client = discord.Client(intents=discord.Intents(guilds=True), connector=fake.connector(),
                                shard_id=shard_id, shard_count=shard_count)
        with pytest.raises(discord.ConnectionClosed) as closed:
            await asyncio.wait_for(client.start(fake.settings.token), 20)
        assert closed.value.code == code
        assert fake.gateway.sessions == {}
        await client.close()
