"""A tiny route table for /api/v10, so unknown routes can be answered 404 and recorded."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from .bodies import Upload
from .core import Core


@dataclass(frozen=True)
class Call:
    request: web.Request
    params: dict[str, str]
    body: Any
    uploads: list[Upload]
    route: str  # e.g. "PATCH /channels/{channel_id}/messages/{message_id}"

    def param(self, name: str) -> int:
        return int(self.params[name])

    def json(self) -> dict[str, Any]:
        return self.body if isinstance(self.body, dict) else {}


Handler = Callable[[Core, Call], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class Route:
    method: str
    template: str
    handler: Handler
    bucket: str = "default"  # a RateLimitConfig field name, or "" for no limit
    major: str = ""  # the parameter that separates buckets (channel_id, token, ...)
    auth: bool = True  # needs "Authorization: Bot <token>"
    bearer: bool = False  # also answers a person's "Authorization: Bearer <token>"

    def match(self, method: str, path: str) -> dict[str, str] | None:
        if method != self.method:
            return None
        found = _compile(self.template).fullmatch(path)
        return None if found is None else found.groupdict()

    @property
    def name(self) -> str:
        return f"{self.method} {self.template}"


_cache: dict[str, re.Pattern[str]] = {}


def _compile(template: str) -> re.Pattern[str]:
    if template not in _cache:
        pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template)
        _cache[template] = re.compile(pattern)
    return _cache[template]


def find_route(routes: list[Route], method: str, path: str) -> tuple[Route, dict[str, str]] | None:
    for route in routes:
        params = route.match(method, path)
        if params is not None:
            return route, params
    return None
