"""No log line at INFO or above names a card (DESIGN.md: no hidden card is
ever logged at INFO or above): not a computer's refused event, not a
refusal's text in a traceback, not a record error when a table is restored."""

from __future__ import annotations

import json
import logging
import random
import re
from pathlib import Path

import pytest

from data.db import connect
from engine import events as ev
from engine.bots import Bot
from engine.cards import DECK
from engine.events import Event
from engine.views import SeatView
from tables.clock import FakeClock
from tables.log_safe import failure
from tables.manager import TableManager
from tables.table import TableConfig, TableDeps
from tests.tables.conftest import InlineExecutor, Recorder, new_table, play_people

CARD = re.compile(r"(?<![0-9A-Za-z])(?:" + "|".join(c.text for c in DECK) + r")(?![0-9A-Za-z])")


def _cards_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Every INFO+ line (with its traceback) that names a card."""
    handler = logging.Formatter()
    out = []
    for record in caplog.records:
        if record.levelno < logging.INFO:
            continue
        text = handler.format(record)
        if CARD.search(text):
            out.append(text)
    return out


class Cheat:
    """A computer player that plays a card it does not hold (a hidden one)."""

    level = "normal"

    def decide(self, view: SeatView) -> Event | None:
        if view.public.phase.value != "play" or not view.my_turn:
            return None if view.public.window else view.legal[0]
        seen = set(view.hand) | {c for _, c in view.public.table}
        return ev.play(view.seat, next(c for c in DECK if c not in seen))


async def test_a_computers_illegal_card_is_not_logged(
        manager: TableManager, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    def cheat(level: str, seed: int = 0) -> Bot:
        return Cheat()

    monkeypatch.setattr("tables.bot_driver.make_bot", cheat)
    caplog.set_level(logging.DEBUG)
    table = await new_table(manager, humans=1, bots=["normal"])
    await play_people(table)
    warned = [r for r in caplog.records if "chose an illegal" in r.getMessage()]
    assert warned and all(r.levelno == logging.WARNING for r in warned)
    assert _cards_logged(caplog) == []
    debug = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG]
    assert any(CARD.search(m) for m in debug)  # the operator can still find it


async def test_a_broken_deal_at_restore_is_logged_without_its_cards(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "toep.sqlite3"
    clock = FakeClock()
    db = await connect(path)
    manager = TableManager(TableDeps(db, clock, Recorder(db), InlineExecutor(),
                                     TableConfig(bot_pause=0)), random.Random(3))
    clock.settle_hooks[:] = [manager.settled]
    table = await new_table(manager, humans=2, bots=[])
    await manager.close()
    async with db.transaction() as conn:  # a deal that holds one card twice
        rows = list(await conn.execute_fetchall(
            "SELECT body FROM game_deals WHERE game_id = ? AND n = 0", (table.id,)))
        body = json.loads(rows[0][0])
        body["hands"][1][0] = body["hands"][0][0]
        await conn.execute("DELETE FROM game_deals WHERE game_id = ? AND n = 0", (table.id,))
        await conn.execute("INSERT INTO game_deals (game_id, n, body) VALUES (?, 0, ?)",
                           (table.id, json.dumps(body)))
    await db.close()
    caplog.set_level(logging.DEBUG)
    db = await connect(path)
    manager = TableManager(TableDeps(db, clock, Recorder(db), InlineExecutor(),
                                     TableConfig(bot_pause=0)))
    assert await manager.restore() == []
    assert _cards_logged(caplog) == []
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors and "could not be restored" in errors[0].getMessage()
    assert "RecordError" in errors[0].getMessage()  # what went wrong, and where
    debug = [logging.Formatter().format(r) for r in caplog.records
             if r.levelno == logging.DEBUG]
    assert any("twice" in text for text in debug)
    await db.close()


def test_a_failure_names_its_kind_and_place() -> None:
    try:
        raise ValueError("8H is hidden")
    except ValueError as err:
        assert failure(err).startswith("ValueError at test_log_hidden.py:")
        assert "8H" not in failure(err)
