"""A player's name is their own text: whatever it holds (a mention, a
timestamp tag, a link, markdown) every message shows its characters, and no
message the bot sends notifies anyone it did not mean to."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.i18n import t
from engine.game import Phase
from tests.e2e.fake_discord.models import Message
from tests.e2e.toep_world import World, careful, open_world, original, ping_always, reply

STRANGER = "123456789012345678"
EVIL = f"<@{STRANGER}> @everyone <t:0:R> https://evil.example **big** [x](https://evil.example)"
# What a reader must never see: each piece rendered as what it looks like.
RAW = (f"<@{STRANGER}>", "<t:0:R>", "https://evil.example", "**big**", "[x](")
SHOWN = (f"\\<\\@{STRANGER}\\>", "\\<t\\:0\\:R\\>", "https\\:\\/\\/evil.example", "\\*\\*big\\*\\*")


def _plain(text: str) -> None:
    for raw in RAW:
        assert raw not in text, f"{raw!r} would render as markup in {text!r}"


def _no_stray_pings(world: World, meant: set[str]) -> None:
    messages: list[Message] = list(world.fake.store.messages.values())
    for message in messages:
        assert "everyone" not in message.notified, message.content
        assert message.notified <= meant, (message.content, message.notified)


@pytest.mark.parametrize("lang", ["en", "nl"])
async def test_a_name_full_of_markup_shows_as_its_characters(tmp_path: Path, lang: str) -> None:
    locale = "nl" if lang == "nl" else "en-US"
    async with open_world(tmp_path, ("anna", EVIL), locale=locale, guild_locale=locale) as world:
        evil = world.people[EVIL]
        await world.slash("anna", "toep new")
        await world.wait_table_message("anna")
        await world.click_table(EVIL, "join")
        lobby = await world.wait_table_message(SHOWN[0])
        for shown in SHOWN:
            assert shown in lobby.text
        _plain(lobby.text)

        await ping_always(world)
        await world.click_table("anna", "start")
        table = world.table()
        await world.wait_table_message(t(lang, "table.title", number=1))
        await world.drive(careful, lambda tb: tb.game is not None and tb.game.phase is Phase.PLAY)
        on_turn = table.seats[table.game.waiting().seats[0]].user_id if table.game else None
        assert on_turn is not None
        _plain(world.table_message().text)
        # the turn ping notifies the person on turn, nobody else
        ping = await world.fake.wait_for(lambda: next(
            (m for m in world.fake.channel_messages(world.channel) if m.content), None))
        assert ping.notified == {str(on_turn)}

        res = await world.slash(EVIL, "toep stats", locale=locale)
        text = reply(res)
        assert SHOWN[0] in text
        _plain(text)
        res = await world.slash("anna", "toep stats", {"member": evil}, locale=locale)
        _plain(original(res).text)
        _no_stray_pings(world, {str(world.people["anna"].id), str(evil.id)})
