"""Group commit: many games' appends in one transaction, each refused alone."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import timedelta
from urllib.parse import urlsplit

import pytest

from data import sql
from data.bans import Ban, Forfeit, forfeits_in_window
from data.db import Database, connect
from data.errors import GameStateError, LogOrderError
from data.games import cancel_game, end_game, load_game
from data.group_commit import LogWriter
from data.sql import OUTAGE_ERRORS
from tests.data.helpers import GUILD, NOW, lobby, playing, until_blocked
from tests.pg_proxy import FreezingProxy
from tests.pg_server import PgServer


def _events(first: int, count: int) -> list[dict[str, object]]:
    return [{"seat": 0, "do": "toep", "n": first + i} for i in range(count)]


async def test_appends_of_many_games_are_saved_together(db: Database) -> None:
    games = [await playing(db) for _ in range(5)]
    writer = LogWriter(db)
    await asyncio.gather(*(writer.append(g.id, 0, _events(0, 3), 0, [{"hands": []}])
                           for g in games))
    for game in games:
        loaded = await load_game(db, game.id)
        assert [e["n"] for e in loaded.events] == [0, 1, 2] and len(loaded.chance_rows) == 1


async def test_one_game_twice_in_a_batch_continues_its_log(db: Database) -> None:
    game = await playing(db)
    writer = LogWriter(db)
    await asyncio.gather(writer.append(game.id, 0, _events(0, 2), 0, []),
                         writer.append(game.id, 2, _events(2, 1), 0, []))
    assert [e["n"] for e in (await load_game(db, game.id)).events] == [0, 1, 2]


async def test_a_gap_or_a_closed_game_is_refused_alone(db: Database) -> None:
    good, gap = await playing(db), await playing(db)
    closed = await lobby(db)
    await cancel_game(db, closed.id, NOW)
    writer = LogWriter(db)
    outcome = await asyncio.gather(writer.append(good.id, 0, _events(0, 1), 0, []),
                                   writer.append(gap.id, 5, _events(5, 1), 0, []),
                                   writer.append(closed.id, 0, _events(0, 1), 0, []),
                                   return_exceptions=True)
    assert outcome[0] is None
    assert isinstance(outcome[1], LogOrderError) and isinstance(outcome[2], GameStateError)
    assert len((await load_game(db, good.id)).events) == 1
    assert not (await load_game(db, gap.id)).events


async def test_a_cancelled_caller_does_not_stop_its_save(db: Database) -> None:
    game = await playing(db)
    writer = LogWriter(db)
    task = asyncio.create_task(writer.append(game.id, 0, _events(0, 1), 0, []))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await writer.drain()
    assert len((await load_game(db, game.id)).events) == 1


async def test_a_round_base_is_saved_with_its_events_and_replaced_by_the_next(
        db: Database) -> None:
    game = await playing(db)
    writer = LogWriter(db)
    await writer.append(game.id, 0, _events(0, 3), 0, [], {"events": 2, "round": 1})
    assert (await load_game(db, game.id)).round_base == {"events": 2, "round": 1}
    await writer.append(game.id, 3, _events(3, 2), 0, [])  # no new round: the base stays
    assert (await load_game(db, game.id)).round_base == {"events": 2, "round": 1}
    await writer.append(game.id, 5, _events(5, 1), 0, [], {"events": 6, "round": 2})
    assert (await load_game(db, game.id)).round_base == {"events": 6, "round": 2}
    await end_game(db, game.id, NOW)  # a shortcut for restoring: gone with the game
    assert (await load_game(db, game.id)).round_base is None


async def test_a_round_base_beyond_its_log_refuses_the_whole_append(db: Database) -> None:
    game = await playing(db)
    writer = LogWriter(db)
    for base in ({"events": 3}, {"events": -1}, {"round": 1}):
        with pytest.raises(ValueError, match="round base"):
            await writer.append(game.id, 0, _events(0, 2), 0, [], base)
    loaded = await load_game(db, game.id)
    assert loaded.events == () and loaded.round_base is None


async def test_a_forfeit_is_saved_with_the_event_that_brought_it(db: Database) -> None:
    writer = LogWriter(db)
    started: list[Ban] = []
    writer.on_ban = started.append  # the bot's ban notices hear of each new ban
    outcomes = []
    for day in range(3):
        game = await playing(db, (1, 2))
        forfeit = Forfeit(game.id, GUILD, 1, "walkout", NOW + timedelta(days=day))
        outcomes.append(await writer.append(game.id, 0, _events(0, 1), 0, [],
                                            forfeit=forfeit))
    assert [o.recorded for o in outcomes if o] == [True, True, True]
    ban = outcomes[-1].ban if outcomes[-1] else None
    assert ban is not None and ban.since == NOW + timedelta(days=2)  # the third one bans
    assert started == [ban]
    assert len(await forfeits_in_window(db, GUILD, 1, NOW + timedelta(days=3))) == 3


async def test_a_forfeit_whose_event_is_refused_is_not_saved(db: Database) -> None:
    game = await playing(db, (1, 2))
    writer = LogWriter(db)
    with pytest.raises(LogOrderError):
        await writer.append(game.id, 4, _events(4, 1), 0, [],
                            forfeit=Forfeit(game.id, GUILD, 1, "timeout", NOW))
    assert await forfeits_in_window(db, GUILD, 1, NOW) == []


async def test_a_full_disk_fails_the_batch_with_one_line_and_no_traceback(
    sqlite_db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    db = sqlite_db  # the file's size limit stands for a full disk
    game = await playing(db)
    async with db.read() as conn:  # the file may not grow: SQLITE_FULL, as on a full disk
        (pages,), = await conn.execute_fetchall("PRAGMA page_count")
        await conn.execute(f"PRAGMA max_page_count = {int(pages)}")
    writer = LogWriter(db)
    big = [{"seat": 0, "do": "toep", "n": i, "pad": "x" * 3000} for i in range(20)]
    with pytest.raises(sqlite3.OperationalError, match="full"):
        await writer.append(game.id, 0, big, 0, [])
    failed = [r for r in caplog.records if r.name == "data.group_commit"]
    assert [r.levelname for r in failed] == ["WARNING"] and failed[0].exc_info is None
    assert "database or disk is full" in failed[0].getMessage()
    assert not (await load_game(db, game.id)).events


async def test_a_lost_postgres_connection_is_made_again_for_the_next_save(
    pg_server: PgServer, pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    db = await connect(pg_url)
    game = await playing(db)
    writer = LogWriter(db)
    await writer.append(game.id, 0, _events(0, 1), 0, [])
    name = urlsplit(pg_url).path.strip("/")
    await pg_server.admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                          f" WHERE datname = '{name}'")  # a server restart, as the bot sees it
    await asyncio.sleep(0.3)  # the driver has heard of it meanwhile
    await writer.append(game.id, 1, _events(1, 1), 0, [])
    assert [e["n"] for e in (await load_game(db, game.id)).events] == [0, 1]
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING"] == [
        "the connection to PostgreSQL was lost; connecting again"]
    await db.close()


async def test_a_save_to_a_server_that_stopped_answering_fails_in_time_and_is_made_again(
    pg_server: PgServer, pg_url: str, caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its machine froze, or the network to it is gone: no reset, nothing. The save
    fails as an outage within the statement limit (the table tries it again), and
    once the server answers again the next try is made on a new connection."""
    monkeypatch.setattr(sql, "STATEMENT_TIMEOUT_S", 0.5)
    async with FreezingProxy(pg_server) as proxy:
        db = await connect(proxy.url(pg_url))
        game = await playing(db)
        writer = LogWriter(db)
        await writer.append(game.id, 0, _events(0, 1), 0, [])
        proxy.freeze()
        with pytest.raises(OUTAGE_ERRORS, match="did not answer"):
            await asyncio.wait_for(writer.append(game.id, 1, _events(1, 1), 0, []), 10)
        proxy.thaw()
        await writer.append(game.id, 1, _events(1, 1), 0, [])  # the table's next try
        assert [e["n"] for e in (await load_game(db, game.id)).events] == [0, 1]
        warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
        assert warnings == [
            "saving 1 appends failed: PostgreSQL did not answer for 0.5 s; the connection was"
            " dropped", "the connection to PostgreSQL was lost; connecting again"], warnings
        await db.close()


async def test_an_append_waits_for_a_game_finishing_meanwhile_and_is_refused(
    db: Database
) -> None:
    game = await playing(db)
    writer = LogWriter(db)
    async with db.transaction() as conn:  # ended, not yet committed
        await conn.execute("UPDATE games SET status = 'ended' WHERE id = ?", (game.id,))
        append = asyncio.create_task(writer.append(game.id, 0, _events(0, 1), 0, []))
        await until_blocked(db, append)
    with pytest.raises(GameStateError):
        await append
    assert not (await load_game(db, game.id)).events
