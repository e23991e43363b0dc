"""Who wants turn pings (issue 26): `/toep settings ping:` for a member,
the server's default in `/toep-admin settings`, and what each choice makes a
player hear in a game, through the fake Discord."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from cogs.i18n import lang_for_locale, t
from data import ping_settings
from data.ping_settings import PingChoice
from engine import events as ev
from engine.game import Phase
from tests.e2e.fake_discord.models import Message
from tests.e2e.toep_world import (
    World,
    open_private_table,
    open_world,
    original,
    reply,
    start,
    to_a_turn,
)


def _pings(world: World, who: str) -> list[Message]:
    """Turn pings that notified `who` (deleted ones too: the push came)."""
    user = str(world.people[who].id)
    return [m for m in world.fake.store.messages.values()
            if not m.ephemeral and "/channels/" in m.content and user in m.notified]


def _more(world: World, who: str, than: int) -> Callable[[], bool]:
    return lambda: len(_pings(world, who)) > than


@pytest.mark.parametrize("locale", ["en-US", "nl"])
async def test_a_member_chooses_and_the_server_sets_the_default(tmp_path: Path,
                                                                locale: str) -> None:
    lang = lang_for_locale(locale)
    async with open_world(tmp_path, locale=locale, guild_locale=locale) as world:
        assert world.bot is not None
        db, guild = world.bot.db, world.guild.id
        always, idle, never = (t(lang, f"choice.{c.value}") for c in PingChoice)
        text = reply(await world.slash("bram", "toep settings"))
        assert idle in text and t(lang, "settings.ping.server") in text
        assert "/toep " in text and t(lang, "cmd.toep.settings.opt.ping.name") + ":" in text

        text = reply(await world.slash("bram", "toep settings", {"ping": "never"}))
        assert text.startswith(t(lang, "settings.ping.saved"))
        assert never in text and t(lang, "settings.ping.yours") in text
        assert await ping_settings.member_choices(db, guild, [world.people["bram"].id]) == {
            world.people["bram"].id: PingChoice.NEVER}

        # The server's default, a select of its own in /toep-admin settings.
        panel = original(await world.slash("anna", "toep-admin settings"))
        assert t(lang, "settings.ping.default_line", choice=idle) in panel.text
        anna = world.people["anna"]
        custom_id = f"toepset:{guild}:ping"
        await world.fake.click(anna, panel, custom_id, values=["always"])
        await world.fake.wait_for(lambda: t(lang, "settings.ping.default_saved") in panel.text)
        assert t(lang, "settings.ping.default_line", choice=always) in panel.text
        assert await ping_settings.guild_default(db, guild) is PingChoice.ALWAYS
        # A value no select offers, or a click without the permission: nothing changes.
        forged = await world.fake.forge_click(anna, panel, custom_id, values=["sometimes"],
                                              component_type=3)
        assert original(forged).text == t(lang, "click.forged")
        refused = await world.fake.click(anna, panel, custom_id, values=["never"],
                                         permissions=0)
        assert t(lang, "settings.not_allowed") in original(refused).text
        assert await ping_settings.guild_default(db, guild) is PingChoice.ALWAYS

        # bram keeps his own choice; dropping it, he follows the server's.
        assert never in reply(await world.slash("bram", "toep settings"))
        text = reply(await world.slash("bram", "toep settings", {"ping": "server"}))
        assert always in text and t(lang, "settings.ping.server") in text


async def test_always_pings_at_once_and_never_only_gives_the_last_call(tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        await world.slash("anna", "toep settings", {"ping": "always"})
        await world.slash("bram", "toep settings", {"ping": "never"})
        table = await open_private_table(world, guests=("bram",), clock=20)
        await start(world)
        game = table.game
        assert game is not None
        clock = world.fake_clock
        seen: set[str] = set()
        for _ in range(2):  # the leader's turn, then the other's
            if game.phase is Phase.WINDOW:
                await to_a_turn(world, table)
            who = world.name_of(table.seats[game.turn].user_id)
            assert who is not None and who not in seen
            seen.add(who)
            await world.bot_settled()
            if who == "anna":
                assert len(_pings(world, "anna")) == 1  # at once
            else:
                before = len(_pings(world, "bram"))
                await clock.advance(10)
                await world.bot_settled()
                assert len(_pings(world, "bram")) == before  # no idle ping
                await clock.advance(2)  # 8 seconds left: the last call
                await world.fake.wait_for(_more(world, "bram", before))
                assert "your time runs out" in _pings(world, "bram")[-1].content
            card = next(e.card for e in game.legal_events(game.turn)
                        if e.do == ev.PLAY and e.card)
            await world.answer(who, "play", card.text)
        assert seen == {"anna", "bram"}
        assert len(_pings(world, "anna")) == 1 and len(_pings(world, "bram")) == 1
