"""Finished games of a person, for a history command, and one game's full record."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from data.db import Database
from data.errors import GameStateError
from data.gameload import load_game, seats_of
from data.gamevalues import GAME_COLUMNS, Game, LoadedGame, Seat, game_from_row

log = logging.getLogger(__name__)

DONE_STATUSES = ("finished", "ended")


@dataclass(frozen=True)
class HistoryEntry:
    game: Game
    seats: tuple[Seat, ...]
    seat: int  # the person's own seat


async def list_history(
    db: Database, guild_id: int, user_id: int, *, limit: int = 10, offset: int = 0
) -> list[HistoryEntry]:
    """The person's finished and ended games in the guild, most recently created first."""
    prefixed = ", ".join(f"g.{column.strip()}" for column in GAME_COLUMNS.split(","))
    async with db.read() as conn:
        rows = list(
            await conn.execute_fetchall(
                f"SELECT {prefixed}, s.seat AS own_seat FROM seats s"
                " JOIN games g ON g.id = s.game_id"
                " WHERE s.user_id = ? AND g.guild_id = ? AND g.status IN ('finished', 'ended')"
                # by game id, newest first: walks seats_by_user backwards, no sort
                " ORDER BY s.game_id DESC LIMIT ? OFFSET ?",
                (user_id, guild_id, limit, offset),
            )
        )
        seats = await seats_of(conn, [row["id"] for row in rows])
    return [HistoryEntry(game_from_row(row), seats[row["id"]], row["own_seat"]) for row in rows]


async def load_finished(db: Database, game_id: int) -> LoadedGame:
    """All parts of a finished or ended game (rules, seats, seed, deals, events)."""
    loaded = await load_game(db, game_id)
    if loaded.game.status not in DONE_STATUSES:
        # a game in progress is never exported: its hidden cards are still secret
        raise GameStateError(f"game {game_id} is {loaded.game.status}, not over")
    return loaded
