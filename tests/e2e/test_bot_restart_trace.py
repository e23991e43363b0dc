"""A restart leaves no trace (docs/design.md): the bot is stopped in the middle
of a round in a Dutch server and started again on the same database, with
Discord sending the guild a moment after READY. The table message is the same
message, in Dutch, with the same lines of what happened; the turn ping posted
before the restart is gone, and one ping stands, as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.game import Phase
from tests.e2e.fake_discord.models import Message
from tests.e2e.toep_world import (
    World,
    careful,
    open_private_table,
    open_world,
    ping_always,
    start,
)


def _shown(message: Message) -> tuple[str, list[Any], list[Any]]:
    return message.content, message.embeds, message.components


def _channel(world: World) -> list[tuple[str, list[Any], list[Any]]]:
    return [_shown(m) for m in world.fake.channel_messages(world.channel)]


async def test_a_restart_mid_round_in_a_dutch_server_leaves_no_trace(tmp_path: Path) -> None:
    async with open_world(tmp_path, locale="nl", guild_locale="nl") as world:
        table = await open_private_table(world, guests=("bram",), bots=("easy",))
        await ping_always(world)
        await start(world)
        # Into the second trick, a person on turn: the first trick's cards are
        # among the lines of what happened.
        await world.drive(careful, lambda tb: tb.game is not None and len(tb.game.tricks) >= 1
                          and tb.game.phase is Phase.PLAY and not tb.seats[tb.game.turn].is_bot)
        await world.bot_settled()
        message = world.table_message()
        before = _shown(message)
        assert "Wat er gebeurde" in str(message.embeds)  # Dutch, with its recent lines
        channel_before = _channel(world)
        # the turn ping (it links the table message; bram's invitation stays as it is)
        pings = [m for m in world.fake.channel_messages(world.channel)
                 if m.id != message.id and f"/{message.id}" in m.content]
        assert len(pings) == 1

        await world.stop()
        world.fake.delay_guild_create(0.3)  # READY first, the guild a moment later
        await world.start()
        restored = world.table()
        assert restored.id == table.id
        await world.fake.wait_for(lambda: world.fake.message(pings[0].id).deleted, timeout=10)
        await world.bot_settled()

        after = world.table_message()
        assert after.id == message.id  # edited, not posted anew
        assert _shown(after) == before  # the same words, the same lines, the same buttons
        assert _channel(world) == channel_before  # one table message and one ping, as before
