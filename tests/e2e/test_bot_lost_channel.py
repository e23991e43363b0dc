"""Lost channels: `/toep new` where the bot lacks a permission it needs says
which one, in the player's language; a table whose channel is gone, or where
the bot can no longer post, ends unrated and nobody forfeits."""

from __future__ import annotations

from pathlib import Path

from cogs.i18n import t
from tests.e2e.toep_world import World, open_world, reply

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
