"""The login's throttle behind a reverse proxy (WEB_TRUSTED_PROXIES): a
client's budget is its own, and a header no trusted proxy wrote buys nothing.
The tests' requests come from 127.0.0.1, as from a proxy on the same machine."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import aiohttp

from tests.e2e.toep_world import World, open_world
from tests.web.page import Page, base_url
from web.server.throttle import PER_ADDRESS

LOCAL = (ipaddress.ip_network("127.0.0.1"),)


async def _login(world: World, http: aiohttp.ClientSession, code: str,
                 forwarded: str | None) -> int:
    headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
    async with http.post(f"{base_url(world)}/api/token", json={"code": code},
                         headers=headers) as res:
        return res.status


async def test_a_spoofed_header_from_a_peer_that_is_no_proxy_does_not_escape_the_throttle(
        tmp_path: Path, http: aiohttp.ClientSession) -> None:
    for trusted in ((), (ipaddress.ip_network("10.0.0.0/8"),)):
        async with open_world(tmp_path / str(len(trusted)), web=True,
                              trusted_proxies=trusted) as world:
            # A new made-up address each time: the peer is still the one address.
            statuses = [await _login(world, http, f"made-up-{i}", f"203.0.113.{i}")
                        for i in range(PER_ADDRESS + 1)]
            assert statuses == [403] * PER_ADDRESS + [429]
            assert world.fake.oauth_attempts == PER_ADDRESS


async def test_through_a_trusted_proxy_two_clients_have_separate_budgets(
        tmp_path: Path, http: aiohttp.ClientSession) -> None:
    async with open_world(tmp_path, web=True, trusted_proxies=LOCAL) as world:
        for i in range(PER_ADDRESS):
            assert await _login(world, http, f"made-up-{i}", "203.0.113.5") == 403
        assert await _login(world, http, "made-up", "203.0.113.5") == 429
        # What the client wrote left of the proxy's own entry changes nothing.
        assert await _login(world, http, "made-up", "198.51.100.1, 203.0.113.5") == 429
        # Another client behind the same proxy logs in as usual.
        code = world.fake.authorize(world.people["anna"])
        assert await _login(world, http, code, "203.0.113.6") == 200
        # And so does the proxy's own request (no header): the peer itself.
        assert await _login(world, http, "made-up", None) == 403
        assert world.fake.oauth_attempts == PER_ADDRESS + 2


async def test_the_page_and_its_websocket_work_through_the_proxy(tmp_path: Path) -> None:
    async with open_world(tmp_path, web=True, trusted_proxies=LOCAL) as world, \
            aiohttp.ClientSession(headers={"X-Forwarded-For": "203.0.113.7"}) as proxied:
        await world.slash("anna", "toep new")
        page = await Page(proxied, base_url(world)).enter(world.fake, world.people["bram"],
                                                          world.channel.id)
        assert page.last["type"] == "table" and page.close_code is None
        await page.close()
