"""Discord lets a bot edit a message for an hour after an interaction's
token is made; a table plays longer than that. Before the hour runs out the
table message is posted anew, and the old one keeps its text with its
buttons greyed out."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.e2e.fake_discord.models import Message
from tests.e2e.toep_world import (
    World,
    careful,
    open_private_table,
    open_world,
    panel_button,
    start,
)

STEP = 9 * 60  # a person acts every nine minutes: the table never idles out


async def _act_once(world: World) -> None:
    """The person acts once, as soon as the computers have had their turns."""
    for _ in range(500):
        if await world.step(careful):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the person never had anything to do")


async def test_the_table_message_is_posted_anew_before_its_hour_runs_out(
        tmp_path: Path) -> None:
    async with open_world(tmp_path, names=("anna",)) as world:
        table = await open_private_table(world, bots=("easy", "easy"))
        await start(world)
        first = world.table_message()
        for _ in range(7):  # 63 minutes, with a change after each step
            await world.fake_clock.advance(STEP)
            await _act_once(world)
            assert table.open, table.status

        def reposted() -> Message | None:
            message = world.table_message()
            return message if message.id != first.id else None

        current = await world.fake.wait_for(reposted)
        old = world.fake.message(first.id)
        assert old.buttons() and all(b.get("disabled") for b in old.buttons())
        assert old.text  # the old message keeps its text
        assert not any(b.get("disabled") for b in current.buttons())
        hand = panel_button(current, "hand")
        assert hand is not None
        res = await world.click("anna", current, hand)  # the new message's buttons work
        assert res.message is not None and res.message.ephemeral and res.message.buttons()


async def test_a_restored_table_message_is_posted_anew_in_time(tmp_path: Path) -> None:
    """After a restart the bot knows the message's age from its id: it is
    posted anew before the hour runs out, also when nothing happens then."""
    async with open_world(tmp_path, names=("anna",)) as world:
        table = await open_private_table(world, bots=("easy", "easy"))
        await start(world)
        first = world.table_message()
        for _ in range(5):  # 45 minutes
            await world.fake_clock.advance(STEP)
            await _act_once(world)
        await world.stop()
        await world.start()
        assert world.table().id == table.id
        await world.fake_clock.advance(5 * 60)
        await _act_once(world)  # the 50th minute
        await world.fake_clock.advance(6 * 60)  # the message's 56th minute, nobody acts
        await world.bot_settled()
        assert table.id == world.table().id and world.table().open
        current = world.table_message()
        assert current.id != first.id
        old = world.fake.message(first.id)
        assert old.buttons() and all(b.get("disabled") for b in old.buttons())
        assert not any(b.get("disabled") for b in current.buttons())
