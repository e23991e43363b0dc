"""The web table's login and its door: the OAuth2 code exchange through the
fake Discord, sessions the page cannot forge, the client's files, every path
also under Discord's /.proxy/ prefix (issue 30)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from tests.e2e.toep_world import World, open_world
from tests.web.page import Page, base_url
from web.server.throttle import PER_ADDRESS


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with open_world(tmp_path, ("anna", "bram"), web=True) as w:
        yield w


@pytest.mark.parametrize("proxy", [True, False])
async def test_the_page_and_its_settings_under_both_prefixes(
        world: World, http: aiohttp.ClientSession, proxy: bool) -> None:
    base = base_url(world, proxy)
    async with http.get(f"{base}/") as res:
        page = await res.text()
    assert res.status == 200 and 'src="static/table.js"' in page
    async with http.get(f"{base}/static/table.js") as res:
        assert res.status == 200 and "new WebSocket" in await res.text()
    for lang in ("en", "nl"):
        async with http.get(f"{base}/api/texts?lang={lang}") as res:
            words = (await res.json())["texts"]
        assert words["page.title"] == {"en": "Toep: the chalk table",
                                       "nl": "Toep: de krijttafel"}[lang]
        assert "btn.toep" in words and not any(k.startswith("click.") for k in words)
    async with http.get(f"{base}/api/config") as res:
        body = await res.json()
    assert body == {"client_id": str(world.fake.application_id), "dev_login": False}
    async with http.get(f"{base}/static/../../config.py") as res:
        assert res.status in (403, 404)  # no way out of the client's folder


async def test_a_code_is_exchanged_once_and_names_the_user(
        world: World, http: aiohttp.ClientSession) -> None:
    base = base_url(world)
    anna = world.people["anna"]
    code = world.fake.authorize(anna)
    async with http.post(f"{base}/api/token", json={"code": code}) as res:
        body = await res.json()
    assert res.status == 200 and body["user"] == str(anna.id) and body["access_token"]
    # A code is good once, as at Discord; a made-up one never.
    for bad in (code, "made-up"):
        async with http.post(f"{base}/api/token", json={"code": bad}) as res:
            assert res.status == 403
            assert (await res.json())["error"] == "Discord did not accept the login"
    async with http.post(f"{base}/api/token", json={"user": str(anna.id)}) as res:
        assert res.status == 400  # a user id from the page counts for nothing
    async with http.post(f"{base}/api/dev-login", json={"user": str(anna.id)}) as res:
        assert res.status == 404  # the development login is off
    assert world.fake.oauth_exchanges == 1


async def test_a_flood_of_made_up_codes_is_held_back_before_discord_hears_it(
        world: World, http: aiohttp.ClientSession) -> None:
    base = base_url(world)
    for i in range(PER_ADDRESS):
        async with http.post(f"{base}/api/token", json={"code": f"made-up-{i}"}) as res:
            assert res.status == 403
    code = world.fake.authorize(world.people["anna"])
    async with http.post(f"{base}/api/token", json={"code": code}) as res:
        assert res.status == 429 and int(res.headers["Retry-After"]) >= 1
        assert (await res.json())["error"] == "too many logins: try again shortly"
    assert world.fake.oauth_attempts == PER_ADDRESS  # Discord heard none of the rest
    assert world.fake.oauth_exchanges == 0


async def test_a_forged_or_tampered_session_is_refused(
        world: World, http: aiohttp.ClientSession) -> None:
    await world.slash("anna", "toep new", {"private": True})
    base = base_url(world)
    real = await Page(http, base).login(world.fake, world.people["bram"])
    body, _, sig = real.partition(".")
    # bram's session, with anna's id put in: the signature no longer fits.
    import base64

    raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)).decode()
    forged_raw = raw.replace(str(world.people["bram"].id), str(world.people["anna"].id), 1)
    forged = base64.urlsafe_b64encode(forged_raw.encode()).decode().rstrip("=") + "." + sig
    for session in (forged, "nonsense", ""):
        page = Page(http, base)
        await page.open(session, world.channel.id)
        await page.wait(lambda p=page: p.close_code is not None)  # type: ignore[misc]
        assert page.close_code == 4401 and page.frames == []
        assert page.notes[-1]["text"].startswith("Your login to the table has run out")
    page = Page(http, base)
    await page.open(real, world.channel.id)
    await page.wait(lambda: page.frames)
    welcome = page.notes[0]
    assert welcome.pop("pass") and welcome == {
        "type": "welcome", "user": str(world.people["bram"].id), "name": "bram", "lang": "en"}
    await page.close()


async def test_a_port_in_use_is_one_clear_line(world: World) -> None:
    from config import WebSettings
    from web.server.app import WebTable, WebUnavailable

    assert world.bot is not None and world.bot.web is not None
    port = world.bot.web.port
    second = WebTable(world.bot, WebSettings(port, client_id=1, client_secret="x"))
    with pytest.raises(WebUnavailable) as err:
        await second.start()
    assert str(err.value).startswith(f"the web table cannot listen on 127.0.0.1:{port}: ")
    assert str(err.value).endswith("(WEB_HOST, WEB_PORT)") and "\n" not in str(err.value)
