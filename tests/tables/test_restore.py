"""Restart: every unfinished table comes back from the database exactly where
it was, and a failed save puts the table back to its last saved state. The
tests taking `db_target` run on each backend (tests/conftest.py)."""

from __future__ import annotations

import contextlib
import gc
import json
import random
import sqlite3
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from data import games
from data.db import connect
from engine.events import Event, Happening
from engine.game import Game
from engine.record import replay_json, to_record
from engine.rules import TableRules
from engine.views import public_view, seat_view
from tables.clock import FakeClock
from tables.errors import TableFailure
from tables.manager import TableManager
from tables.shards import Shards
from tables.snapshot import Status
from tables.table import Table, TableConfig, TableDeps
from tests.tables.conftest import InlineExecutor, Recorder, new_table, play_people


def _pick(seed: int) -> Callable[[list[Event]], Event]:
    """A choice that depends only on the seed and the options on offer, so a
    restored game is offered, and picks, exactly what the whole one did."""
    def pick(options: list[Event]) -> Event:
        text = f"{seed}:" + " ".join(str(e) for e in options)
        return options[zlib.crc32(text.encode()) % len(options)]
    return pick


async def _play(table: Table, seed: int, stop_after: int | None) -> None:
    """People choose by `_pick` (stopping after `stop_after` of their acts)."""
    await play_people(table, _pick(seed), limit=stop_after or 5000)


async def _fresh(path: str | Path, clock: FakeClock) -> tuple[TableManager, Recorder]:
    db = await connect(path)
    recorder = Recorder(db)
    manager = TableManager(TableDeps(db, clock, recorder, InlineExecutor(),
                                     TableConfig(bot_pause=0)), random.Random(3))
    clock.settle_hooks[:] = [manager.settled]
    return manager, recorder


async def _outcome(manager: TableManager, table_id: int) -> list[tuple[int | None, int | None]]:
    saved = await games.load_game(manager.deps.db, table_id)
    assert saved.game.status == "finished"
    return [(s.marks, s.place) for s in saved.seats]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), stop=st.integers(1, 60))
async def test_a_game_stopped_anywhere_and_restored_ends_the_same(
        tmp_path: Path, seed: int, stop: int) -> None:
    rules = TableRules(limit=6)
    # The game that never stopped.
    clock = FakeClock()
    manager, _ = await _fresh(tmp_path / f"whole-{seed}-{stop}.sqlite3", clock)
    whole = await new_table(manager, humans=2, bots=["normal", "easy"], rules=rules)
    await _play(whole, seed, None)
    expected = await _outcome(manager, whole.id)
    await manager.close()
    await manager.deps.db.close()
    # The same game, stopped after `stop` acts of its people, and restored.
    clock = FakeClock()
    path = tmp_path / f"cut-{seed}-{stop}.sqlite3"
    manager, _ = await _fresh(path, clock)
    cut = await new_table(manager, humans=2, bots=["normal", "easy"], rules=rules)
    try:
        await _play(cut, seed, stop)
    except AssertionError as err:
        assert "did not end" in str(err)
    finished = not cut.open
    await manager.close()
    await manager.deps.db.close()
    manager, recorder = await _fresh(path, clock)
    restored = await manager.restore()
    if finished:  # the game ended before the cut: nothing to restore
        assert restored == []
        assert await _outcome(manager, cut.id) == expected
        await manager.deps.db.close()
        return
    assert [t.id for t in restored] == [cut.id] and recorder.snaps  # shown again
    table = restored[0]
    await play_people(table, _pick(seed))
    assert await _outcome(manager, table.id) == expected
    await manager.close()
    await manager.deps.db.close()


async def test_restart_gives_the_player_on_turn_a_fresh_full_clock(db_target: str | Path) -> None:
    clock = FakeClock()
    path = db_target
    manager, _ = await _fresh(path, clock)
    table = await new_table(manager, humans=2, bots=[])
    await clock.advance(10)  # the window closes; a person's turn, 20 s
    await clock.advance(15)
    assert table.game is not None and not any(table.game.forfeited)
    await manager.close()
    await manager.deps.db.close()
    await clock.advance(600)  # the bot is down for ten minutes
    manager, _ = await _fresh(path, clock)
    (again,) = await manager.restore()
    assert again.game is not None and not any(again.game.forfeited)
    assert again.deadline is not None and (again.deadline - clock.now()).total_seconds() == 20
    await clock.advance(19)
    assert not any(again.game.forfeited)
    await manager.close()
    await manager.deps.db.close()


async def test_lobbies_come_back_and_overdue_ones_close(db_target: str | Path) -> None:
    clock = FakeClock()
    path = db_target
    manager, _ = await _fresh(path, clock)
    lobby = await new_table(manager, humans=2, bots=["easy"], start=False)
    await manager.close()
    await manager.deps.db.close()
    manager, _ = await _fresh(path, clock)
    (again,) = await manager.restore()
    assert again.status is Status.LOBBY and [s.name for s in again.seats] == ["Host", "P2", "Bot 1"]
    assert again.id == lobby.id
    await clock.advance(16 * 60)
    assert again.status is Status.CANCELLED
    await manager.close()
    await manager.deps.db.close()


async def test_a_failed_save_puts_the_table_back(tmp_path: Path) -> None:
    clock = FakeClock()
    manager, recorder = await _fresh(tmp_path / "toep.sqlite3", clock)
    table = await new_table(manager, humans=2, bots=[])
    assert table.game is not None
    told = len(recorder.snaps)
    await manager.deps.db.close()  # the disk goes away
    with pytest.raises(TableFailure):
        await table.act(1, "vuile_was", stamp=table.stamp)
    # Nobody heard of an event that was not saved (only of a fresh clock).
    before = recorder.snaps[told - 1]
    assert all(s.recent == before.recent for s in recorder.snaps[told:])
    assert table.game.events == []  # back to what the database holds
    await manager.close()


async def _stopped_in_round(path: str | Path, clock: FakeClock, rounds: int,
                           acts_after: int = 0) -> tuple[int, tuple[Happening, ...]]:
    """A table of two people and a computer, stopped once `rounds` rounds are
    behind it and its people acted `acts_after` times more; its id, and the
    happenings its table message showed last."""
    manager, _ = await _fresh(path, clock)
    table = await new_table(manager, humans=2, bots=["normal"], rules=TableRules(limit=30))
    pick = _pick(5)
    while table.game is not None and len(table.game.rounds) < rounds:
        await _act_once(table, pick)
    for _ in range(acts_after):
        await _act_once(table, pick)
    assert table.open, "a game to 30 marks lasts longer"
    shown = table.snapshot().recent
    await manager.close()
    await manager.deps.db.close()
    return table.id, shown


async def _act_once(table: Table, pick: Callable[[list[Event]], Event]) -> None:
    with pytest.raises(AssertionError, match="did not end"):
        await play_people(table, pick, limit=1)  # one act of a person


@pytest.mark.parametrize(("rounds", "acts_after"), [(0, 0), (2, 0), (2, 1), (3, 4), (3, 9)])
async def test_a_restart_shows_the_same_recent_happenings(
        db_target: str | Path, rounds: int, acts_after: int) -> None:
    """The table message's "what happened" lines come back from the log,
    also at the start of a round, when they tell of the round before."""
    clock = FakeClock()
    path = db_target
    table_id, shown = await _stopped_in_round(path, clock, rounds, acts_after)
    manager, _ = await _fresh(path, clock)
    (table,) = await manager.restore()
    assert table.id == table_id and shown
    assert table.snapshot().recent == shown
    await manager.close()
    await manager.deps.db.close()


def _whole_replay(loaded: games.LoadedGame) -> Game:
    return replay_json(loaded.record())


async def test_a_restart_replays_only_the_round_in_play(
        db_target: str | Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    path = db_target
    table_id, _ = await _stopped_in_round(path, clock, rounds=4, acts_after=8)  # mid-round
    manager, _ = await _fresh(path, clock)
    loaded = await games.load_game(manager.deps.db, table_id)
    assert loaded.round_base is not None and loaded.round_base["round_no"] >= 4
    applied: list[Event] = []
    real_apply = Game.apply

    def counting(game: Game, event: Event) -> tuple[Happening, ...]:
        applied.append(event)
        return real_apply(game, event)

    monkeypatch.setattr(Game, "apply", counting)
    (table,) = await manager.restore()
    monkeypatch.undo()
    assert len(applied) == len(loaded.events) - loaded.round_base["events"]
    assert table.game is not None
    whole = _whole_replay(loaded)
    assert to_record(table.game, loaded.game.seed) == to_record(whole, loaded.game.seed)
    assert public_view(table.game) == public_view(whole)
    assert all(seat_view(table.game, s) == seat_view(whole, s) for s in range(whole.n))
    await manager.close()
    await manager.deps.db.close()


@pytest.mark.parametrize("damage", ["marks", "shape"])
async def test_a_round_base_that_does_not_fit_gives_way_to_the_whole_log(
        db_target: str | Path, caplog: pytest.LogCaptureFixture, damage: str) -> None:
    clock = FakeClock()
    path = db_target
    table_id, _ = await _stopped_in_round(path, clock, rounds=3)
    manager, _ = await _fresh(path, clock)
    loaded = await games.load_game(manager.deps.db, table_id)
    assert loaded.round_base is not None
    base = dict(loaded.round_base)
    if damage == "marks":
        base["marks"] = [m + 1 for m in base["marks"]]
    else:
        base["rounds"] = "three"
    async with manager.deps.db.transaction() as conn:
        await conn.execute("UPDATE game_round_bases SET body = ? WHERE game_id = ?",
                           (json.dumps(base), table_id))
    (table,) = await manager.restore()
    assert "does not fit its log" in caplog.text
    assert table.game is not None
    assert table.game.marks == _whole_replay(loaded).marks
    await play_people(table, _pick(5))  # and the game plays on to its end
    assert not table.open
    await manager.close()
    await manager.deps.db.close()


@pytest.mark.parametrize("enabled", [True, False])
async def test_a_restore_leaves_the_cycle_collector_as_it_found_it(
        db_target: str | Path, enabled: bool) -> None:
    clock = FakeClock()
    path = db_target
    await _stopped_in_round(path, clock, rounds=1)
    manager, _ = await _fresh(path, clock)
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        (table,) = await manager.restore()
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert table.game is not None
    await manager.close()
    await manager.deps.db.close()


async def test_a_failed_save_of_a_round_end_keeps_the_next_deal_to_save(
        db_target: str | Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The event that ends a round deals the next one. When its save fails the
    table goes back to what the database holds, and that deal is still to be
    saved: the click that follows saves it, and a restart deals the same cards."""
    clock = FakeClock()
    path = db_target
    manager, _ = await _fresh(path, clock)
    table = await new_table(manager, humans=2, bots=[], rules=TableRules(limit=30))
    writer = manager.deps.writer
    real_append = writer.append
    failed: list[int] = []

    async def full_once(game_id: int, events_from: int, events: Any, deals_from: int,
                        deals: Any, *args: Any, **kwargs: Any) -> Any:
        if not failed and any("hands" in row for row in deals):
            failed.append(events_from)
            raise sqlite3.OperationalError("database or disk is full")
        return await real_append(game_id, events_from, events, deals_from, deals,
                                 *args, **kwargs)

    monkeypatch.setattr(writer, "append", full_once)
    pick = _pick(3)
    while not failed:
        with contextlib.suppress(TableFailure):  # then the person clicks again
            await _act_once(table, pick)
    await _act_once(table, pick)
    assert table.game is not None and len(table.game.rounds) >= 1
    hands = [list(h) for h in table.game.hands]
    await manager.close()
    await manager.deps.db.close()
    manager, _ = await _fresh(path, clock)
    (again,) = await manager.restore()
    assert again.game is not None and [list(h) for h in again.game.hands] == hands
    await manager.close()
    await manager.deps.db.close()


async def test_a_move_saved_but_reported_failed_is_caught_up_with_at_the_next_click(
        db_target: str | Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The answer to a save was lost (a COMMIT that timed out): the person was
    told it failed, yet it was made. Their next click finds the database ahead
    of the table: it is refused too, and the table takes the game from the
    database and shows it; play goes on from there, nothing unsaved ever shown."""
    clock = FakeClock()
    manager, recorder = await _fresh(db_target, clock)
    table = await new_table(manager, humans=2, bots=[], rules=TableRules(limit=30))
    writer = manager.deps.writer
    real_append = writer.append
    lost: list[int] = []

    async def answer_lost_once(game_id: int, events_from: int, *args: Any,
                               **kwargs: Any) -> Any:
        outcome = await real_append(game_id, events_from, *args, **kwargs)
        if not lost:
            lost.append(events_from)
            raise TimeoutError("PostgreSQL did not answer for 20 s")
        return outcome

    pick = _pick(3)
    for _ in range(3):  # a few moves, then the one whose answer is lost
        await _act_once(table, pick)
    monkeypatch.setattr(writer, "append", answer_lost_once)
    with pytest.raises(TableFailure):
        await _act_once(table, pick)
    assert table.game is not None and len(table.game.events) == lost[0]  # as far as it knows
    shown = len(recorder.snaps)
    with pytest.raises(TableFailure):
        await _act_once(table, pick)
    saved = await games.load_game(manager.deps.db, table.id)
    assert len(table.game.events) == len(saved.events) > lost[0]
    assert len(recorder.snaps) > shown
    # Between the two clicks the table showed less than was saved, never more.
    told_and_saved = [tuple(int(word) for word in text.split() if word.isdigit())
                      for text in recorder.unsaved]
    assert all(told < saved for saved, told in told_and_saved), recorder.unsaved
    await _act_once(table, pick)  # and the game goes on
    assert len((await games.load_game(manager.deps.db, table.id)).events) > len(saved.events)
    await manager.close()
    await manager.deps.db.close()


async def test_a_sharded_process_restores_only_its_shards_tables(tmp_path: Path) -> None:
    clock = FakeClock()
    manager, _ = await _fresh(tmp_path / "shards.sqlite3", clock)
    guilds = [(1000 + shard) << 22 for shard in range(4)]  # on shards 0, 1, 2, 3 of 4
    for n, guild_id in enumerate(guilds):
        await manager.create(guild_id=guild_id, channel_id=100 + n, host_id=1,
                             host_name="Host", public=True, rules=TableRules())
    await manager.close()
    db = manager.deps.db
    sharded = TableManager(TableDeps(db, clock, Recorder(db), InlineExecutor(),
                                     TableConfig(bot_pause=0)), shards=Shards(4, (1, 3)))
    restored = await sharded.restore()
    assert sorted(t.row.guild_id for t in restored) == [guilds[1], guilds[3]]
    await sharded.close()
    everything = TableManager(manager.deps)  # not sharded: every table, as before
    assert len(await everything.restore()) == 4
    await everything.close()
    await db.close()
