"""tables/manager.py: a table that closes leaves memory, whichever way it
closes: nothing keeps it (nor its game) alive once the manager forgot it."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Awaitable, Callable

import pytest

from engine.rules import TableRules
from tables.clock import FakeClock
from tables.manager import TableManager
from tables.table import Table
from tests.tables.conftest import new_table, play_people


async def _finish(table: Table) -> None:
    await play_people(table)


async def _end(table: Table) -> None:
    await table.end()


async def _cancel(table: Table) -> None:
    await table.leave(1)  # the host leaves the lobby: it is cancelled


@pytest.mark.parametrize(("start", "close"), [(True, _finish), (True, _end), (False, _cancel)])
async def test_a_closed_table_is_collected(
        manager: TableManager, clock: FakeClock, start: bool,
        close: Callable[[Table], Awaitable[None]]) -> None:
    table = await new_table(manager, humans=2, bots=["normal"], rules=TableRules(limit=5),
                            start=start)
    await close(table)
    await clock.advance(2 * 86_400)  # every timer it left fell due (and found nothing to do)
    assert not table.open and manager.get(table.id) is None
    gone = weakref.ref(table)
    game = weakref.ref(table.game) if table.game is not None else None
    del table
    gc.collect()
    assert gone() is None, gc.get_referrers(gone())
    assert game is None or game() is None


@pytest.mark.parametrize("how", ["start", "cancel", "timeout"])
async def test_watchers_hear_once_that_a_lobby_is_over(
        manager: TableManager, clock: FakeClock, how: str) -> None:
    heard: list[int] = []
    manager.lobby_watchers.append(lambda table: heard.append(table.id))
    table = await new_table(manager, humans=2, bots=[], start=False)
    assert heard == []  # the lobby's changes are not its end
    if how == "start":
        await table.start(1)
        await play_people(table)
    elif how == "cancel":
        await table.cancel(1)
    else:
        await clock.advance(3600)
    assert heard == [table.id]


async def test_closing_waits_for_the_step_a_table_has_in_hand(manager: TableManager) -> None:
    """A click (or a computer's move) holding a table's lock finishes, its save
    included, before the table closes at shutdown; what comes later finds it closed."""
    table = await new_table(manager, humans=2, bots=[], start=False)
    await table.lock.acquire()  # a step in its hands
    closing = asyncio.create_task(manager.close())
    for _ in range(20):
        await asyncio.sleep(0)
    assert not closing.done()
    table.lock.release()
    await asyncio.wait_for(closing, 10.0)
