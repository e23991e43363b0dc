"""The lobby on its own: each change checked, saved, then taken on; a
refused change or a failed save leaves memory and database as they were."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from data import bans, games
from data.db import Database
from engine.rules import TableRules
from tables.clock import FakeClock
from tables.errors import Refusal
from tables.lobby import Lobby, seat_infos
from tables.snapshot import SeatInfo

HOST = SeatInfo(0, 1, None, "Host")


async def _lobby(db: Database, clock: FakeClock, *, public: bool = False,
                 rules: TableRules | None = None) -> tuple[Lobby, int]:
    row = await games.create_game(db, guild_id=10, channel_id=20, host_id=1, public=public,
                                  rules=(rules or TableRules()).to_json(), seed=0,
                                  now=clock.now(), seats=[])
    lobby = Lobby(row, [], set(), db, clock)
    await lobby.join(1, "Host")
    return lobby, row.id


async def _saved(db: Database, table_id: int) -> list[SeatInfo]:
    """The seats the database holds for the lobby."""
    return seat_infos(await games.load_game(db, table_id))


async def test_seats_are_saved_and_renumbered_when_one_leaves(
        db: Database, clock: FakeClock) -> None:
    lobby, table_id = await _lobby(db, clock)
    await lobby.invite(1, 2)
    await lobby.join(2, "Anna")
    await lobby.add_bot(1, "easy")
    await lobby.leave(lobby.seat_of(2) or 0)
    assert [(s.index, s.name) for s in lobby.seats] == [(0, "Host"), (1, "Bot 1")]
    assert await _saved(db, table_id) == lobby.seats


async def test_a_private_lobby_seats_only_the_invited(db: Database, clock: FakeClock) -> None:
    lobby, table_id = await _lobby(db, clock)
    with pytest.raises(Refusal, match="invited_only"):
        await lobby.join(2, "Anna")
    with pytest.raises(Refusal, match="host_only"):
        await lobby.invite(2, 3)
    assert await lobby.invite(1, 2) and not await lobby.invite(1, 2)
    await lobby.join(2, "Anna")
    await lobby.uninvite(1, 2)  # an invited member leaves their seat with the invite
    assert lobby.seat_of(2) is None and lobby.invited == set()
    assert await _saved(db, table_id) == [HOST]


async def test_a_full_lobby_and_rules_for_fewer_seats_are_refused(
        db: Database, clock: FakeClock) -> None:
    lobby, _ = await _lobby(db, clock, rules=TableRules(max_players=2))
    await lobby.add_bot(1, "easy")
    with pytest.raises(Refusal, match="table_full"):
        await lobby.add_bot(1, "easy")
    await lobby.remove_bot(1, 1)
    await lobby.change_rules(1, TableRules(max_players=3))
    await lobby.add_bot(1, "easy")
    await lobby.add_bot(1, "easy")
    with pytest.raises(Refusal, match="table_full"):
        await lobby.change_rules(1, TableRules(max_players=2))
    assert lobby.rules == TableRules(max_players=3)


async def test_a_failed_save_changes_nothing(
        db: Database, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    lobby, _ = await _lobby(db, clock)

    async def full(*args: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(games, "update_lobby_seats", full)
    with pytest.raises(sqlite3.OperationalError):
        await lobby.add_bot(1, "easy")
    assert lobby.seats == [HOST]


async def test_the_start_wants_the_host_two_seats_a_person_and_no_ban(
        db: Database, clock: FakeClock) -> None:
    lobby, _ = await _lobby(db, clock, public=True)
    with pytest.raises(Refusal, match="need_two_players"):
        await lobby.check_start(1, computers_only=False)
    await lobby.join(2, "Anna")
    with pytest.raises(Refusal, match="host_only"):
        await lobby.check_start(2, computers_only=False)
    await lobby.check_start(1, computers_only=False)
    for game in range(3):  # three forfeits elsewhere: Anna is banned since she sat down
        row = await games.create_game(db, guild_id=10, channel_id=900 + game, host_id=2,
                                      public=True, rules={}, seed=0, now=clock.now())
        await bans.record_forfeit(db, game_id=row.id, guild_id=10, user_id=2,
                                  kind="timeout", at=clock.now())
    with pytest.raises(Refusal, match="seat_banned"):
        await lobby.check_start(1, computers_only=False)


async def test_the_host_takes_a_person_or_a_computer_off(db: Database, clock: FakeClock) -> None:
    lobby, table_id = await _lobby(db, clock)
    for user, name in ((2, "Anna"), (3, "Bram")):
        await lobby.invite(1, user)
        await lobby.join(user, name)
    await lobby.add_bot(1, "easy")
    with pytest.raises(Refusal, match="host_only"):
        await lobby.remove(2, 2, 3)
    with pytest.raises(Refusal, match="seat_changed"):  # seat 1 holds Anna, not Bram
        await lobby.remove(1, 1, 3)
    with pytest.raises(Refusal, match="seat_changed"):  # not a computer's seat
        await lobby.remove(1, 1, None)
    with pytest.raises(Refusal, match="seat_changed"):
        await lobby.remove(1, 9, None)
    with pytest.raises(Refusal, match="remove_host"):
        await lobby.remove(1, 0, 1)
    assert len(await _saved(db, table_id)) == 4  # nothing changed
    removed = await lobby.remove(1, 1, 2)
    assert removed.name == "Anna" and lobby.removed == ["Anna"]
    assert [s.name for s in lobby.seats] == ["Host", "Bram", "Bot 1"]
    await lobby.remove(1, 2, None)  # a computer player: not named as taken off
    assert lobby.removed == ["Anna"] and await _saved(db, table_id) == lobby.seats
    await lobby.join(2, "Anna")  # may come back, and is no longer named
    assert lobby.removed == [] and lobby.seat_of(2) == 2
