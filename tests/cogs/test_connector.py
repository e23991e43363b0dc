"""The bot's connections to Discord (cogs/connector.py): first answers to
interactions never wait for a connection held by other requests."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web

from cogs.connector import CONNECTIONS_PER_HOST, AnswersFirst, discord_connector, is_first_answer

CALLBACK = "/api/v10/interactions/123/tok-en/callback"


@pytest.mark.parametrize(("method", "path", "first"), [
    ("POST", CALLBACK, True),
    ("POST", "/api/v10/webhooks/9/tok-en", False),  # a followup
    ("PATCH", "/api/v10/webhooks/9/tok-en/messages/@original", False),  # an edit
    ("POST", "/api/v10/channels/5/messages", False),
    ("GET", CALLBACK, False),
])
def test_only_an_interactions_callback_is_a_first_answer(method: str, path: str,
                                                         first: bool) -> None:
    assert is_first_answer(method, path) is first


class Server:
    """A local HTTP server: channel requests hang until `release`; callbacks answer."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.hanging = 0

    async def slow(self, request: web.Request) -> web.Response:
        self.hanging += 1
        await self.release.wait()
        return web.json_response({})

    async def callback(self, request: web.Request) -> web.Response:
        return web.Response(status=204)


@pytest.fixture
async def server() -> AsyncIterator[tuple[Server, str]]:
    state = Server()
    app = web.Application()
    app.router.add_post("/api/v10/channels/{id}/messages", state.slow)
    app.router.add_post("/api/v10/interactions/{id}/{token}/callback", state.callback)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield state, f"http://127.0.0.1:{port}"
    finally:
        state.release.set()
        await runner.cleanup()


async def test_an_answer_goes_through_while_every_other_connection_is_taken(
        server: tuple[Server, str]) -> None:
    state, base = server
    connector = discord_connector()
    async with aiohttp.ClientSession(connector=connector) as session:
        async def post(path: str) -> int:
            async with session.post(base + path) as response:
                await response.read()
                return response.status

        busy = [asyncio.create_task(post(f"/api/v10/channels/{n}/messages"))
                for n in range(CONNECTIONS_PER_HOST + 1)]
        while state.hanging < CONNECTIONS_PER_HOST:
            await asyncio.sleep(0.01)
        # The pool is full: one more request waits for a connection.
        assert state.hanging == CONNECTIONS_PER_HOST
        assert not any(task.done() for task in busy)
        # A first answer does not.
        assert await asyncio.wait_for(post(CALLBACK), timeout=30) == 204
        assert not any(task.done() for task in busy)
        state.release.set()
        assert await asyncio.gather(*busy) == [200] * (CONNECTIONS_PER_HOST + 1)
    assert connector.closed
    assert isinstance(connector, AnswersFirst) and connector.answers.closed


async def test_both_pools_have_the_same_limits() -> None:
    connector = discord_connector(keepalive_timeout=5)
    try:
        assert isinstance(connector, AnswersFirst)
        for pool in (connector, connector.answers):
            assert pool.limit == 0 and pool.limit_per_host == CONNECTIONS_PER_HOST
    finally:
        await connector.close()
