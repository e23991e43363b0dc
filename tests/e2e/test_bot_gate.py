"""Issue 25 end to end: what a modified client sends is refused at the gate
(cogs/gate.py) or by the command tree, with a short private answer, and
changes nothing: an id that is not on the clicked message, another server's
table, digits `int` refuses, an option value far past Discord's limits, a
command from a DM, payloads Discord never sends."""

from __future__ import annotations

import dataclasses
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from cogs.i18n import t
from tables.snapshot import Status
from tests.e2e.fake_discord import CommandError, FakeDiscord
from tests.e2e.fake_discord.models import Channel, Message
from tests.e2e.toep_world import World, open_private_table, open_world, original, reply


def public_state(fake: FakeDiscord, channel: Channel) -> list[tuple[Any, ...]]:
    """Every public message of a channel as people see it, and its edits."""
    return [(m.id, m.content, json.dumps(m.embeds), json.dumps(m.components), len(m.edits))
            for m in fake.channel_messages(channel)]


def showing(message: Message, custom_id: str) -> Message:
    """`message` as if it carried one button with `custom_id`: what gets past
    the gate's first check, to try the checks behind it."""
    return dataclasses.replace(message, components=[{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "?", "custom_id": custom_id}]}])


def command_id(fake: FakeDiscord, name: str) -> str:
    return str(next(c["id"] for c in fake.commands() if c["name"] == name))


async def open_lobby(world: World) -> tuple[Message, Any]:
    """A public table of anna's, in its lobby: its message and the table."""
    await world.slash("anna", "toep new")
    message = await world.wait_table_message("anna")
    return message, world.table()


async def test_an_id_that_is_not_on_the_table_message_changes_nothing(tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        message, table = await open_lobby(world)
        board = original(await world.slash("bram", "toep leaderboard"))
        before = public_state(world.fake, world.channel)
        seats = list(table.seats)
        forged = [f"toep:{table.id}:stay", f"toep:{table.id}:walkout",
                  f"toep:{table.id}:removebot:1", f"toep:{table.id}:play:10H:0",
                  f"toep:{table.id}:again", "toeplearn:1:new:-:-",
                  f"toepboard:{world.guild.id}:0", f"toepset:{world.guild.id}:reset"]
        for custom_id in forged:
            res = await world.fake.forge_click(world.people["bram"], message, custom_id)
            await world.settle()
            assert res.ack_type == 4, custom_id  # answered, never UPDATE_MESSAGE
            assert reply(res) == t("en", "click.forged"), custom_id
        # On bram's own leaderboard: a table's button is no more his to click there.
        res = await world.fake.forge_click(world.people["bram"], board, f"toep:{table.id}:join")
        assert reply(res) == t("en", "click.forged")
        await world.bot_settled()
        assert public_state(world.fake, world.channel) == before
        assert list(table.seats) == seats and table.status is Status.LOBBY
        # The table message is the bot's still: /toep table brings it back.
        await world.fake_clock.advance(11)
        res = await world.slash("anna", "toep table")
        assert reply(res).startswith(t("en", "manage.back", link=""))


async def test_a_click_rewriting_a_message_only_on_the_clickers_own(tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        message, table = await open_lobby(world)
        before = public_state(world.fake, world.channel)
        # Even shown on the table message, "stay" (which rewrites the message it
        # is on) is refused there: only the clicker's own question may change.
        for custom_id in (f"toep:{table.id}:stay", f"toepboard:{world.guild.id}:0"):
            res = await world.click("anna", showing(message, custom_id), custom_id)
            assert reply(res) == t("en", "click.forged")
        assert public_state(world.fake, world.channel) == before


async def test_another_servers_table_is_out_of_reach(tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        message, table = await open_lobby(world)
        other = world.fake.add_guild("Elders", locale="en-US")
        elsewhere = world.fake.add_channel(other, "kaarten")
        zoe = world.fake.add_user("zoe", guild=other)
        await world.fake.wait_for(lambda: world.bot is not None
                                  and world.bot.get_guild(other.id) is not None)
        board = original(await world.fake.slash(zoe, elsewhere, "toep leaderboard"))
        join = f"toep:{table.id}:join"
        # Sent from a message of her own server that has no such button.
        res = await world.fake.forge_click(zoe, board, join)
        assert reply(res) == t("en", "click.forged")
        # Even from a message there that showed it: another server's table.
        res = await world.fake.click(zoe, showing(board, join), join)
        await world.settle()
        assert reply(res) == t("en", "click.other_server")
        # So too a leaderboard page of the first server.
        page = f"toepboard:{world.guild.id}:0"
        res = await world.fake.click(zoe, showing(board, page), page)
        assert reply(res) == t("en", "click.other_server")
        await world.bot_settled()
        assert [s.user_id for s in table.seats] == [world.people["anna"].id]
        assert world.fake.channel_messages(elsewhere) == []
        assert message.text == world.table_message().text


@pytest.mark.parametrize("lang", ["en", "nl"])
async def test_digits_that_int_refuses_are_forged_ids(tmp_path: Path, lang: str) -> None:
    locale = "en-US" if lang == "en" else "nl"
    async with open_world(tmp_path, locale=locale) as world:
        message, table = await open_lobby(world)
        board = original(await world.slash("anna", "toep leaderboard"))
        guild = world.guild.id
        on_board = ["toepboard:²:0", f"toepboard:{guild}:¹²", f"toepban:{guild}:²",
                    f"toepban:²:{world.people['bram'].id}", "toeplearn:¹²:new:-:-",
                    f"toepset:{guild}:value:²", f"toepboard:{guild}:0" + "0" * 90]
        on_table = ["toep:²:join", f"toep:{table.id}:removebot:²", "toep:١:hand"]
        before = public_state(world.fake, world.channel)
        for custom_id in on_board:
            res = await world.forge_click("anna", custom_id, board)
            assert reply(res) == t(lang, "click.forged"), custom_id
        for custom_id in on_table:
            res = await world.forge_click("anna", custom_id, message)
            assert reply(res) == t(lang, "click.forged"), custom_id
        assert public_state(world.fake, world.channel) == before
    # open_world: nothing logged at ERROR (it was a traceback per click).


async def test_an_option_value_of_4000_characters_gets_an_answer(tmp_path: Path) -> None:
    async with open_world(tmp_path, ("anna", "bram"), locale="nl") as world:
        long = "x" * 4000
        data = {"id": command_id(world.fake, "toep"), "name": "toep", "type": 1, "options": [
            {"name": "new", "type": 1, "options": [
                {"name": "private", "type": 5, "value": True},
                {"name": "next_leader", "type": 3, "value": long}]}]}
        res = await world.fake.forge_slash(world.people["anna"], world.channel, data)
        await world.settle()
        text = reply(res)
        assert len(text) <= 2000
        assert text.startswith(t("nl", "click.bad_rules", reason="")[:20])
        assert world.bot is not None and world.bot.manager.in_channel(world.channel.id) is None
        # A select value as long: never offered, so refused at the gate.
        panel = original(await world.slash("anna", "toep-admin settings"))
        value = f"toepset:{world.guild.id}:lang"
        res = await world.fake.forge_click(world.people["anna"], panel, value,
                                           values=[long], component_type=3)
        assert reply(res) == t("nl", "click.forged")


async def test_commands_from_a_dm_are_refused(tmp_path: Path,
                                              caplog: pytest.LogCaptureFixture) -> None:
    async with open_world(tmp_path, locale="nl") as world:
        anna = world.people["anna"]
        # Declared guild-only: Discord offers neither group in a DM.
        for name in ("toep", "toep-admin"):
            synced = next(c for c in world.fake.commands() if c["name"] == name)
            assert synced["contexts"] == [0] and synced["dm_permission"] is False
        with pytest.raises(CommandError):
            await world.fake.dm_slash(anna, "toep new")
        # A client that sends it anyway: told, and no table with guild 0.
        caplog.set_level(logging.WARNING)
        res = await world.fake.dm_slash(anna, "toep new", forge=True)
        await world.settle()
        assert reply(res) == t("nl", "click.guild_only")
        res = await world.fake.dm_slash(anna, "toep-admin end", forge=True, locale="en-US")
        assert reply(res) == t("en", "click.guild_only")
        assert world.bot is not None and list(world.bot.manager) == []
    assert any("from a DM" in r.getMessage() for r in caplog.records
               if r.levelno == logging.WARNING)


async def test_payloads_discord_never_sends_are_warnings(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    async with open_world(tmp_path, ("anna", "bram")) as world:
        toep = command_id(world.fake, "toep")
        shapes = [
            {"id": toep, "name": "toep", "type": 1,
             "options": [{"name": "dance", "type": 1, "options": []}]},
            {"id": toep, "name": "toep", "type": 1, "options": []},  # the group itself
            {"id": toep, "name": "nothing", "type": 1, "options": []},
        ]
        for data in shapes:
            res = await world.fake.forge_slash(world.people["anna"], world.channel, data)
            await world.settle()
            assert reply(res) == t("en", "command.unreadable"), data
        # A member option naming someone who is no member here.
        await open_private_table(world)
        stranger = world.fake.add_user("stranger", guild=None)
        res = await world.slash("anna", "toep invite", {"member": stranger})
        assert reply(res) == t("en", "command.not_member")
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING
              and r.name == "cogs.error_path"]
    assert sum("a payload Discord does not send" in line for line in warned) == 4
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
