"""Lobby control end to end (issue 26), in English and in Dutch: the host
takes anyone off the lobby with a menu, invitations go when the game
starts or the lobby closes, Play again asks only those who finished, and
/toep new answers with a link to the lobby message itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cogs.i18n import t
from cogs.lobby_remove import seat_value
from cogs.replies import refusal_text
from tables.errors import Refusal
from tables.snapshot import Status
from tables.table import Table
from tests.e2e.fake_discord.models import Message
from tests.e2e.toep_world import World, open_private_table, open_world, reply, start

LANGS = pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("nl", "nl")])


def _menu(message: Message) -> dict[str, Any]:
    for row in message.components:
        for item in row.get("components", []):
            if str(item.get("custom_id", "")).endswith(":remove"):
                return dict(item)
    raise LookupError("no menu to take someone off the table")


def _invitations(world: World) -> list[Message]:
    return [m for m in world.fake.channel_messages(world.channel)
            if m.content and not m.buttons() and not m.deleted and "/channels/" not in m.content]


async def _full_public_lobby(world: World, locale: str) -> Table:
    """anna hosts a public lobby; bram, cora and an easy computer sit at it."""
    await world.slash("anna", "toep new", locale=locale)
    await world.wait_table_message("anna")
    for who in ("bram", "cora"):
        await world.click_table(who, "join")
    await world.click_table("anna", "addbot", "easy")
    table = world.table()
    await world.fake.wait_for(lambda: len(table.seats) == 4)
    return table


@LANGS
async def test_the_host_takes_a_person_off_a_public_lobby(tmp_path: Path, locale: str,
                                                          lang: str) -> None:
    async with open_world(tmp_path, ("anna", "bram", "cora"), locale=locale,
                          guild_locale=locale) as world:
        table = await _full_public_lobby(world, locale)
        bram, cora = world.people["bram"], world.people["cora"]
        lobby = await world.wait_table_message("Bot 1")
        menu = await world.fake.wait_for(lambda: _menu(lobby) if "cora" in str(
            _menu(lobby)) else None)
        assert [o["value"] for o in menu["options"]] == [
            seat_value(1, bram.id), seat_value(2, cora.id), seat_value(3, None)]
        assert menu["placeholder"] == t(lang, "lobby.remove")
        custom_id = str(menu["custom_id"])

        # only the host may: bram's pick changes nothing
        res = await world.click("bram", lobby, custom_id, values=[seat_value(2, cora.id)])
        assert reply(res) == refusal_text(Refusal("host_only"), lang)
        assert table.seat_of(cora.id) == 2
        # the host takes bram (away from the keyboard) off
        await world.click("anna", lobby, custom_id, values=[seat_value(1, bram.id)])
        assert table.seat_of(bram.id) is None and table.seat_of(cora.id) == 1
        shown = await world.wait_table_message(t(lang, "lobby.removed", names="bram"))
        assert not shown.notified  # told in the lobby's text; nobody is pinged
        # a pick from the menu as it was before (cora sat at seat 2) takes nobody:
        # the menu on the message no longer offers it, so the gate turns it away
        # (tests/tables/test_lobby.py: the table's own check of a pick that raced)
        res = await world.fake.forge_click(world.people["anna"], lobby, custom_id,
                                           values=[seat_value(2, cora.id)], component_type=3)
        assert reply(res) == t(lang, "click.forged")
        assert table.seat_of(cora.id) == 1 and len(table.seats) == 3
        # a computer player too, from the menu as it is now
        menu = await world.fake.wait_for(
            lambda: _menu(shown) if len(_menu(shown)["options"]) == 2 else None)
        await world.click("anna", shown, custom_id, values=[seat_value(2, None)])
        assert [s.user_id for s in table.seats] == [world.people["anna"].id, cora.id]
        # a forged value is refused as a forged click
        res = await world.fake.forge_click(world.people["anna"], shown, custom_id, values=["0:x"],
                                           component_type=3)
        assert reply(res) == t(lang, "click.forged")
        # bram may come back; the line goes
        await world.click_table("bram", "join")
        await world.fake.wait_for(lambda: table.seat_of(bram.id) is not None)
        await world.fake.wait_for(lambda: t(lang, "lobby.removed", names="")[:12]
                                  not in world.table_message().text)


@LANGS
async def test_invitations_go_when_the_game_starts(tmp_path: Path, locale: str,
                                                   lang: str) -> None:
    async with open_world(tmp_path, ("anna", "bram", "cora"), locale=locale,
                          guild_locale=locale) as world:
        await open_private_table(world, guests=("bram",))
        await world.slash("anna", "toep invite", {"member": world.people["cora"]})
        invitations = await world.fake.wait_for(
            lambda: x if len(x := _invitations(world)) == 2 else None)
        assert all(t(lang, "btn.join") in m.content for m in invitations)
        await start(world)
        await world.fake.wait_for(lambda: all(m.deleted for m in invitations))
        assert _invitations(world) == []
        assert world.bot is not None
        async with world.bot.db.read() as conn:  # nothing kept of them
            rows = await conn.execute_fetchall("SELECT COUNT(*) FROM invitation_messages")
        assert [tuple(row) for row in rows] == [(0,)]


async def test_invitations_go_when_the_lobby_is_cancelled_and_after_a_restart(
        tmp_path: Path) -> None:
    async with open_world(tmp_path, ("anna", "bram", "cora")) as world:
        await open_private_table(world)
        await world.slash("anna", "toep invite", {"member": world.people["bram"]})
        first = await world.fake.wait_for(lambda: next(iter(_invitations(world)), None))
        await world.click_table("anna", "cancel")
        await world.fake.wait_for(lambda: first.deleted)

        # a lobby that started while the bot was down: its invitation goes at start-up
        await open_private_table(world, guests=("bram",))
        await world.slash("anna", "toep invite", {"member": world.people["cora"]})
        second = await world.fake.wait_for(lambda: next(iter(_invitations(world)), None))
        table = world.table()
        assert world.bot is not None
        watchers = world.bot.manager.lobby_watchers
        kept = list(watchers)
        watchers.clear()  # the bot stops before it can remove the invitation
        await start(world)
        watchers.extend(kept)
        assert table.status is Status.PLAYING and not second.deleted
        await world.stop()
        await world.start()
        await world.fake.wait_for(lambda: second.deleted)


async def _walked_out_and_finished(world: World) -> Message:
    """anna, bram and cora play; cora walks out; the game is played to its end."""
    await open_private_table(world, guests=("bram", "cora"), limit=5)
    table = await start(world)
    await world.walk_out("cora")
    await world.fake.wait_for(lambda: table.game is not None and table.game.forfeited[
        world.seat("cora")])
    await world.play_to_the_end()
    label = t("en", "btn.again")
    return await world.fake.wait_for(lambda: next(
        (m for m in world.fake.channel_messages(world.channel)
         if any(b.get("label") == label for b in m.buttons())), None), 10.0)


async def test_play_again_asks_only_those_who_finished(tmp_path: Path) -> None:
    async with open_world(tmp_path, ("anna", "bram", "cora")) as world:
        finished = await _walked_out_and_finished(world)
        said = len(_invitations(world))
        again = str(finished.button(label=t("en", "btn.again"))["custom_id"])
        res = await world.click("anna", finished, again)
        table = world.table()
        assert table.status is Status.LOBBY
        bram = world.people["bram"]
        assert table.invited == {bram.id}  # cora walked out: not asked again
        told = await world.fake.wait_for(lambda: _invitations(world)[said:] or None)
        assert len(told) == 1 and told[0].notified == {str(bram.id)}
        lobby = world.table_message()
        assert reply(res).endswith(f"/{world.guild.id}/{world.channel.id}/{lobby.id}")


async def test_one_who_walked_out_may_still_ask_the_others(tmp_path: Path) -> None:
    async with open_world(tmp_path, ("anna", "bram", "cora")) as world:
        finished = await _walked_out_and_finished(world)
        said = len(_invitations(world))
        again = str(finished.button(label=t("en", "btn.again"))["custom_id"])
        await world.click("cora", finished, again)
        table = world.table()
        assert table.row.host_id == world.people["cora"].id
        assert table.invited == {world.people["anna"].id, world.people["bram"].id}
        told = await world.fake.wait_for(lambda: _invitations(world)[said:] or None)
        assert told[0].notified == {str(world.people["anna"].id), str(world.people["bram"].id)}


@LANGS
async def test_toep_new_links_the_lobby_message(tmp_path: Path, locale: str, lang: str) -> None:
    async with open_world(tmp_path, ("anna", "bram"), locale=locale,
                          guild_locale=locale) as world:
        res = await world.slash("anna", "toep new", locale=locale)
        lobby = await world.wait_table_message("anna")
        link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{lobby.id}"
        assert reply(res) == t(lang, "reply.created", link=link)
