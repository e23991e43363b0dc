"""A viewer's session: who they are, signed by the bot, so the page never
names a user itself. Signed rather than kept in memory, so a page reconnects
after the bot restarts without asking Discord again."""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from dataclasses import dataclass

LIFETIME = 12 * 3600  # seconds a session lasts; the page logs in again after


@dataclass(frozen=True)
class Session:
    user_id: int
    name: str
    locale: str
    expires: int  # unix seconds


class Signer:
    def __init__(self, key: bytes) -> None:
        self._key = key

    def issue(self, user_id: int, name: str, locale: str, now: float | None = None) -> str:
        expires = int(time.time() if now is None else now) + LIFETIME
        body = _b64(f"{user_id}\n{expires}\n{locale}\n{name}".encode())
        return f"{body}.{self._sign(body)}"

    def verify(self, token: str, now: float | None = None) -> Session | None:
        """The session a token names, or None: forged, malformed or expired."""
        body, _, sig = token.partition(".")
        if not body or not hmac.compare_digest(sig, self._sign(body)):
            return None
        try:
            user, expires, locale, name = _unb64(body).decode().split("\n", 3)
            session = Session(int(user), name, locale, int(expires))
        except ValueError:
            return None
        if session.expires < (time.time() if now is None else now):
            return None
        return session

    def _sign(self, body: str) -> str:
        return _b64(hmac.new(self._key, body.encode(), hashlib.sha256).digest())


def session_key(bot_token: str, client_secret: str | None) -> bytes:
    """The signing key: derived from secrets only the bot holds."""
    material = f"toep-web-session\n{bot_token}\n{client_secret or ''}".encode()
    return hashlib.sha256(material).digest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, TypeError) as err:
        raise ValueError("malformed session") from err
