"""The HTTPS server: one catch-all handler that routes REST, the gateway and the CDN."""

from __future__ import annotations

import re
import socket
import ssl
import time
from collections.abc import Awaitable, Callable

from aiohttp import hdrs, web

from . import rest_app, rest_interactions, rest_messages
from .bodies import BadBody, parse_body
from .core import Core, json_response
from .gateway import Gateway
from .router import Call, Route, find_route
from .store import RateLimitHit

API_PREFIX = "/api/v10"
# Discord answers the token endpoint with and without the API version.
TOKEN_PATHS = ("/api/oauth2/token", API_PREFIX + "/oauth2/token")
ROUTES: list[Route] = [*rest_app.ROUTES, *rest_messages.ROUTES, *rest_interactions.ROUTES]
_CDN_PATH = re.compile(r"/attachments/(\d+)/(\d+)/[^/]+")
RATELIMIT_HEADERS = web.RequestKey("ratelimit_headers", dict[str, str])
GATEWAY_HOSTS = ("gateway.discord.gg", "gateway-us-east1-b.discord.gg")
BACKLOG = 4096  # pending connections the listening socket holds (the kernel may cap it)


class Server:
    def __init__(self, core: Core, gateway: Gateway, server_ssl: ssl.SSLContext) -> None:
        self._core = core
        self._gateway = gateway
        self._ssl = server_ssl
        self._runner: web.AppRunner | None = None
        self.port = 0

    async def start(self) -> None:
        app = web.Application(middlewares=[_via_header])
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))  # a random free port, known before serving
        self.port = sock.getsockname()[1]
        # Discord's edge takes any burst of new connections; the default backlog
        # (128) dropped SYNs when hundreds of clicks were acknowledged at once
        # (bench/e2e_load.py at 800 tables), each retried by TCP a second later.
        await web.SockSite(self._runner, sock, ssl_context=self._ssl, backlog=BACKLOG).start()

    async def stop(self) -> None:
        await self._gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        host = (request.host or "").split(":")[0]
        if host in GATEWAY_HOSTS and request.headers.get(hdrs.UPGRADE, "").lower() == "websocket":
            return await self._gateway.handle(request)
        if host in ("cdn.discordapp.com", "media.discordapp.net"):
            return self._cdn(request)
        if host == "discord.com" and request.path in TOKEN_PATHS and request.method == "POST":
            return await self._core.oauth.token(request)
        if host == "discord.com" and request.path.startswith(API_PREFIX + "/"):
            return await self._api(request, request.path.removeprefix(API_PREFIX))
        return self._unknown(request)

    def _unknown(self, request: web.Request) -> web.Response:
        self._core.store.error(f"unknown route: {request.method} {request.host}{request.path_qs}")
        return json_response({"message": "404: Not Found", "code": 0}, status=404)

    def _cdn(self, request: web.Request) -> web.Response:
        found = _CDN_PATH.fullmatch(request.path)
        message_attachments = [a for m in self._core.store.messages.values() for a in m.attachments]
        for attachment in message_attachments:
            if found and attachment.id == int(found.group(2)):
                return web.Response(body=attachment.data, content_type=attachment.content_type)
        return self._unknown(request)

    async def _api(self, request: web.Request, path: str) -> web.StreamResponse:
        matched = find_route(ROUTES, request.method, path)
        if matched is None:
            return self._unknown(request)
        route, params = matched
        core = self._core
        if route.bearer and request.headers.get(hdrs.AUTHORIZATION, "").startswith("Bearer "):
            return self._as_person(request)
        if route.auth and request.headers.get(hdrs.AUTHORIZATION) != f"Bot {core.settings.token}":
            return core.reject(request, 401, 0, "401: Unauthorized")
        faulted = self._channel_problem(request, route, params) or self._storm(
            request, route, params
        )
        if faulted is not None:
            return faulted
        limited = self._rate_limit(request, route, params)
        if limited is not None:
            return limited
        try:
            body, uploads = await parse_body(request)
        except BadBody as exc:
            core.store.error(f"{request.method} {request.path}: {exc}")
            return core.reject(request, 400, 50109, "The request body contains invalid JSON.")
        response = await route.handler(core, Call(request, params, body, uploads, route.name))
        core.store.requests.append((time.monotonic(), request.method, path, response.status))
        return response

    def _as_person(self, request: web.Request) -> web.Response:
        """GET /users/@me with a person's OAuth2 token: who they are (scope identify)."""
        core = self._core
        user = core.oauth.bearer(request.headers.get(hdrs.AUTHORIZATION))
        if user is None:
            return core.reject(request, 401, 0, "401: Unauthorized")
        return json_response({**user.payload(), "locale": user.locale, "mfa_enabled": False,
                              "flags": 0, "premium_type": 0})

    def _channel_of(self, route: Route, params: dict[str, str]) -> int | None:
        """The channel a request acts on: from the path, or an interaction webhook's token."""
        if "channel_id" in params:
            return int(params["channel_id"])
        record = self._core.store.by_token.get(params.get("token", ""))
        return record.channel_id if record is not None and route.bucket == "webhook" else None

    def _channel_problem(
        self, request: web.Request, route: Route, params: dict[str, str]
    ) -> web.Response | None:
        """A deleted channel answers every route 10003; one the bot cannot see, 50001."""
        core = self._core
        channel_id = self._channel_of(route, params)
        if channel_id is None:
            return None
        channel = core.store.channels.get(channel_id)
        if channel is None or channel.deleted:
            return core.reject(request, 404, 10003, "Unknown Channel")
        guild = core.store.guilds[channel.guild_id]
        # Interaction webhooks act for the application, not the bot member: no permissions.
        sees = guild.permissions_in(core.bot.id, channel) & rest_messages.VIEW_CHANNEL
        if route.auth and not sees:
            return core.reject(request, 403, 50001, "Missing Access")
        return None

    def _storm(
        self, request: web.Request, route: Route, params: dict[str, str]
    ) -> web.Response | None:
        core = self._core
        storm = core.faults.storm_for(route.name, self._channel_of(route, params), route.auth)
        if storm is None:
            return None
        now = time.monotonic()
        body, headers = storm.answer(now)
        if storm.status == 429:
            bucket = "global" if storm.is_global else route.bucket
            core.store.rate_limit_hits.append(
                RateLimitHit(now, request.method, request.path, bucket, body["retry_after"], True)
            )
        kind = "5xx" if storm.status != 429 else "429-global" if storm.is_global else "429"
        core.faults.record(kind, request.method, request.path, storm.status)
        core.store.touch()
        return json_response(body, status=storm.status, headers=headers)

    def _rate_limit(
        self, request: web.Request, route: Route, params: dict[str, str]
    ) -> web.Response | None:
        if not route.bucket:
            return None
        major = params.get(route.major, route.template)
        verdict = self._core.limiter.check(
            request.method, request.path.removeprefix(API_PREFIX), route.bucket, major
        )
        if verdict.allowed:
            request[RATELIMIT_HEADERS] = verdict.headers
            return None
        self._core.store.rate_limit_hits.append(
            RateLimitHit(
                time.monotonic(),
                request.method,
                request.path,
                route.bucket,
                verdict.retry_after,
                verdict.injected,
            )
        )
        self._core.store.touch()
        body = {
            "message": "You are being rate limited.",
            "retry_after": verdict.retry_after,
            "global": False,
        }
        return json_response(body, status=429, headers=verdict.headers)


@web.middleware
async def _via_header(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    # discord.py treats a 429 without "Via" as a Cloudflare ban, so every answer has it.
    response = await handler(request)
    if not isinstance(response, web.WebSocketResponse):
        response.headers["Via"] = "1.1 google"
        response.headers.update(request.get(RATELIMIT_HEADERS, {}))
    return response
