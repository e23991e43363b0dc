"""Outages are the bot's, not the player's: while people cannot reach a table
(the gateway is down, the guild unavailable) no clock runs there and the
computer players wait; afterwards the decision on hand gets its full clock."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import pytest

from data import bans
from data.db import Database
from engine import events as ev
from engine.game import Phase
from engine.rules import TableRules
from tables.clock import FakeClock
from tables.manager import TableManager
from tables.outage import Reach
from tables.snapshot import Status
from tables.table import Table, TableConfig, TableDeps
from tests.tables.conftest import InlineExecutor, Recorder, new_table

GUILD = 10  # new_table's guild


@pytest.fixture
def reach() -> Reach:
    reach = Reach()
    reach.connected()
    reach.guild_available(GUILD)
    return reach


@pytest.fixture
def deps(db: Database, clock: FakeClock, recorder: Recorder, reach: Reach) -> TableDeps:
    return TableDeps(db, clock, recorder, InlineExecutor(), TableConfig(bot_pause=0), reach)


async def _to_a_persons_turn(table: Table, clock: FakeClock) -> int:
    """Windows close on their own until a person is to play; their seat."""
    assert table.game is not None
    for _ in range(50):
        await table.settled()
        waiting = table.game.waiting()
        people = [s for s in waiting.seats if not table.seats[s].is_bot]
        if not waiting.window and people:
            return people[0]
        await clock.advance(10)
    raise AssertionError("no person's turn came")


async def _forfeits(table: Table, seat: int, clock: FakeClock) -> int:
    user = table.seats[seat].user_id
    assert user is not None
    return len(await bans.forfeits_in_window(table.deps.db, GUILD, user, clock.now()))


async def test_a_turn_clock_stops_while_disconnected_and_comes_back_in_full(
        manager: TableManager, clock: FakeClock, reach: Reach, recorder: Recorder) -> None:
    table = await new_table(manager, humans=2, bots=["normal"])
    game = table.game
    assert game is not None
    seat = await _to_a_persons_turn(table, clock)
    await clock.advance(15)  # 5 of the 20 seconds left

    reach.disconnected()
    await table.settled()
    assert table.deadline is None
    await clock.advance(600)  # a long outage: nobody forfeits, the table does not idle out
    assert not game.forfeited[seat] and table.status is Status.PLAYING
    clock_shown = recorder.last.clock  # and it shows that the clock waits
    assert clock_shown is not None and clock_shown.paused and clock_shown.deadline is None

    reach.resumed()
    await table.settled()
    assert table.deadline == clock.now() + timedelta(seconds=20)  # in full, not 5 s
    clock_shown = recorder.last.clock
    assert clock_shown is not None and not clock_shown.paused
    assert clock_shown.deadline == table.deadline
    await clock.advance(19)
    assert not game.forfeited[seat]
    await clock.advance(1)  # a whole clock ran while connected: that forfeit counts (R19)
    assert game.forfeited[seat] and await _forfeits(table, seat, clock) == 1


async def test_a_clock_that_fires_as_the_connection_drops_forfeits_nobody(
        manager: TableManager, clock: FakeClock, reach: Reach) -> None:
    table = await new_table(manager, humans=2, bots=[])
    game = table.game
    assert game is not None
    seat = await _to_a_persons_turn(table, clock)
    generation = table.clocks.generation
    async with table.lock:  # the timer fired and waits for the lock ...
        fired = asyncio.create_task(table.time._decision_timed_out(table.moment, generation))
        await asyncio.sleep(0)
        reach.disconnected()  # ... when the disconnect is heard
    await fired
    await table.settled()
    assert not game.forfeited[seat] and await _forfeits(table, seat, clock) == 0

    reach.resumed()  # and one that fires as the bot reconnects is an old clock's: stale
    await table.settled()
    await table.time._decision_timed_out(table.moment, generation)
    assert not game.forfeited[seat] and table.deadline == clock.now() + timedelta(seconds=20)


async def test_a_window_waits_out_an_outage_too(
        manager: TableManager, clock: FakeClock, reach: Reach) -> None:
    table = await new_table(manager, humans=2, bots=[], rules=TableRules(window=10))
    game = table.game
    assert game is not None and game.phase is Phase.WINDOW  # the vuile was window (R17)
    await clock.advance(8)
    reach.guild_unavailable(GUILD)
    await table.settled()
    await clock.advance(60)
    assert game.phase is Phase.WINDOW
    reach.guild_available(GUILD)
    await table.settled()
    assert table.deadline == clock.now() + timedelta(seconds=10)
    await clock.advance(10)
    assert game.events[-1] == ev.act(ev.CLOSE_WINDOW) and not any(game.forfeited)


async def test_computer_players_wait_out_an_outage(
        manager: TableManager, clock: FakeClock, reach: Reach) -> None:
    table = await new_table(manager, humans=1, bots=["normal", "normal"])
    game = table.game
    assert game is not None
    seat = await _to_a_persons_turn(table, clock)
    user = table.seats[seat].user_id
    assert user is not None
    reach.disconnected()
    await table.settled()
    play = next(e for e in game.legal_events(seat) if e.do == ev.PLAY)
    # A click that was on its way is taken; the computers do not answer it yet.
    await table.act(user, ev.PLAY, play.card, table.stamp)
    await table.settled()
    waiting = game.waiting().seats
    assert waiting and all(table.seats[s].is_bot for s in waiting)
    events = len(game.events)
    await clock.advance(30)
    assert len(game.events) == events
    reach.resumed()
    await table.settled()
    assert len(game.events) > events  # they play on once people can see it


async def test_only_the_guild_that_is_out_stands_still(
        manager: TableManager, clock: FakeClock, reach: Reach) -> None:
    table = await new_table(manager, humans=2, bots=[])
    other = await manager.create(guild_id=99, channel_id=98, host_id=1, host_name="Host",
                                 public=True, rules=TableRules())
    reach.guild_available(99)
    await other.join(2, "P2")
    await other.start(1)
    assert other.game is not None
    reach.guild_unavailable(GUILD)
    await clock.advance(10 + 20)  # the window, then the first turn, both run out
    assert any(other.game.forfeited)
    assert table.game is not None and not any(table.game.forfeited)


async def test_restored_tables_wait_for_the_connection(
        db: Database, clock: FakeClock, manager: TableManager) -> None:
    table = await new_table(manager, humans=2, bots=["normal"], start=False)
    lobby = await manager.create(guild_id=GUILD, channel_id=21, host_id=5, host_name="H",
                                 public=True, rules=TableRules())
    await table.start(1)
    await table.settled()
    await manager.close()

    reach = Reach()  # a bot starting: not connected yet
    restarted = TableManager(TableDeps(db, clock, Recorder(db), InlineExecutor(),
                                       TableConfig(bot_pause=0), reach), random.Random(1))
    clock.settle_hooks[:] = [restarted.settled]
    await restarted.restore()
    again, waiting_lobby = restarted.get(table.id), restarted.get(lobby.id)
    assert again is not None and again.game is not None and waiting_lobby is not None
    await clock.advance(60 * 60)  # a restart that takes an hour to reconnect
    assert again.status is Status.PLAYING and not any(again.game.forfeited)
    assert waiting_lobby.status is Status.LOBBY  # its 15 minutes are long past
    reach.connected()
    await clock.advance(5)
    assert again.deadline is None  # connected, but the guild has not arrived yet
    reach.guild_available(GUILD)
    await restarted.settled()
    assert again.deadline == clock.now() + timedelta(seconds=10)  # the window, in full
    await clock.advance(119)
    assert waiting_lobby.status is Status.LOBBY  # a lobby gets two minutes after an outage
    await clock.advance(1)
    assert waiting_lobby.status is Status.CANCELLED
    await restarted.close()


async def test_a_blip_edits_nothing_until_the_clock_comes_back(
        manager: TableManager, clock: FakeClock, reach: Reach, recorder: Recorder) -> None:
    table = await new_table(manager, humans=2, bots=[])
    await _to_a_persons_turn(table, clock)
    shown = len(recorder.snaps)
    reach.disconnected()  # Discord asks for a reconnect: back within a second
    await table.settled()
    await clock.advance(1)
    assert len(recorder.snaps) == shown
    reach.resumed()
    await table.settled()
    await clock.advance(5)
    assert len(recorder.snaps) == shown + 1  # the full clock, once
    assert not any(s.clock is not None and s.clock.paused for s in recorder.snaps)


def test_reach_is_kept_per_shard() -> None:
    reach = Reach()
    first, second = 1 << 22, 2 << 22  # guild ids on shards 1 and 0 of two
    reach.connected(0, 2)
    reach.connected(1, 2)
    reach.guild_available(first)
    reach.guild_available(second)
    assert reach.reachable(first) and reach.reachable(second)
    reach.disconnected(1)
    assert not reach.reachable(first) and reach.reachable(second)
    reach.resumed(1)
    assert reach.reachable(first)
    reach.connected(1, 2)  # a new session: its guilds come again
    assert not reach.reachable(first) and reach.reachable(second)
