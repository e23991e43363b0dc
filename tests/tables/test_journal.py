"""The journal: a change is saved before it is handed back, a change that
cannot be applied or saved leaves the game as the database holds it, and a
restart rebuilds the game and its last happenings from what was saved."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from data import games
from data.db import Database
from data.games import Seat
from data.group_commit import LogWriter
from engine import events as ev
from engine.rules import TableRules
from tables.errors import Refusal, TableFailure
from tables.journal import Journal

NOW = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
SEATS = [Seat(0, "Anna", user_id=1), Seat(1, "Bram", user_id=2)]


class Writer(LogWriter):
    """The real group commit, whose saves fail while `failing` is set."""

    failing = False

    async def append(self, game_id: int, events_from: int,
                     events: Sequence[Mapping[str, Any]], deals_from: int,
                     deals: Sequence[Mapping[str, Any]],
                     round_base: Mapping[str, Any] | None = None,
                     forfeit: Any = None) -> Any:
        if self.failing:
            raise sqlite3.OperationalError("database or disk is full")
        return await super().append(game_id, events_from, events, deals_from, deals,
                                    round_base, forfeit)


async def _journal(db: Database, writer: LogWriter) -> Journal:
    row = await games.create_game(db, guild_id=1, channel_id=2, host_id=1, public=False,
                                  rules=TableRules().to_json(), seed=5, now=NOW, seats=SEATS)
    return Journal(row.id, row.seed, db, writer, keep=8)


CLOSE = [ev.act(ev.CLOSE_WINDOW)]  # everyone passed the opening window: the play begins


async def test_nothing_is_in_play_before_the_start(db: Database) -> None:
    journal = await _journal(db, Writer(db))
    with pytest.raises(Refusal):
        journal.in_play()


async def test_the_start_is_saved_with_its_deal(db: Database) -> None:
    journal = await _journal(db, Writer(db))
    row = await journal.start(TableRules(), SEATS, NOW)
    game = journal.in_play()
    loaded = await games.load_game(db, journal.table_id)
    assert row.status == "playing" and row.first_leader == game.first_leader
    assert len(loaded.chance_rows) == 1 and list(journal.recent) == list(game.opening)


async def test_a_commit_is_saved_before_it_is_handed_back(db: Database) -> None:
    journal = await _journal(db, Writer(db))
    await journal.start(TableRules(), SEATS, NOW)
    happenings = await journal.commit(CLOSE)
    loaded = await games.load_game(db, journal.table_id)
    assert happenings and list(journal.recent)[-len(happenings):] == happenings
    assert [e["do"] for e in loaded.events] == [ev.CLOSE_WINDOW]


async def test_a_failed_save_rolls_the_game_back_and_the_next_one_fits(
        db: Database) -> None:
    writer = Writer(db)
    journal = await _journal(db, writer)
    await journal.start(TableRules(), SEATS, NOW)
    recent = list(journal.recent)
    writer.failing = True
    with pytest.raises(TableFailure):
        await journal.commit(CLOSE)
    assert journal.in_play().events == [] and list(journal.recent) == recent
    writer.failing = False
    await journal.commit(CLOSE)  # saved from event 0 again
    assert len((await games.load_game(db, journal.table_id)).events) == 1


async def test_an_event_the_engine_refuses_rolls_back_without_a_save(db: Database) -> None:
    journal = await _journal(db, Writer(db))
    await journal.start(TableRules(), SEATS, NOW)
    before = journal.in_play()
    with pytest.raises(TableFailure):  # the window cannot close twice
        await journal.commit([ev.act(ev.CLOSE_WINDOW), ev.act(ev.CLOSE_WINDOW)])
    assert journal.in_play() is not before and journal.in_play().events == []
    assert (await games.load_game(db, journal.table_id)).events == ()


async def test_a_resumed_journal_holds_the_saved_game_and_its_last_happenings(
        db: Database) -> None:
    journal = await _journal(db, Writer(db))
    await journal.start(TableRules(), SEATS, NOW)
    await journal.commit(CLOSE)
    again = Journal(journal.table_id, journal.seed, db, Writer(db), keep=8)
    game = again.resume(await games.load_game(db, journal.table_id))
    assert game.events == journal.in_play().events and again.in_play() is game
    assert list(again.recent) == list(journal.recent)


async def test_an_unrated_end_keeps_the_marks_as_they_stood(db: Database) -> None:
    journal = await _journal(db, Writer(db))
    await journal.start(TableRules(), SEATS, NOW)
    await journal.save_end(NOW)
    loaded = await games.load_game(db, journal.table_id)
    assert loaded.game.status == "ended" and loaded.game.finished_at == NOW


class LostAnswers(LogWriter):
    """The real group commit, but the answer to the next `lost` saves never
    arrives: they are made, and the caller hears of an outage (a COMMIT that
    timed out, a connection that dropped after it)."""

    lost = 0

    async def append(self, game_id: int, events_from: int,
                     events: Sequence[Mapping[str, Any]], deals_from: int,
                     deals: Sequence[Mapping[str, Any]],
                     round_base: Mapping[str, Any] | None = None,
                     forfeit: Any = None) -> Any:
        outcome = await super().append(game_id, events_from, events, deals_from, deals,
                                       round_base, forfeit)
        if self.lost:
            self.lost -= 1
            raise TimeoutError("PostgreSQL did not answer for 20 s")
        return outcome


async def test_a_save_reported_failed_that_was_made_is_caught_up_with(db: Database) -> None:
    writer = LostAnswers(db)
    journal = await _journal(db, writer)
    await journal.start(TableRules(), SEATS, NOW)
    writer.lost = 1
    with pytest.raises(TableFailure) as first:
        await journal.commit(CLOSE)
    assert not first.value.caught_up and journal.in_play().events == []  # as far as it knows
    with pytest.raises(TableFailure) as second:
        await journal.commit([ev.act(ev.CLOSE_WINDOW)])  # the same again: refused, it is behind
    assert second.value.caught_up and second.value.storage
    # Now the game as the database holds it, its last happenings with it.
    game = journal.in_play()
    assert [e.do for e in game.events] == [ev.CLOSE_WINDOW] and journal.recent
    await journal.commit(game.legal_events(game.waiting().seats[0])[:1])  # play goes on
    assert len((await games.load_game(db, journal.table_id)).events) == 2


async def test_a_start_reported_failed_that_was_made_is_caught_up_with(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    journal = await _journal(db, Writer(db))
    real = games.start_game
    calls: list[int] = []

    async def answer_lost_once(*args: Any, **kwargs: Any) -> Any:
        row = await real(*args, **kwargs)
        calls.append(1)
        if len(calls) == 1:
            raise TimeoutError("PostgreSQL did not answer for 20 s")
        return row

    monkeypatch.setattr(games, "start_game", answer_lost_once)
    with pytest.raises(TimeoutError):
        await journal.start(TableRules(), SEATS, NOW)
    row = await journal.start(TableRules(), SEATS, NOW)  # the host clicks Start again
    assert row.status == "playing" and journal.in_play().events == [] and journal.recent
    await journal.commit(CLOSE)  # and play goes on
    assert len((await games.load_game(db, journal.table_id)).events) == 1
