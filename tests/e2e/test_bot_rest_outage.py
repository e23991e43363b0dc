"""A REST outage (issue 25, item 5): Discord answers 503 to the bot's edits
and new messages while the gateway stays up. A turn's clock starts only once
the table message that shows the turn has reached Discord, so nobody is
forfeited for a turn they could not be told of; once Discord answers again
the table is shown at the next probe, not after the back-off it had reached,
and its clock then runs in full."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from engine.game import Phase
from tables.snapshot import Status
from tests.e2e.toep_world import open_private_table, open_world, start

COUNTDOWN = re.compile(r"<t:(\d+):R>")
OUTAGE = 3.0  # real seconds: long enough for the back-off to grow past it


async def test_a_rest_outage_at_a_turn_forfeits_nobody(tmp_path: Path) -> None:
    # The presenter warns of each failed edit, as it should.
    async with open_world(tmp_path, expect_logged=("cogs.presenter",)) as world:
        table = await open_private_table(world, guests=("bram",), clock=10)
        await start(world)
        game, clock = table.game, world.fake_clock
        assert game is not None and game.phase is Phase.WINDOW
        await world.bot_settled()
        assert world.bot is not None
        presenter = world.bot.presenter
        lane = presenter.shown[table.id].message_lane

        # The lobby and the start spent the channel's edits for a few seconds;
        # with the bucket full again, what follows measures the probe, not
        # discord.py waiting for the bucket's reset.
        await asyncio.sleep(world.fake.settings.rate_limits.message_edit.window)
        # Discord fails every edit and post; the window runs out meanwhile, so
        # the turn begins with an edit that cannot land.
        world.fake.fail_edits(503, seconds=OUTAGE, posts=True)
        await clock.advance(table.rules.window)
        assert game.phase is Phase.PLAY
        late = world.name_of(table.seats[game.turn].user_id)
        await world.fake.wait_for(lambda: lane.failures >= 1, 10.0)
        assert table.time.unshown and table.clocks.held == 10  # the turn's clock waits

        await clock.advance(60)  # six turns' worth: nobody forfeits
        assert not any(game.forfeited) and table.status is Status.PLAYING
        assert late is not None and f"{late} is to play" not in world.table_message().text

        # Once Discord answers again, a probe (a real edit, at the table's
        # pace) shows the table: the back-off it had reached is not waited out.
        loop = asyncio.get_running_loop()
        backed_off_until = 0.0

        def shown() -> bool:
            nonlocal backed_off_until
            if lane.failures:
                backed_off_until = max(backed_off_until, lane.next_at)
            return f"{late} is to play" in world.table_message().text

        await world.fake.wait_for(shown, OUTAGE + 10)
        assert loop.time() < backed_off_until  # the back-off was reset, not waited out
        assert presenter.backoff.probes > 0
        await world.fake.wait_for(lambda: lane.failures == 0, 10.0)
        message = world.table_message()

        # The clock shown afterwards has the time left: the whole turn, from now.
        await world.fake.wait_for(lambda: table.clocks.held is None, 10.0)
        found = COUNTDOWN.search(message.text)
        assert found is not None
        assert int(found.group(1)) >= int(clock.now().timestamp()) + 9
        await clock.advance(9)
        assert not any(game.forfeited)
        await clock.advance(1.1)  # shown, the clock does run out
        assert game.forfeited[world.seat(late)]
