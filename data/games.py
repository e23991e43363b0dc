"""Games: lobby, seats, invites, start, cancel and end.

The one module the tables layer needs to import: values (data.gamevalues),
loading (data.gameload) and the event and deal logs (data.gamelog) are
re-exported here. Finishing a game with stats and ratings is
data.stats.finish_game.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from data.db import Database
from data.errors import ChannelBusyError, ConstraintError, NotFoundError
from data.gameload import load_game, load_unfinished
from data.gamelog import append_deals, append_events, insert_log
from data.gamevalues import (
    GAME_COLUMNS,
    OPEN_STATUSES,
    Game,
    GameStatus,
    LoadedGame,
    Seat,
    SeatResult,
    fetch_game,
    game_from_row,
    require_status,
)
from data.jsonutil import dump_object
from data.sql import Connection
from data.times import to_db

log = logging.getLogger(__name__)

_ONE_OPEN_PER_CHANNEL = ("games.channel_id", "games_one_open_per_channel")


async def create_game(
    db: Database,
    *,
    guild_id: int,
    channel_id: int,
    host_id: int,
    public: bool,
    rules: Mapping[str, Any],
    seed: int,
    now: datetime,
    seats: Sequence[Seat] = (),
    invites: Iterable[int] = (),
) -> Game:
    """A new game in the lobby, with its first seats and invites;
    ChannelBusyError if the channel already has an open table."""
    async with db.transaction() as conn:
        try:
            rows = await conn.execute_fetchall(
                "INSERT INTO games (guild_id, channel_id, host_id, public, rules, seed,"
                f" created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING {GAME_COLUMNS}",
                (guild_id, channel_id, host_id, public, dump_object(rules), seed, to_db(now)),
            )
        except ConstraintError as err:
            # SQLite names the column, PostgreSQL the index (migration 0005).
            if not any(name in str(err) for name in _ONE_OPEN_PER_CHANNEL):
                raise
            raise ChannelBusyError(f"channel {channel_id} has an open table") from None
        game = game_from_row(rows[0])
        await _insert_seats(conn, game.id, seats)  # a new game: no seats to replace
        await _insert_invites(conn, game.id, invites)
        return game


async def set_message(db: Database, game_id: int, message_id: int | None) -> None:
    """Remember the public table message (posted anew now and then)."""
    async with db.transaction() as conn:
        changed = await conn.execute(
            "UPDATE games SET message_id = ? WHERE id = ?", (message_id, game_id)
        )
        if changed == 0:
            raise NotFoundError(f"no game {game_id}")


async def set_ping(db: Database, game_id: int, ping_id: int | None) -> None:
    """Remember the turn ping standing in the channel (None: none stands)."""
    async with db.transaction() as conn:
        await conn.execute("UPDATE games SET ping_id = ? WHERE id = ?", (ping_id, game_id))


async def set_rules(db: Database, game_id: int, rules: Mapping[str, Any]) -> None:
    """Replace a lobby's rules (a private table's host changing options)."""
    async with db.transaction() as conn:
        await require_status(conn, game_id, ("lobby",))
        await conn.execute("UPDATE games SET rules = ? WHERE id = ?", (dump_object(rules), game_id))


async def update_lobby_seats(db: Database, game_id: int, seats: Sequence[Seat]) -> None:
    """Replace the seats of a game still in the lobby."""
    async with db.transaction() as conn:
        await require_status(conn, game_id, ("lobby",))
        await _write_seats(conn, game_id, seats)


async def add_invites(db: Database, game_id: int, user_ids: Iterable[int]) -> None:
    """Invite users to a private lobby (inviting twice is harmless)."""
    async with db.transaction() as conn:
        await require_status(conn, game_id, ("lobby",))
        await _insert_invites(conn, game_id, user_ids)


async def remove_invite(db: Database, game_id: int, user_id: int) -> None:
    async with db.transaction() as conn:
        await require_status(conn, game_id, ("lobby",))
        await conn.execute(
            "DELETE FROM invites WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        )


async def start_game(
    db: Database,
    game_id: int,
    *,
    seats: Sequence[Seat],
    first_leader: int,
    now: datetime,
    deals: Sequence[Mapping[str, Any]] = (),
) -> Game:
    """Lobby -> playing with the final seats (numbered 0..n-1) and optionally the first deal."""
    numbers = sorted(seat.seat for seat in seats)
    if numbers != list(range(len(seats))) or not 0 <= first_leader < len(seats):
        raise ValueError(f"game {game_id}: seats {numbers}, first leader {first_leader}")
    async with db.transaction() as conn:
        await require_status(conn, game_id, ("lobby",))
        await _write_seats(conn, game_id, seats)
        rows = await conn.execute_fetchall(
            "UPDATE games SET status = 'playing', first_leader = ?, started_at = ? WHERE id = ?"
            f" RETURNING {GAME_COLUMNS}", (first_leader, to_db(now), game_id))
        await insert_log(conn, "deals", game_id, 0, deals)
        return game_from_row(rows[0])


async def cancel_game(db: Database, game_id: int, now: datetime) -> None:
    """Lobby -> cancelled: the game never started."""
    async with db.transaction() as conn:
        await require_status(conn, game_id, ("lobby",))
        await _close(conn, game_id, "cancelled", now)


async def end_game(
    db: Database, game_id: int, now: datetime, results: Sequence[SeatResult] = ()
) -> None:
    """Playing -> ended: stopped by an admin or for idleness; unrated, no stats."""
    async with db.transaction() as conn:
        await require_status(conn, game_id, ("playing",))
        await write_results(conn, game_id, results)
        await _close(conn, game_id, "ended", now)


async def write_results(
    conn: Connection, game_id: int, results: Sequence[SeatResult],
    seats: Collection[int] | None = None,
) -> None:
    """Write final marks, places and forfeits of seats, inside the caller's
    transaction; `seats`: the game's seat numbers, if the caller read them."""
    if seats is None:
        rows = await conn.execute_fetchall("SELECT seat FROM seats WHERE game_id = ?",
                                           (game_id,))
        seats = {row[0] for row in rows}
    missing = [result.seat for result in results if result.seat not in seats]
    if missing:  # checked first: one statement writes every seat
        raise NotFoundError(f"game {game_id} has no seat {missing[0]}")
    await conn.executemany(
        "UPDATE seats SET marks = ?, place = ?, forfeited = ?, forfeit_order = ?"
        " WHERE game_id = ? AND seat = ?",
        [(r.marks, r.place, r.forfeited, r.forfeit_order, game_id, r.seat) for r in results])


async def _write_seats(conn: Connection, game_id: int, seats: Sequence[Seat]) -> None:
    await conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
    await _insert_seats(conn, game_id, seats)


async def _insert_seats(conn: Connection, game_id: int, seats: Sequence[Seat]) -> None:
    await conn.executemany(
        "INSERT INTO seats (game_id, seat, name, user_id, computer, marks, place, forfeited,"
        " forfeit_order) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game_id,
                s.seat,
                s.name,
                s.user_id,
                s.computer,
                s.marks,
                s.place,
                s.forfeited,
                s.forfeit_order,
            )
            for s in seats
        ],
    )


async def _insert_invites(
    conn: Connection, game_id: int, user_ids: Iterable[int]
) -> None:
    await conn.executemany(
        "INSERT INTO invites (game_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
        [(game_id, user_id) for user_id in user_ids],
    )


async def _close(
    conn: Connection, game_id: int, status: GameStatus, now: datetime
) -> None:
    await conn.execute(
        "UPDATE games SET status = ?, finished_at = ? WHERE id = ?",
        (status, to_db(now), game_id),
    )


__all__ = [
    "OPEN_STATUSES",
    "Game",
    "GameStatus",
    "LoadedGame",
    "Seat",
    "SeatResult",
    "add_invites",
    "append_deals",
    "append_events",
    "cancel_game",
    "create_game",
    "end_game",
    "fetch_game",
    "load_game",
    "load_unfinished",
    "remove_invite",
    "require_status",
    "set_message",
    "set_ping",
    "set_rules",
    "start_game",
    "update_lobby_seats",
    "write_results",
]
