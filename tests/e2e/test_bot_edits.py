"""Edits that always land (issue 11): a table edit that fails for a passing
reason is tried again until the newest state shows, and a rate limit on the
table message never holds up the hand panels."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from bot import MAX_RATELIMIT_WAIT
from engine.game import Phase
from tables.snapshot import Status
from tests.e2e.fake_discord.models import Message
from tests.e2e.toep_world import (
    World,
    careful,
    open_private_table,
    open_world,
    panel_button,
    start,
)


def _table_edits(world: World, message: Message, since: float) -> int:
    return sum(1 for e in world.fake.edit_log if e.message_id == message.id and e.at >= since)


def _offers(panel: Message, choice: tuple[str, str | None]) -> Callable[[], str | None]:
    return lambda: panel_button(panel, *choice)


async def test_long_rate_limits_raise_instead_of_sleeping(tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        assert world.bot is not None
        assert world.bot.http.max_ratelimit_timeout == MAX_RATELIMIT_WAIT


async def test_the_final_state_shows_through_rate_limits_too_long_to_wait_for(
        tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        table = await open_private_table(world, guests=("bram",))
        await start(world)
        message = await world.wait_table_message("anna")
        assert world.bot is not None
        await world.bot.presenter.settled()
        # Every 429 on the table message is longer than the client waits
        # (shortened here from discord.py's 30 s minimum): each edit raises.
        world.bot.http.max_ratelimit_timeout = 0.2
        world.fake.inject_rate_limit(
            "PATCH", f"/channels/{world.channel.id}/messages/{message.id}",
            times=3, retry_after=0.5)
        await world.walk_out("bram")  # the game ends
        assert table.status is Status.FINISHED
        await world.wait_table_message("anna wins the game!")
        assert len([h for h in world.fake.rate_limit_hits]) >= 3


async def test_panels_refresh_while_the_table_message_waits_out_a_rate_limit(
        tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        table = await open_private_table(world, guests=("bram",))
        await start(world)
        await world.drive(careful, lambda t: t.game is not None and t.game.phase is Phase.PLAY)
        game = table.game
        assert game is not None and world.bot is not None
        first = world.name_of(table.seats[game.turn].user_id)
        second = "bram" if first == "anna" else "anna"
        assert first is not None
        panels = {who: await world.panel(who) for who in (first, second)}
        message = world.table_message()
        await world.bot.presenter.settled()

        # The next edit of the table message meets a 429 that discord.py waits out.
        since = time.monotonic()
        world.fake.inject_rate_limit(
            "PATCH", f"/channels/{world.channel.id}/messages/{message.id}", retry_after=4.0)
        first_panel = panels[first]
        assert first_panel is not None
        seen = 0
        for who in (first, second):
            panel = panels[who]
            assert panel is not None
            choice = careful(game, world.seat(who))
            assert choice is not None
            await world.fake.wait_for(_offers(panel, choice))
            seen = len(first_panel.edits)
            await world.answer(who, *choice, panel=panel)
        # The first player's panel shows the second's card while the table
        # message still waits for its rate limit to pass.
        await world.fake.wait_for(lambda: len(first_panel.edits) > seen, 10.0)
        assert _table_edits(world, message, since) == 0
        await world.fake.wait_for(lambda: _table_edits(world, message, since) > 0, 10.0)


async def test_the_final_state_shows_after_a_storm_of_server_errors_on_edits(
        tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        table = await open_private_table(world, guests=("bram",))
        await start(world)
        await world.wait_table_message("anna")
        assert world.bot is not None
        await world.bot.presenter.settled()
        # Every edit, of the table message and of the hand panels, answers 503
        # for a while: discord.py raises, the presenter tries again later.
        world.fake.fail_edits(503, seconds=3.0)
        await world.walk_out("bram")  # the game ends
        assert table.status is Status.FINISHED
        await world.wait_table_message("anna wins the game!", timeout=20.0)
        assert any(hit.status == 503 for hit in world.fake.fault_hits)
