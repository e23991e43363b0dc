"""Faults a test switches on (see controls.py): storms of 5xx and 429 answers, gateway
outages, late resumes, late guilds. Answers are shaped as Discord sends them."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from typing import Any

# The routes that change a message the bot already sent ("edits").
EDIT_ROUTES = frozenset(
    {
        "PATCH /channels/{channel_id}/messages/{message_id}",
        "PATCH /webhooks/{application_id}/{token}/messages/{message_id}",
    }
)
# The routes that send a new message: a REST outage (`fail_edits(posts=True)`) fails
# these too. Interaction callbacks are left out: the gateway's half of Discord.
POST_ROUTES = frozenset(
    {
        "POST /channels/{channel_id}/messages",
        "POST /webhooks/{application_id}/{token}",
    }
)
_SERVER_ERRORS = {
    500: "500: Internal Server Error",
    502: "502: Bad Gateway",
    503: "503: Service Unavailable",
    504: "504: Gateway Timeout",
}


@dataclass
class Storm:
    """Answer matching requests `status` for `times` requests and/or until `until`."""

    status: int  # 429 or 5xx
    retry_after: float | None  # 429 only; None: the rest of the storm (at least 1 s)
    is_global: bool  # 429 only: Discord's global limit, on every authenticated bot route
    channel_id: int | None  # edits in this channel only; None: every channel
    times: int | None
    until: float | None
    posts: bool = False  # new messages fail too, not only edits

    def active(self, now: float) -> bool:
        return (self.times is None or self.times > 0) and (self.until is None or now < self.until)

    def matches(self, route: str, channel_id: int | None, authenticated: bool) -> bool:
        if self.is_global:  # interaction callbacks and webhooks are outside the global limit
            return authenticated
        wanted = self.channel_id is None or channel_id == self.channel_id
        return (route in EDIT_ROUTES or (self.posts and route in POST_ROUTES)) and wanted

    def answer(self, now: float) -> tuple[dict[str, Any], dict[str, str]]:
        """The body and headers of this storm's next answer (its status is `status`)."""
        if self.times is not None:
            self.times -= 1
        if self.status != 429:
            message = _SERVER_ERRORS.get(self.status, f"{self.status}: Server Error")
            return {"message": message, "code": 0}, {}
        retry = self.retry_after_at(now)
        body: dict[str, Any] = {"message": "You are being rate limited.", "retry_after": retry}
        headers = {"Retry-After": str(max(1, round(retry)))}
        if self.is_global:
            body["global"] = True
            headers |= {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
        else:
            body["global"] = False
            headers |= _bucket_headers(retry)
        return body | {"code": 0}, headers

    def retry_after_at(self, now: float) -> float:
        if self.retry_after is not None:
            return self.retry_after
        return round(max(1.0, (self.until or now) - now), 3)


def _bucket_headers(retry: float) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{time.time() + retry:.3f}",
        "X-RateLimit-Reset-After": f"{retry:.3f}",
        "X-RateLimit-Bucket": hashlib.sha1(b"message_edit").hexdigest()[:16],
        "X-RateLimit-Scope": "user",
    }


@dataclass(frozen=True)
class FaultHit:
    """One answer a fault gave: a storm's 5xx/429, a refused gateway connection, ..."""

    at: float  # time.monotonic()
    kind: str  # "5xx", "429", "429-global", "gateway-refused", "resume-delayed", ...
    method: str
    path: str
    status: int


@dataclass
class Faults:
    storms: list[Storm] = field(default_factory=list)
    gateway_down_until: float = 0.0  # monotonic; new gateway connections refused until then
    resume_delay: float = 0.0  # the next RESUME is answered this much later (one-shot)
    guild_create_delay: float = 0.01  # seconds from READY to each GUILD_CREATE
    guild_delays: dict[int, float] = field(default_factory=dict)  # per guild, overrides
    late_interactions: int = 0  # the next ones reach the bot after their 3 seconds
    hits: list[FaultHit] = field(default_factory=list)

    def storm_for(
        self, route: str, channel_id: int | None, authenticated: bool
    ) -> Storm | None:
        now = time.monotonic()
        self.storms = [s for s in self.storms if s.active(now)]
        for storm in self.storms:
            if storm.matches(route, channel_id, authenticated):
                return storm
        return None

    def gateway_down(self) -> bool:
        return time.monotonic() < self.gateway_down_until

    def take_resume_delay(self) -> float:
        delay, self.resume_delay = self.resume_delay, 0.0
        return delay

    def guild_delay(self, guild_id: int) -> float:
        return self.guild_delays.get(guild_id, self.guild_create_delay)

    def record(self, kind: str, method: str, path: str, status: int) -> None:
        self.hits.append(FaultHit(time.monotonic(), kind, method, path, status))
