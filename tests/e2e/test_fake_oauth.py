"""The fake Discord's OAuth2: codes, the token endpoint, /users/@me with a
person's Bearer token, shaped as Discord answers them."""

from __future__ import annotations

import aiohttp

from tests.e2e.fake_discord import FakeDiscord

TOKEN_URL = "https://discord.com/api/oauth2/token"
ME_URL = "https://discord.com/api/v10/users/@me"


async def test_a_code_becomes_a_token_once(fake: FakeDiscord) -> None:
    fake.add_guild("Café")
    anna = fake.add_user("anna", locale="nl")
    code = fake.authorize(anna)
    form = {"client_id": str(fake.application_id), "client_secret": fake.client_secret,
            "grant_type": "authorization_code", "code": code}
    async with aiohttp.ClientSession(connector=fake.connector()) as http:
        async with http.post(TOKEN_URL, data=form) as res:
            body = await res.json()
        assert res.status == 200 and body["token_type"] == "Bearer"
        assert body["scope"] == "identify"
        headers = {"Authorization": f"Bearer {body['access_token']}"}
        async with http.get(ME_URL, headers=headers) as res:
            me = await res.json()
        assert (me["id"], me["username"], me["locale"]) == (str(anna.id), "anna", "nl")
        async with http.post(TOKEN_URL, data=form) as res:  # good once
            assert (res.status, (await res.json())["error"]) == (400, "invalid_grant")
        wrong = {**form, "code": fake.authorize(anna), "client_secret": "guess"}
        async with http.post(TOKEN_URL, data=wrong) as res:
            assert (res.status, (await res.json())["error"]) == (401, "invalid_client")
        async with http.get(ME_URL, headers={"Authorization": "Bearer made-up"}) as res:
            assert res.status == 401
    assert fake.oauth_exchanges == 1 and fake.errors == []
