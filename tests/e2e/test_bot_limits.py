"""Fair limits per member end to end (issue 25), in English and in Dutch: a
member who hosts or sits in as many lobbies as the server allows is told
which limit and where those lobbies are; freeing one makes room; an admin
changes a limit in /toep-admin settings and it counts from the next lobby."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cogs.i18n import t
from cogs.replies import refusal_text
from data import guilds
from tables.errors import Refusal
from tables.snapshot import Status
from tables.table import Table
from tests.e2e.fake_discord.models import Message
from tests.e2e.toep_world import World, open_world, original, reply

LANGS = pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("nl", "nl")])


async def _new(world: World, who: str, channel: Any, locale: str = "en-US") -> str:
    res = await world.fake.slash(world.people[who], channel, "toep new", {}, locale=locale)
    await world.settle()
    return reply(res)


def _table(world: World, channel: Any) -> Table:
    assert world.bot is not None
    table = world.bot.manager.in_channel(channel.id)
    assert table is not None
    return table


async def _click(world: World, who: str, channel: Any, verb: str,
                 locale: str = "en-US") -> str | None:
    """Click `verb` on the lobby in `channel` once it is enabled; the answer, if any."""
    def enabled(m: Message) -> dict[str, Any] | None:
        return next((b for b in m.buttons() if str(b.get("custom_id", "")).endswith(
            f":{verb}") and not b.get("disabled")), None)

    message = await world.fake.wait_for(lambda: next(
        (m for m in world.fake.channel_messages(channel) if enabled(m)), None))
    button = enabled(message)
    assert button is not None
    res = await world.fake.click(world.people[who], message, str(button["custom_id"]),
                                 locale=locale)
    await world.settle()
    return "\n".join(m.text for m in res.followups) or None


@LANGS
async def test_limits_hit_and_freed(tmp_path: Path, locale: str, lang: str) -> None:
    async with open_world(tmp_path, ("anna", "bram", "cora", "dirk"), locale=locale,
                          guild_locale=locale) as world:
        assert world.bot is not None
        rooms = [world.channel] + [world.fake.add_channel(world.guild, f"toepen-{i}")
                                   for i in range(1, 4)]
        await _new(world, "anna", rooms[0], locale)
        await _new(world, "anna", rooms[1], locale)
        # a third lobby of anna's: refused, naming both, and nothing is posted there
        said = await _new(world, "anna", rooms[2], locale)
        assert said == refusal_text(Refusal(
            "limit_hosted", count=2, channels=f"<#{rooms[0].id}>, <#{rooms[1].id}>"), lang)
        assert world.bot.manager.in_channel(rooms[2].id) is None
        assert not world.fake.channel_messages(rooms[2])
        # she cancels one: room again
        await _click(world, "anna", rooms[1], "cancel", locale)
        await _new(world, "anna", rooms[2], locale)

        # bram sits at three lobbies (his own among them); a fourth is refused
        await _new(world, "bram", rooms[1], locale)
        await _click(world, "bram", rooms[0], "join", locale)
        await _click(world, "bram", rooms[2], "join", locale)
        await _new(world, "cora", rooms[3], locale)
        answer = await _click(world, "bram", rooms[3], "join", locale)
        # in the order the lobbies were opened: anna's two, then his own
        seated = ", ".join(f"<#{r.id}>" for r in (rooms[0], rooms[2], rooms[1]))
        assert answer == refusal_text(Refusal("limit_seated", count=3, channels=seated), lang)
        bram = world.people["bram"].id
        assert _table(world, rooms[3]).seat_of(bram) is None
        # a game that starts frees his seat among the lobbies
        await _click(world, "anna", rooms[0], "start", locale)
        assert _table(world, rooms[0]).status is Status.PLAYING
        assert await _click(world, "bram", rooms[3], "join", locale) is None
        assert _table(world, rooms[3]).seat_of(bram) is not None


@LANGS
async def test_an_admin_changes_a_limit(tmp_path: Path, locale: str, lang: str) -> None:
    async with open_world(tmp_path, ("anna", "bram", "cora"), locale=locale,
                          guild_locale=locale) as world:
        assert world.bot is not None
        guild = world.guild.id
        rooms = [world.channel] + [world.fake.add_channel(world.guild, f"toepen-{i}")
                                   for i in range(1, 3)]
        res = await world.slash("anna", "toep-admin settings", locale=locale)
        panel = original(res)
        assert t(lang, "settings.limit.max_tables",
                 value=t(lang, "settings.limit_standard", value=25)) in panel.text
        anna = world.people["anna"]
        await world.fake.click(anna, panel, f"toepset:{guild}:pick", values=["max_tables"],
                               locale=locale)
        await world.fake.wait_for(lambda: f"toepset:{guild}:value:max_tables" in str(
            panel.components))
        await world.fake.click(anna, panel, f"toepset:{guild}:value:max_tables", values=["2"],
                               locale=locale)
        await world.fake.wait_for(lambda: t(lang, "settings.limit_saved") in panel.text)
        assert t(lang, "settings.limit.max_tables", value=2) in panel.text
        assert (await guilds.get_limits(world.bot.db, guild)).tables == 2
        # a value the menu does not offer is refused and changes nothing
        await world.fake.forge_click(anna, panel, f"toepset:{guild}:value:max_tables",
                                     values=["0"], component_type=3, locale=locale)
        assert (await guilds.get_limits(world.bot.db, guild)).tables == 2
        # members see it at once
        await _new(world, "anna", rooms[0], locale)
        await _new(world, "bram", rooms[1], locale)
        said = await _new(world, "cora", rooms[2], locale)
        assert said == refusal_text(Refusal("limit_tables", count=2), lang)
        # without Manage Server: refused, nothing changed
        refused = await world.fake.click(anna, panel, f"toepset:{guild}:value:max_tables",
                                         values=["5"], permissions=0, locale=locale)
        assert t(lang, "settings.not_allowed") in original(refused).text
        assert (await guilds.get_limits(world.bot.db, guild)).tables == 2
        # raised again: cora's lobby opens
        await world.fake.click(anna, panel, f"toepset:{guild}:value:max_tables", values=["5"],
                               locale=locale)
        await world.fake.wait_for(lambda: t(lang, "settings.limit.max_tables", value=5)
                                  in panel.text)
        await _new(world, "cora", rooms[2], locale)
        assert _table(world, rooms[2]).row.host_id == world.people["cora"].id
