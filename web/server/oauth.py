"""Who a page's viewer is, from Discord: the OAuth2 code the Embedded App
SDK's `authorize` gave the page, exchanged at Discord's token endpoint, then
`/users/@me` with that token. The page never names a user itself."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import aiohttp

log = logging.getLogger(__name__)

API = "https://discord.com/api/v10"
TIMEOUT = aiohttp.ClientTimeout(total=10)


class LoginFailed(Exception):
    """Discord refused the code, or could not be asked; the message is for the log."""


@dataclass(frozen=True)
class Person:
    user_id: int
    name: str
    locale: str
    access_token: str  # for the SDK's `authenticate`; the server keeps no copy


async def exchange(http: aiohttp.ClientSession, client_id: int, secret: str,
                   code: str) -> Person:
    form = {"client_id": str(client_id), "client_secret": secret,
            "grant_type": "authorization_code", "code": code}
    try:
        async with http.post(f"{API}/oauth2/token", data=form, timeout=TIMEOUT) as res:
            body = await res.json(content_type=None)
            if res.status != 200 or not isinstance(body, dict) or "access_token" not in body:
                raise LoginFailed(f"the token endpoint answered {res.status}: "
                                  f"{_error_of(body)}")
            token = str(body["access_token"])
        headers = {"Authorization": f"Bearer {token}"}
        async with http.get(f"{API}/users/@me", headers=headers, timeout=TIMEOUT) as res:
            me = await res.json(content_type=None)
            if res.status != 200 or not isinstance(me, dict):
                raise LoginFailed(f"/users/@me answered {res.status}")
    except (aiohttp.ClientError, TimeoutError, ValueError) as err:
        raise LoginFailed(f"Discord could not be asked: {type(err).__name__}") from err
    try:
        user_id = int(me["id"])
    except (KeyError, TypeError, ValueError) as err:
        raise LoginFailed("/users/@me named no user") from err
    name = str(me.get("global_name") or me.get("username") or user_id)
    return Person(user_id, name, str(me.get("locale") or "en-US"), token)


def _error_of(body: object) -> str:
    if isinstance(body, dict):
        return str(body.get("error", "?"))
    return "?"
