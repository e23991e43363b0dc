"""Shared state of one fake: settings, store, rate limiter, and helpers to answer requests."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson
from aiohttp import web

from .faults import Faults
from .models import Json, User
from .oauth import OAuth
from .ratelimit import RateLimitConfig, RateLimiter
from .store import Rejection, Store


@dataclass(frozen=True)
class Settings:
    token: str
    ack_limit: float = 3.0  # seconds to acknowledge an interaction
    token_lifetime: float = 15 * 60.0  # seconds an interaction token stays usable
    heartbeat_interval: float = 41.25  # seconds, sent in HELLO
    round_trip: float = 0.1  # seconds a heartbeat's ACK takes to come back
    privileged_intents: int = 0  # intents the application may use (members 1<<1, ...)
    attachment_size_limit: int = 10 * 1024 * 1024
    rate_limits: RateLimitConfig = field(default_factory=RateLimitConfig)
    # Sharding: GET /gateway/bot's advice, and how many guilds one session may carry
    # before its IDENTIFY is closed with 4011 (Discord: 2,500).
    recommended_shards: int = 1
    max_concurrency: int = 1
    max_guilds_per_shard: int = 2500
    activities: bool = False  # the application has an Activity (LAUNCH_ACTIVITY is allowed)


def json_response(
    body: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """Exactly "application/json" (no charset): discord.py compares the header verbatim."""
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    return web.Response(body=dump_json(body), status=status, headers=all_headers)


def dump_json(value: Any) -> bytes:
    """Compact JSON, as Discord sends it; orjson: the load benches' people and
    fake share one process, whose every millisecond shows in their figures."""
    return orjson.dumps(value)


def json_copy(value: Any) -> Any:
    """A copy of decoded JSON (dicts, lists, scalars) that shares nothing with
    `value`; several times faster than `copy.deepcopy`, which needs its memo."""
    if isinstance(value, dict):
        return {key: json_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [json_copy(item) for item in value]
    return value


class Dispatcher(Protocol):
    """The gateway side: lets REST handlers emit events (MESSAGE_CREATE, ...)."""

    async def dispatch(self, event: str, data: Json, *, intent: int = 0) -> None: ...


@dataclass
class Core:
    settings: Settings
    store: Store
    bot: User
    application_id: int
    limiter: RateLimiter
    gateway: Dispatcher
    faults: Faults = field(default_factory=Faults)
    oauth: OAuth = field(init=False)  # codes and Bearer tokens of people (oauth.py)

    def __post_init__(self) -> None:
        self.oauth = OAuth(self.application_id)

    def reject(
        self, request: web.Request, status: int, code: int, message: str, errors: Any = None
    ) -> web.Response:
        """An error answer shaped like Discord's, recorded in store.rejections."""
        self.store.rejections.append(
            Rejection(time.monotonic(), request.method, request.path, status, code, message)
        )
        self.store.touch()
        body: Json = {"message": message, "code": code}
        if errors is not None:
            body["errors"] = errors
        return json_response(body, status=status)

    def invalid(self, request: web.Request, problems: list[str]) -> web.Response:
        """50035 Invalid Form Body; always a bot bug, so also recorded in store.errors."""
        self.store.error(f"{request.method} {request.path}: invalid body: {problems}")
        if any(p.startswith("50006") for p in problems):
            return self.reject(request, 400, 50006, "Cannot send an empty message")
        return self.reject(request, 400, 50035, "Invalid Form Body", {"_errors": problems})
