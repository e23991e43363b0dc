"""The bot as `make run` builds it: its own connection pool to Discord."""

from __future__ import annotations

from pathlib import Path

from bot import HTTP_CONNECTIONS, create_bot
from config import Settings


async def test_the_bot_keeps_a_bounded_pool_of_connections_to_discord(tmp_path: Path) -> None:
    bot = create_bot(Settings(discord_token="x", database_path=tmp_path / "toep.db"))
    try:
        connector = bot.http.connector
        # discord.py's default would have no limit: a burst of clicks would open
        # a new TLS connection for every request.
        assert connector is not None and connector.limit == HTTP_CONNECTIONS > 0
    finally:
        await bot.close()
