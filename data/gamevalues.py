"""Values of the games tables and their conversion from rows."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from data.chance_log import fold
from data.errors import GameStateError, NotFoundError
from data.jsonutil import JSONObject, load_object
from data.sql import Connection, Row
from data.times import from_db, from_db_opt

log = logging.getLogger(__name__)

GameStatus = Literal["lobby", "playing", "finished", "cancelled", "ended"]
OPEN_STATUSES: tuple[GameStatus, ...] = ("lobby", "playing")
RECORD_FORMAT = "toep-replay/1"


@dataclass(frozen=True)
class Game:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    public: bool
    rules: JSONObject  # option name -> value, as in a record's `rules`
    seed: int
    status: GameStatus
    rated: bool
    first_leader: int | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    ping_id: int | None = None  # the turn ping standing in the channel, if any


@dataclass(frozen=True)
class Seat:
    """A seat: a person (user_id) or a computer player (computer = its level)."""

    seat: int
    name: str
    user_id: int | None = None
    computer: str | None = None
    marks: int | None = None  # final marks, once the game is over
    place: int | None = None  # 1 = winner; ties share a place
    forfeited: bool = False
    forfeit_order: int | None = None  # 1 = first seat to forfeit in this game


@dataclass(frozen=True)
class SeatResult:
    """The outcome of one seat, written when a game finishes or is ended."""

    seat: int
    marks: int
    place: int | None
    forfeited: bool = False
    forfeit_order: int | None = None


@dataclass(frozen=True)
class LoadedGame:
    game: Game
    seats: tuple[Seat, ...]
    invites: frozenset[int]
    events: tuple[JSONObject, ...]
    # The chance log's rows (data/chance_log.py): deals, and reshuffles as
    # rows of their own; `record()` folds them into the record's `deals`.
    chance_rows: tuple[JSONObject, ...]
    # The base of the round in play (engine/round_base.py), if one was saved:
    # a shortcut for restoring, never needed for the record.
    round_base: JSONObject | None = None

    def record(self) -> JSONObject:
        """The toep-replay/1 record of the game (all cards: not for players' eyes)."""
        return {
            "format": RECORD_FORMAT,
            "rules": dict(self.game.rules),
            "players": [seat.name for seat in self.seats],
            "first_leader": self.game.first_leader,
            "seed": self.game.seed,
            "deals": fold(self.chance_rows),
            "events": [dict(event) for event in self.events],
        }


GAME_COLUMNS = (
    "id, guild_id, channel_id, message_id, host_id, public, rules, seed, status, rated,"
    " first_leader, created_at, started_at, finished_at, ping_id"
)
SEAT_COLUMNS = "game_id, seat, name, user_id, computer, marks, place, forfeited, forfeit_order"


def game_from_row(row: Row) -> Game:
    return Game(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        host_id=row["host_id"],
        public=bool(row["public"]),
        rules=load_object(row["rules"]),
        seed=row["seed"],
        status=row["status"],
        rated=bool(row["rated"]),
        first_leader=row["first_leader"],
        created_at=from_db(row["created_at"]),
        started_at=from_db_opt(row["started_at"]),
        finished_at=from_db_opt(row["finished_at"]),
        ping_id=row["ping_id"],
    )


def seat_from_row(row: Row) -> Seat:
    return Seat(
        seat=row["seat"],
        name=row["name"],
        user_id=row["user_id"],
        computer=row["computer"],
        marks=row["marks"],
        place=row["place"],
        forfeited=bool(row["forfeited"]),
        forfeit_order=row["forfeit_order"],
    )


async def fetch_game(conn: Connection, game_id: int, lock: str = "") -> Game:
    """The game's row; `lock` (a `Dialect` row lock) keeps it as read until
    the transaction ends."""
    rows = list(await conn.execute_fetchall(
        f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?{lock}", (game_id,)))
    if not rows:
        raise NotFoundError(f"no game {game_id}")
    return game_from_row(rows[0])


async def require_status(
    conn: Connection, game_id: int, allowed: Sequence[GameStatus]
) -> Game:
    """The game, if its status is one of `allowed`; otherwise a clear error.
    Inside a write transaction: the row stays so until it ends (another
    connection's change of status waits, or is read once it committed)."""
    game = await fetch_game(conn, game_id, conn.dialect.update_rows)
    if game.status not in allowed:
        raise GameStateError(f"game {game_id} is {game.status}, not {' or '.join(allowed)}")
    return game
