"""Loading whole games: one by id, or every open one for restart recovery."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from data.db import Database
from data.errors import NotFoundError
from data.gamevalues import (
    GAME_COLUMNS,
    SEAT_COLUMNS,
    Game,
    LoadedGame,
    Seat,
    game_from_row,
    seat_from_row,
)
from data.jsonutil import JSONObject, load_object
from data.sql import Connection, Row

log = logging.getLogger(__name__)


async def load_game(db: Database, game_id: int) -> LoadedGame:
    """Everything stored of one game; NotFoundError if there is none."""
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
        )
        loaded = await _load_parts(conn, [game_from_row(row) for row in rows])
    if not loaded:
        raise NotFoundError(f"no game {game_id}")
    return loaded[0]


async def load_unfinished(db: Database) -> list[LoadedGame]:
    """Every lobby and game in play, oldest first, with its logs (restart recovery)."""
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'playing') ORDER BY id"
        )
        return await _load_parts(conn, [game_from_row(row) for row in rows])


async def seats_of(
    conn: Connection, game_ids: Sequence[int]
) -> dict[int, tuple[Seat, ...]]:
    """Seats of several games in seat order, by game id."""
    grouped: dict[int, list[Seat]] = {game_id: [] for game_id in game_ids}
    for row in await _rows_of(conn, "seats", SEAT_COLUMNS, "seat", game_ids):
        grouped[row[0]].append(seat_from_row(row))
    return {game_id: tuple(seats) for game_id, seats in grouped.items()}


async def _load_parts(conn: Connection, games: list[Game]) -> list[LoadedGame]:
    ids = [game.id for game in games]
    seats = await seats_of(conn, ids)
    invites: dict[int, set[int]] = {game_id: set() for game_id in ids}
    for row in await _rows_of(conn, "invites", "user_id", "user_id", ids):
        invites[row[0]].add(row["user_id"])
    events = await _bodies_of(conn, "game_events", ids)
    chance = await _bodies_of(conn, "game_deals", ids)
    bases = await _round_bases_of(conn, ids)
    return [
        LoadedGame(g, seats[g.id], frozenset(invites[g.id]), events[g.id], chance[g.id],
                   bases.get(g.id))
        for g in games
    ]


async def _round_bases_of(
    conn: Connection, game_ids: Sequence[int]
) -> dict[int, JSONObject]:
    rows = await _rows_of(conn, "game_round_bases", "body", "game_id", game_ids)
    return {game_id: load_object(text) for game_id, text in rows}


async def _bodies_of(
    conn: Connection, table: str, game_ids: Sequence[int]
) -> dict[int, tuple[JSONObject, ...]]:
    grouped: dict[int, list[JSONObject]] = {game_id: [] for game_id in game_ids}
    # Logs repeat a few hundred small texts many thousand times: decode each
    # once (the objects are shared, so callers copy before changing one).
    decoded: dict[str, JSONObject] = {}
    for game_id, text in await _rows_of(conn, table, "body", "n", game_ids):
        body = decoded.get(text)
        if body is None:
            body = decoded[text] = load_object(text)
        grouped[game_id].append(body)
    return {game_id: tuple(bodies) for game_id, bodies in grouped.items()}


async def _rows_of(
    conn: Connection, table: str, columns: str, order: str, game_ids: Sequence[int]
) -> list[Row]:
    """Rows of several games: the game's id first, then `columns`."""
    # A query per chunk of games, in primary-key order (game_id, ...): a
    # restart of hundreds of tables makes a handful of queries, not thousands.
    # Table, columns and order are constants of this module, never input.
    found: list[Row] = []
    ids = list(game_ids)
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start:start + _CHUNK]
        where, params = conn.one_of("game_id", chunk)
        rows = await conn.execute_fetchall(
            f"SELECT game_id AS _gid, {columns} FROM {table} WHERE {where} "
            f"ORDER BY game_id, {order}", params
        )
        found.extend(rows)
    return found


_CHUNK = 500  # well under SQLite's limit on bound parameters
