"""One click's verb to its table method, shared by the Discord buttons and
the web table: each verb reaches the table as the table's own method would."""

from __future__ import annotations

import pytest

from tables.errors import Refusal
from tables.manager import TableManager
from tables.snapshot import Status
from tables.verbs import perform
from tests.tables.conftest import new_table


async def test_the_lobby_verbs_seat_add_remove_and_start(manager: TableManager) -> None:
    table = await new_table(manager, humans=1, bots=[], start=False)
    await perform(table, 2, "Bram", "join")
    assert table.seat_of(2) == 1 and table.seats[1].name == "Bram"
    await perform(table, 1, "Host", "addbot", "easy")
    assert table.seats[2].is_bot
    await perform(table, 1, "Host", "removebot", "2")
    await perform(table, 2, "Bram", "leave")
    assert len(table.seats) == 1
    await perform(table, 2, "Bram", "join")
    await perform(table, 1, "Host", "start")
    await table.settled()
    assert table.status is Status.PLAYING


async def test_a_game_verb_goes_to_act_with_its_stamp(manager: TableManager) -> None:
    table = await new_table(manager, humans=2, bots=[])
    game = table.game
    assert game is not None and game.waiting().window
    with pytest.raises(Refusal):  # a moment the table has moved past
        await perform(table, 2, "P2", "pass", stamp="stale")
    assert not table.passed
    await perform(table, 1, "Host", "pass", stamp=table.stamp)
    assert table.seat_of(1) in table.passed


async def test_cancel_ends_the_lobby(manager: TableManager) -> None:
    table = await new_table(manager, humans=2, bots=[], start=False)
    await perform(table, 1, "Host", "cancel")
    assert not table.open
