"""Past capacity a decision's question reaches the players late: each new
decision's clock runs that much longer (Shedding.clock_grace), windows and
turns alike; at normal load the rules' clocks are exact. And a click that
reached the bot in time is played before its clock can run out on it."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from data.db import Database
from engine.rules import TableRules
from tables.clock import FakeClock
from tables.manager import TableManager
from tables.table import Table, TableConfig, TableDeps
from tests.tables.conftest import InlineExecutor, Recorder, new_table

GRACE = 5.0


@pytest.fixture
def grace() -> list[float]:
    return [0.0]


@pytest.fixture
def deps(db: Database, clock: FakeClock, recorder: Recorder, grace: list[float]) -> TableDeps:
    """The conftest's `manager` makes its tables with these."""
    return TableDeps(db, clock, recorder, InlineExecutor(), TableConfig(bot_pause=0),
                     clock_grace=lambda: grace[0])


async def _to_a_persons_turn(table: Table, clock: FakeClock) -> datetime:
    """Windows close on their clock, a second at a time, until a person is to
    play; when that turn began."""
    assert table.game is not None
    moment, began = table.moment, clock.now()
    for _ in range(500):
        await table.settled()
        if table.moment != moment:
            moment, began = table.moment, clock.now()
        waiting = table.game.waiting()
        if not waiting.window and any(not table.seats[s].is_bot for s in waiting.seats):
            return began
        await clock.advance(1)
    raise AssertionError("no person's turn came")


@pytest.mark.parametrize("extra", [0.0, GRACE])
async def test_each_new_clock_gets_the_grace_of_the_load_it_starts_in(
        manager: TableManager, clock: FakeClock, grace: list[float], extra: float) -> None:
    grace[0] = extra
    table = await new_table(manager, public=False, rules=TableRules(clock=30, window=10))
    # The vuile was window after the deal.
    assert table.deadline == clock.now() + timedelta(seconds=10 + extra)
    began = await _to_a_persons_turn(table, clock)
    assert table.deadline == began + timedelta(seconds=30 + extra)


async def test_a_clock_keeps_the_grace_it_started_with(
        manager: TableManager, clock: FakeClock, grace: list[float]) -> None:
    table = await new_table(manager, public=False, rules=TableRules(clock=30, window=10))
    deadline = table.deadline
    grace[0] = GRACE  # the load rose: the clock on hand is not moved
    await table.settled()
    assert table.deadline == deadline


async def test_a_turn_waits_for_a_click_that_is_still_on_its_way(
        manager: TableManager, clock: FakeClock) -> None:
    """A person's click, acknowledged but not yet played (past capacity it
    waits for a slot), is played before their turn's clock can forfeit them."""
    table = await new_table(manager, public=False, rules=TableRules(clock=30, window=10))
    await _to_a_persons_turn(table, clock)
    assert table.game is not None and table.deadline is not None
    seat = table.game.waiting().seats[0]
    user = table.seats[seat].user_id
    assert user is not None
    with table.click_waiting():
        await clock.advance((table.deadline - clock.now()).total_seconds() + 2)
        assert not table.game.forfeited[seat]  # the clock ran out, the click is on its way
        card = table.game.legal_events(seat)[0].card
        await table.act(user, "play", card, table.stamp)
    assert table.clicks_waiting == 0
    await table.settled()
    assert not table.game.forfeited[seat]
