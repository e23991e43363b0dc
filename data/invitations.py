"""The invitations `/toep invite` posted for a lobby: kept until the lobby
starts or closes, then taken (and deleted from the channel by the caller), so
none stays behind as a live invite, even across a restart."""

from __future__ import annotations

from data.db import Database

_IDS = "SELECT message_id FROM invitation_messages WHERE game_id = ? ORDER BY message_id"


async def add(db: Database, game_id: int, message_id: int) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO invitation_messages (game_id, message_id) VALUES (?, ?)"
            " ON CONFLICT (game_id, message_id) DO NOTHING", (game_id, message_id))


async def take(db: Database, game_id: int) -> list[int]:
    """The game's invitation messages, forgotten here. Most lobbies had none:
    those take a read only, never the write lock."""
    async with db.read() as conn:
        rows = await conn.execute_fetchall(_IDS, (game_id,))
    if not rows:
        return []
    async with db.transaction() as conn:
        rows = await conn.execute_fetchall(_IDS, (game_id,))
        await conn.execute("DELETE FROM invitation_messages WHERE game_id = ?", (game_id,))
    return [int(row[0]) for row in rows]


async def left_over(db: Database) -> list[tuple[int, int, int, int]]:
    """Invitations of games no longer in the lobby (the bot stopped between a
    start and their removal): (game, guild, channel, message) each."""
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT g.id, g.guild_id, g.channel_id, i.message_id FROM invitation_messages i"
            " JOIN games g ON g.id = i.game_id WHERE g.status <> 'lobby'"
            " ORDER BY g.id, i.message_id")
    return [(int(r[0]), int(r[1]), int(r[2]), int(r[3])) for r in rows]
