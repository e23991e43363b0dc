"""The bot's own small facts (key -> text), e.g. the synced commands' hash."""

from __future__ import annotations

from data.db import Database


async def get_meta(db: Database, key: str) -> str | None:
    async with db.read() as conn:
        rows = list(await conn.execute_fetchall(
            "SELECT value FROM bot_meta WHERE key = ?", (key,)))
    return str(rows[0][0]) if rows else None


async def set_meta(db: Database, key: str, value: str) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO bot_meta (key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))
