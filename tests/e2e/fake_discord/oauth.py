"""OAuth2 as an Activity uses it: the code a user's "Authorize" gives the page,
its exchange at `POST /oauth2/token`, and `GET /users/@me` with the Bearer token.

Discord's rules: a code is good once and for ten minutes, and only for the
application it was issued to; the exchange needs that application's id and
secret; an access token lasts a week. Errors are shaped as Discord's token
endpoint sends them (`{"error": ..., "error_description": ...}`), not as its
API's `{"code", "message"}`.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from urllib.parse import parse_qsl

import orjson
from aiohttp import web

from .models import User

CODE_LIFETIME = 600.0  # seconds
TOKEN_LIFETIME = 7 * 24 * 3600.0


@dataclass(frozen=True)
class Grant:
    user: User
    scopes: tuple[str, ...]
    expires: float  # time.monotonic()


@dataclass
class OAuth:
    application_id: int
    client_secret: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    codes: dict[str, Grant] = field(default_factory=dict)
    tokens: dict[str, Grant] = field(default_factory=dict)
    exchanges: int = 0  # successful code exchanges, for tests
    attempts: int = 0  # every request at the token endpoint, good or not

    def authorize(self, user: User, scopes: tuple[str, ...] = ("identify",)) -> str:
        """The code Discord hands the page when `user` authorizes the app."""
        code = secrets.token_urlsafe(20)
        self.codes[code] = Grant(user, scopes, time.monotonic() + CODE_LIFETIME)
        return code

    def bearer(self, header: str | None) -> User | None:
        """The user an `Authorization: Bearer <token>` header names, if valid."""
        if not header or not header.startswith("Bearer "):
            return None
        grant = self.tokens.get(header.removeprefix("Bearer "))
        if grant is None or grant.expires < time.monotonic():
            return None
        return grant.user

    async def token(self, request: web.Request) -> web.Response:
        """POST /oauth2/token, form-encoded, grant_type=authorization_code."""
        self.attempts += 1
        if request.content_type != "application/x-www-form-urlencoded":
            return _error(400, "invalid_request", "Content-Type must be form-encoded")
        form = dict(parse_qsl((await request.read()).decode(), keep_blank_values=True))
        if (form.get("client_id") != str(self.application_id)
                or form.get("client_secret") != self.client_secret):
            return _error(401, "invalid_client", None)
        if form.get("grant_type") != "authorization_code":
            return _error(400, "unsupported_grant_type", None)
        grant = self.codes.pop(form.get("code", ""), None)  # good once, even if expired
        if grant is None or grant.expires < time.monotonic():
            return _error(400, "invalid_grant", 'Invalid "code" in request.')
        access = secrets.token_urlsafe(24)
        self.tokens[access] = Grant(grant.user, grant.scopes,
                                    time.monotonic() + TOKEN_LIFETIME)
        self.exchanges += 1
        return _json({"access_token": access, "token_type": "Bearer",
                              "expires_in": int(TOKEN_LIFETIME),
                              "refresh_token": secrets.token_urlsafe(24),
                              "scope": " ".join(grant.scopes)})


def _error(status: int, error: str, description: str | None) -> web.Response:
    body: dict[str, object] = {"error": error}
    if description is not None:
        body["error_description"] = description
    return _json(body, status)


def _json(body: dict[str, object], status: int = 200) -> web.Response:
    # Not core.json_response: core imports this module.
    return web.Response(body=orjson.dumps(body), status=status,
                        headers={"Content-Type": "application/json"})
