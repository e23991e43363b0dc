"""Each start-up failure is one line with what to do (start_failures.py); the
end-to-end runs are in tests/e2e/test_bot_start_refused.py."""

from __future__ import annotations

import asyncio
import threading
import time
from types import SimpleNamespace
from typing import Any

import aiohttp
import aiosqlite
import aiosqlite.core
import discord
import pytest

from bot import INTENTS
from data.db import connect
from data.errors import DatabaseOpenError
from start_failures import FAILURES, explain


def closed(code: int, shard_id: int | None = None) -> discord.ConnectionClosed:
    socket: Any = SimpleNamespace(close_code=code)
    return discord.ConnectionClosed(socket, shard_id=shard_id)


def test_a_gateway_4004_says_check_discord_token() -> None:
    line = explain(closed(4004), INTENTS)
    assert "(code 4004)" in line and "check DISCORD_TOKEN" in line and "\n" not in line


def test_4014_names_the_privileged_intent_and_where_to_turn_it_on() -> None:
    asked = discord.Intents(guilds=True, members=True, message_content=True)
    line = explain(discord.PrivilegedIntentsRequired(2), asked)
    assert "of shard 2 (code 4014)" in line
    assert "Server Members Intent and Message Content Intent" in line
    assert "turn them on in the Developer Portal" in line


def test_4014_for_toep_itself_says_it_needs_no_privileged_intent() -> None:
    assert not any((INTENTS.members, INTENTS.presences, INTENTS.message_content))
    line = explain(discord.PrivilegedIntentsRequired(None), INTENTS)
    assert "Toep asks for no privileged intent" in line and "Developer Portal" not in line


def test_discord_in_trouble_at_the_login_is_one_line() -> None:
    response: Any = SimpleNamespace(status=503, reason="Service Unavailable")
    line = explain(discord.DiscordServerError(response, "upstream"), INTENTS)
    assert "503" in line and "start again" in line


def test_any_other_client_error_is_still_one_line() -> None:
    err = aiohttp.ServerDisconnectedError()
    assert isinstance(err, FAILURES)
    assert explain(err, INTENTS).startswith("Discord cannot be reached")


def test_a_database_that_cannot_be_opened_leaves_no_thread_behind(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """A start that fails here ends the event loop at once: aiosqlite's worker, left
    to stop on its own (slowed here, as on a busy machine), answered a loop already
    closed and printed a second traceback, "Event loop is closed"."""
    real_stop = aiosqlite.core.Connection.stop

    def slow_stop(self: aiosqlite.Connection) -> asyncio.Future[None] | None:
        self._tx.put_nowait((None, lambda: time.sleep(0.3)))
        return real_stop(self)

    monkeypatch.setattr(aiosqlite.core.Connection, "stop", slow_stop)
    failed: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: failed.append(args.exc_value))
    before = set(threading.enumerate())
    with pytest.raises(DatabaseOpenError, match="unable to open database file"):
        asyncio.run(connect("/proc/toep.sqlite3"))
    for thread in set(threading.enumerate()) - before:
        thread.join(5)
    assert failed == []
