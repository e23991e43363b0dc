"""The launcher's own choices (bot.py): the connection pools to Discord."""

from __future__ import annotations

from pathlib import Path

import aiohttp

from bot import create_bot
from cogs.connector import CONNECTIONS_PER_HOST, POOL, AnswersFirst
from config import Settings
from tables.load import AT_ONCE


def _settings(tmp_path: Path) -> Settings:
    return Settings(discord_token="token", database_path=tmp_path / "toep.sqlite3")


async def test_the_bot_keeps_a_bounded_pool_of_connections_per_host(tmp_path: Path) -> None:
    bot = create_bot(_settings(tmp_path))
    connector = bot.http.connector
    try:
        # Past this many requests in flight, the next waits for an open
        # connection instead of a new TLS handshake; the gateway's host is apart.
        # First answers to interactions have a pool of their own.
        assert isinstance(connector, AnswersFirst)
        for pool in (connector, connector.answers):
            assert pool.limit_per_host == CONNECTIONS_PER_HOST
            assert pool.limit == 0
    finally:
        await connector.close()


async def test_a_connector_given_to_the_bot_is_the_one_it_uses(tmp_path: Path) -> None:
    given = aiohttp.TCPConnector(**POOL)
    bot = create_bot(_settings(tmp_path), connector=given)
    try:
        assert bot.http.connector is given
    finally:
        await given.close()


def test_edits_past_capacity_leave_connections_for_followups_and_messages() -> None:
    # Each edit holds a slot (tables/slots.py) while its request is out.
    limits = [n for n in AT_ONCE.values() if n is not None]
    assert limits and max(limits) < CONNECTIONS_PER_HOST
