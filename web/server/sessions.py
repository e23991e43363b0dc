"""What the bot signs for a page, so the page never names a user itself.

A **session** says who the viewer is (from Discord's OAuth2), for 12 hours.
A **pass** says that Discord lately let this user see this channel: a page
shows it when it reconnects, so that after a restart of the bot hundreds of
pages come back without asking Discord for each member at once. Both are
signed (HMAC) rather than kept in memory, so they outlive a restart; a
forged, altered or expired one counts for nothing.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from dataclasses import dataclass

LIFETIME = 12 * 3600  # seconds a session lasts; the page logs in again after
PASS_LIFETIME = 120  # seconds a pass lasts; the server renews it every minute


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
        expires = int(_now(now)) + LIFETIME
        return self._seal("session", str(user_id), str(expires), locale, name)

    def verify(self, token: str, now: float | None = None) -> Session | None:
        """The session a token names, or None: forged, malformed or expired."""
        parts = self._open(token, "session", 4)
        if parts is None:
            return None
        user, expires, locale, name = parts
        try:
            session = Session(int(user), name, locale, int(expires))
        except ValueError:
            return None
        return session if session.expires >= _now(now) else None

    def issue_pass(self, user_id: int, channel_id: int, name: str,
                   now: float | None = None) -> str:
        expires = int(_now(now)) + PASS_LIFETIME
        return self._seal("pass", str(user_id), str(channel_id), str(expires), name)

    def verify_pass(self, token: str, user_id: int, channel_id: int,
                    now: float | None = None) -> str | None:
        """The member's name if `token` is a live pass of this user for this channel."""
        parts = self._open(token, "pass", 4)
        if parts is None or parts[:2] != [str(user_id), str(channel_id)]:
            return None
        try:
            expires = int(parts[2])
        except ValueError:
            return None
        return parts[3] if expires >= _now(now) else None

    def _seal(self, kind: str, *fields: str) -> str:
        body = _b64("\n".join((kind, *fields)).encode())
        return f"{body}.{self._sign(body)}"

    def _open(self, token: str, kind: str, count: int) -> list[str] | None:
        body, _, sig = token.partition(".")
        if not body or not hmac.compare_digest(sig, self._sign(body)):
            return None
        try:
            found, *fields = _unb64(body).decode().split("\n", count)
        except (ValueError, UnicodeDecodeError):
            return None
        return fields if found == kind and len(fields) == count else None

    def _sign(self, body: str) -> str:
        return _b64(hmac.new(self._key, body.encode(), hashlib.sha256).digest())


def session_key(bot_token: str, client_secret: str | None) -> bytes:
    """The signing key: derived from secrets only the bot holds."""
    material = f"toep-web-session\n{bot_token}\n{client_secret or ''}".encode()
    return hashlib.sha256(material).digest()


def _now(now: float | None) -> float:
    return time.time() if now is None else now


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, TypeError) as err:
        raise ValueError("malformed token") from err
