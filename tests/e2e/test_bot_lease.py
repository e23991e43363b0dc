"""One owner per database (data/lease.py), end to end: a second bot process on the
same database file is refused with one line and exit status 1; a bot whose lease
another process took over stops saving at once and stops."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from pathlib import Path

from bench.e2e_wire import BotConfig
from engine.game import Phase
from tests.e2e.toep_world import careful, open_private_table, open_world, start


def events_saved(path: Path, game_id: int) -> int:
    with sqlite3.connect(path) as look:
        row = look.execute("SELECT COUNT(*) FROM game_events WHERE game_id = ?", (game_id,))
        return int(row.fetchone()[0])


async def test_a_second_bot_on_the_same_database_is_refused(tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        await open_private_table(world, guests=("bram",))
        config = BotConfig(world.fake.port, world.fake.ca_pem, str(world.path), bot_pause=0.0)
        second = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.e2e.second_bot", config.to_json(),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        _, err = await asyncio.wait_for(second.communicate(), 60)
        text = err.decode()
        ours = [line for line in text.splitlines() if line.startswith("toep:")]
        assert second.returncode == 1, text
        assert len(ours) == 1 and "Traceback" not in text, text
        assert ours[0].startswith("toep: the database cannot be used: another Toep process (")
        assert str(world.path) in ours[0]
        # The first bot was not disturbed: it still holds the lease and plays.
        await start(world)
        await world.drive(careful, lambda tb: tb.game is not None and len(tb.game.events) > 8)


async def test_a_bot_whose_lease_was_taken_over_stops_saving_and_stops(tmp_path: Path) -> None:
    loud = ("data.lease", "data.group_commit", "tables.table")  # the loss, the refused save
    async with open_world(tmp_path, expect_logged=loud) as world:
        table = await open_private_table(world, guests=("bram",))
        await start(world)
        assert world.bot is not None and table.game is not None
        bot = world.bot
        saved = events_saved(world.path, table.id)
        with sqlite3.connect(world.path) as thief:  # another process took it over
            thief.execute("UPDATE leases SET owner = 'elsewhere:1:1'")
        assert table.game.phase is Phase.WINDOW
        for name in world.people:  # the window closes: an event to save, which is refused
            await world.answer(name, "pass")
        for _ in range(500):
            if bot.is_closed():
                break
            await asyncio.sleep(0.01)
        assert bot.lease_lost is not None and bot.is_closed()
        assert events_saved(world.path, table.id) == saved
        with sqlite3.connect(world.path) as look:
            assert look.execute("SELECT owner FROM leases").fetchall() == [("elsewhere:1:1",)]
