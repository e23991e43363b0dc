"""Finished reviews, kept per game, seat and review version (/toep review):
worked out once, read back on every later ask."""

from __future__ import annotations

import json
import logging
from datetime import datetime
from typing import Any

from data.db import Database
from data.times import to_db

log = logging.getLogger(__name__)


async def get_review(db: Database, game_id: int, seat: int, version: str) -> dict[str, Any] | None:
    """The kept review of this seat of this game in this version, or None."""
    async with db.read() as conn:
        rows = list(await conn.execute_fetchall(
            "SELECT body FROM reviews WHERE game_id = ? AND seat = ? AND version = ?",
            (game_id, seat, version)))
    if not rows:
        return None
    body: dict[str, Any] = json.loads(rows[0][0])
    return body


async def put_review(db: Database, game_id: int, seat: int, version: str,
                     body: dict[str, Any], now: datetime) -> None:
    """Keep a review; one already kept for the same key stays (the same
    seed and version give the same review)."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO reviews (game_id, seat, version, body, created_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, seat, version) DO NOTHING",
            (game_id, seat, version, json.dumps(body, separators=(",", ":")), to_db(now)))
