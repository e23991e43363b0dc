"""Lost channels: `/toep new` where the bot lacks a permission it needs says
which one, in the player's language; a table whose channel is gone, or where
the bot can no longer post, ends unrated and nobody forfeits."""

from __future__ import annotations

from pathlib import Path

from cogs.i18n import t
from data import games
from tables.snapshot import Status
from tables.table import Table
from tests.e2e.fake_discord import SEND_MESSAGES
from tests.e2e.toep_world import (
    World,
    careful,
    counted_forfeits,
    open_public_table,
    open_world,
    reply,
    to_a_turn,
)

EMBED_LINKS, ATTACH_FILES = 1 << 14, 1 << 15


def _take_from_bot(world: World, permissions: int) -> None:
    """The guild's roles no longer give the bot `permissions`."""
    guild = world.fake.store.guilds[world.guild.id]
    for role_id in [guild.id, *guild.members[world.fake.bot_user.id].roles]:
        guild.roles[role_id].permissions &= ~permissions


async def test_a_new_table_where_the_bot_cannot_show_it_names_what_is_missing(
        tmp_path: Path) -> None:
    async with open_world(tmp_path, locale="nl") as world:
        _take_from_bot(world, EMBED_LINKS | ATTACH_FILES)
        res = await world.slash("anna", "toep new", locale="nl")
        text = reply(res)
        assert text == t("nl", "reply.missing_permission",
                         permission="Links insluiten, Bestanden bijvoegen")
        assert world.bot is not None and list(world.bot.manager) == []  # nothing opened
        assert world.fake.channel_messages(world.channel) == []

        res = await world.slash("bram", "toep new", locale="en-US")
        assert "Embed Links, Attach Files" in reply(res)


async def _public_game(world: World) -> Table:
    """A public table of anna and bram (forfeits there count toward a ban), at a turn."""
    table = await open_public_table(world)
    await to_a_turn(world, table)
    return table


async def test_a_table_whose_channel_is_deleted_ends_unrated_and_nobody_forfeits(
        tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        table = await _public_game(world)
        await world.fake.delete_channel(world.channel)
        await world.fake.wait_for(lambda: table.status is Status.ENDED)
        assert table.end_reason == "channel_gone"
        await world.fake_clock.advance(120)  # no clock runs on in the dark
        assert table.game is not None and not any(table.game.forfeited)
        assert await counted_forfeits(world, table) == 0
        saved = await games.load_game(table.deps.db, table.id)
        assert saved.game.status == "ended" and not saved.game.rated


async def test_a_table_where_the_bot_may_no_longer_post_ends_unrated(tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        table = await _public_game(world)
        await world.fake.deny_permission(world.channel, SEND_MESSAGES)
        await world.fake.wait_for(lambda: table.status is Status.ENDED)
        assert table.end_reason == "no_permission"
        await world.fake_clock.advance(120)
        assert table.game is not None and not any(table.game.forfeited)
        assert await counted_forfeits(world, table) == 0


async def test_a_refused_post_ends_the_table_too(tmp_path: Path) -> None:
    """Discord's refusal (50013) ends it even when no event told the bot."""
    async with open_world(tmp_path) as world:
        table = await _public_game(world)
        _take_from_bot(world, ATTACH_FILES | EMBED_LINKS)  # no CHANNEL_UPDATE is sent
        assert await world.step(careful)  # a card played: its table edit is refused
        await world.fake.wait_for(lambda: table.status is not Status.PLAYING)
        assert table.status is Status.ENDED and table.end_reason == "no_permission"
        assert table.game is not None and not any(table.game.forfeited)
