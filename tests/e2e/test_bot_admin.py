"""Admins and languages: `/toep-admin end` for a stuck table (Manage Server only,
unrated); the table message in the guild's language, ephemeral replies in the
clicking user's language (docs/design.md, issue 5); the admin commands in a
command of their own that only members who may manage the server see
(issue 12)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.i18n import t
from data import games
from engine.game import Phase
from tables.snapshot import Status
from tests.e2e.fake_discord import CommandError
from tests.e2e.toep_world import (
    careful,
    open_private_table,
    open_world,
    original,
    panel_button,
    reply,
    start,
)


async def test_an_admin_ends_a_stuck_table_unrated(tmp_path: Path) -> None:
    async with open_world(tmp_path, ("anna", "bram", "cara")) as world:
        res = await world.slash("bram", "toep new")  # a public table: rated, normally
        assert reply(res).startswith(t("en", "reply.created", link="")[:10])
        await world.wait_table_message("bram")
        await world.click_table("cara", "join")
        await world.click_table("bram", "start")
        table = world.table()
        assert table.status is Status.PLAYING and table.row.public
        old = await world.panel("bram")
        assert old is not None
        await world.drive(careful, lambda tb: tb.game is not None and tb.game.phase is Phase.PLAY)
        assert "▶" in (await world.wait_table_message("▶")).text  # someone is on turn

        # A member without Manage Server whom the server let use the command
        # (its Integrations settings) is refused all the same.
        world.fake.grant_command(world.guild, "toep-admin", world.people["cara"])
        res = await world.slash("cara", "toep-admin end")
        assert reply(res) == t("en", "click.manage_server")
        assert table.status is Status.PLAYING

        # anna has the Admin role (Manage Server): she is no player, and may end it.
        res = await world.slash("anna", "toep-admin end")
        assert reply(res) == t("en", "reply.ended")
        assert table.status is Status.ENDED
        assert world.bot is not None
        saved = await games.load_game(world.bot.db, table.id)
        assert saved.game.status == "ended" and not saved.game.rated
        message = await world.wait_table_message(t("en", "table.ended.admin"))
        assert message.buttons() == []
        assert "▶" not in message.text  # nobody is on turn at an ended table

        # Its buttons answer that the game is over; the channel is free again.
        custom_id = panel_button(old, "pass")
        assert custom_id is not None
        assert reply(await world.click("bram", old, custom_id)) == t("en", "click.finished")
        assert reply(await world.slash("anna", "toep-admin end")) == t("en", "click.no_table")
        res = await world.slash("cara", "toep new")
        assert world.table().id != table.id and world.table().status is Status.LOBBY


async def test_the_table_speaks_the_guilds_language_and_replies_the_users(
        tmp_path: Path) -> None:
    names = ("anna", "bram", "cara", "dave")
    async with open_world(tmp_path, names, guild_locale="nl") as world:
        world.people["anna"].locale = "nl"
        world.people["cara"].locale = "nl"
        table = await open_private_table(world, guests=("bram",))
        assert "Toeptafel" in world.table_message().text
        await start(world)
        await world.wait_table_message(t("nl", "table.title", number=1))
        message = world.table_message()
        assert message.button(prefix=f"toep:{table.id}:hand")["label"] == t("nl", "btn.hand")
        assert t("en", "btn.hand") not in message.text

        # Each person's panel and refusals in their own Discord language.
        anna, bram = await world.panel("anna"), await world.panel("bram")
        assert anna is not None and t("nl", "hand.title") in anna.text
        assert bram is not None and t("en", "hand.title") in bram.text
        res = await world.click_table("cara", "hand")
        assert reply(res) == t("nl", "click.not_seated")
        res = await world.click_table("dave", "hand")
        assert reply(res) == t("en", "click.not_seated")
        world.fake.grant_command(world.guild, "toep-admin", world.people["dave"])
        res = await world.slash("dave", "toep-admin end")
        assert reply(res) == t("en", "click.manage_server")


async def test_an_english_guild_gets_an_english_table(tmp_path: Path) -> None:
    async with open_world(tmp_path, locale="nl", guild_locale="en-GB") as world:
        await open_private_table(world, guests=("bram",))
        await start(world)
        await world.wait_table_message(t("en", "table.title", number=1))
        anna = await world.panel("anna")
        assert anna is not None and t("nl", "hand.title") in anna.text


MANAGE_GUILD = 0x20  # Discord's Manage Server bit
ADMIN_COMMANDS = {"end": "beëindigen", "settings": "instellingen", "bans": "schorsingen",
                  "daily-settings": "dag-instellingen", "new-tournament": "nieuw-toernooi"}


@pytest.mark.parametrize("lang", ["en", "nl"])
async def test_the_admin_commands_are_a_command_only_managers_see(
        tmp_path: Path, lang: str) -> None:
    """Discord hides a command from members without its default permissions
    only on a top-level command (the fake refuses them anywhere else): the
    bot's bulk overwrite has `/toep-admin` with Manage Server, guild only,
    and `/toep` without those commands and open to everyone."""
    async with open_world(tmp_path, ("anna",)) as world:
        synced = {c["name"]: c for c in world.fake.commands()}
        admin, toep = synced["toep-admin"], synced["toep"]
        assert admin["default_member_permissions"] == str(MANAGE_GUILD)
        assert admin["dm_permission"] is False and admin["contexts"] == [0]  # guilds only
        subs = {o["name"]: o for o in admin["options"]}
        assert set(subs) == set(ADMIN_COMMANDS)
        if lang == "nl":
            assert admin["name_localizations"]["nl"] == "toep-beheer"
            assert {n: o["name_localizations"]["nl"] for n, o in subs.items()} == ADMIN_COMMANDS
        assert toep["default_member_permissions"] is None and toep["dm_permission"] is False
        members = {o["name"]: o for o in toep["options"]}
        assert not (set(ADMIN_COMMANDS) - {"settings"}) & set(members)
        # `/toep settings` is a member's own (turn pings), not the server's.
        assert [o["name"] for o in members["settings"]["options"]] == ["ping"]
        assert {"new", "hand", "help", "rules"} <= {o["name"] for o in toep["options"]}
        # The help lists them too, for admins, under their own command's name.
        text = original(await world.slash("anna", "toep help", locale=lang)).text
        group = "toep-beheer" if lang == "nl" else "toep-admin"
        assert t(lang, "help.section.admin") in text
        for name, dutch in ADMIN_COMMANDS.items():
            assert f"/{group} {dutch if lang == 'nl' else name}`" in text


@pytest.mark.parametrize("lang", ["en", "nl"])
async def test_a_member_who_reaches_an_admin_command_anyway_is_refused(
        tmp_path: Path, lang: str) -> None:
    """A server may let anyone use /toep-admin (its Integrations settings):
    each command still checks Manage Server when it runs, and changes
    nothing for a member without it."""
    async with open_world(tmp_path, ("anna", "bram")) as world:
        await world.slash("anna", "toep new")
        await world.wait_table_message("anna")
        table = world.table().id
        locale = "nl" if lang == "nl" else "en-US"
        with pytest.raises(CommandError, match="cannot see /toep-admin"):
            await world.slash("bram", "toep-admin end", locale=locale)  # hidden from him
        world.fake.grant_command(world.guild, "toep-admin", world.people["bram"])
        for command, refusal in (("end", "click.manage_server"),
                                 ("settings", "settings.not_allowed"),
                                 ("bans", "bans.not_allowed")):
            res = await world.slash("bram", f"toep-admin {command}", locale=locale)
            assert reply(res) == t(lang, refusal), command
        assert world.table().id == table and world.table().status is Status.LOBBY
        # anna may: the same command works for her.
        assert reply(await world.slash("anna", "toep-admin end", locale=locale)) == t(
            lang, "reply.ended")
