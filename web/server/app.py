"""The web table's server in the bot process: the client's files, the login
(`POST /api/token`, and `POST /api/dev-login` only when WEB_DEV_LOGIN is on),
the page's settings (`GET /api/config`) and the websocket (`GET /ws`). Every
path answers also under `/.proxy/`, the prefix Discord's Activity proxy adds."""

from __future__ import annotations

import logging
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp
from aiohttp import web

from cogs.i18n import catalog, lang_for_locale
from config import WebSettings
from web.server.access import Access
from web.server.oauth import LoginFailed, exchange
from web.server.remote import middleware
from web.server.sessions import Signer, session_key
from web.server.sockets import Sockets
from web.server.throttle import Throttle
from web.server.viewers import Hub

if TYPE_CHECKING:
    from bot import ToepBot

log = logging.getLogger(__name__)
CLIENT = Path(__file__).resolve().parent.parent / "client"
PREFIXES = ("", "/.proxy")
MAX_BODY = 4096  # bytes: a login is a code
# The catalog keys the page shows: its own, the buttons', and a few shared words.
PAGE_KEYS = ("page.", "btn.", "kind.", "marks.", "suit.", "rank.")


class WebUnavailable(Exception):
    """The web table's address cannot be used; the message is one line for the operator."""


class WebTable:
    def __init__(self, bot: ToepBot, settings: WebSettings) -> None:
        self._bot = bot
        self.settings = settings
        self.hub = Hub()
        self.signer = Signer(session_key(bot.settings.discord_token, settings.client_secret))
        self.access = Access(bot, self.signer)
        self.sockets = Sockets(bot, self.hub, self.access, self.signer)
        self.logins = Throttle()
        self._http: aiohttp.ClientSession | None = None
        self._runner: web.AppRunner | None = None
        self.port = settings.port  # the bound one once started (0: any free port)

    async def start(self) -> None:
        # Discord is asked through the bot's own connections (and, in tests,
        # its fake): the same resolver, certificates and pools.
        self._http = aiohttp.ClientSession(connector=self._bot.http.connector,
                                           connector_owner=False)
        self._runner = web.AppRunner(self._app(), access_log=None, handle_signals=False)
        await self._runner.setup()
        # Bound here, so the port is known when it was 0 (tests, benches).
        host = self.settings.host.strip("[]")
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, self.settings.port))
        except OSError as err:
            sock.close()
            await self.stop()
            raise WebUnavailable(f"the web table cannot listen on {self.settings.host}:"
                                 f"{self.settings.port}: {err.strerror or err} "
                                 "(WEB_HOST, WEB_PORT)") from err
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        if self.settings.dev_login:
            log.warning("the web table's development login is on: anyone who can reach "
                        "port %d may act as any member (WEB_DEV_LOGIN)", self.port)
        log.info("the web table listens on %s:%d", self.settings.host, self.port)

    async def stop(self) -> None:
        await self.sockets.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._http is not None:
            await self._http.close()
            self._http = None

    def _app(self) -> web.Application:
        # Behind the operator's proxy, a request's `remote` is the client's address.
        trusted = self.settings.trusted_proxies
        app = web.Application(client_max_size=MAX_BODY,
                              middlewares=[middleware(trusted)] if trusted else [])
        for prefix in PREFIXES:
            app.router.add_get(prefix + "/", self._index)
            app.router.add_get(prefix + "/api/config", self._config)
            app.router.add_get(prefix + "/api/texts", self._texts)
            app.router.add_post(prefix + "/api/token", self._token)
            app.router.add_post(prefix + "/api/dev-login", self._dev_login)
            app.router.add_get(prefix + "/ws", self.sockets.handle)
            app.router.add_static(prefix + "/static", CLIENT / "static")
        return app

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(CLIENT / "index.html", headers={"Cache-Control": "no-cache"})

    async def _config(self, request: web.Request) -> web.Response:
        client_id = self.settings.client_id
        return web.json_response({"client_id": None if client_id is None else str(client_id),
                                  "dev_login": self.settings.dev_login})

    async def _texts(self, request: web.Request) -> web.Response:
        """The page's words in one language, from locales/ like every other text."""
        lang = lang_for_locale(request.query.get("lang", ""))
        words = {key: text for key, text in catalog(lang).items() if key.startswith(PAGE_KEYS)}
        return web.json_response({"lang": lang, "texts": words},
                                 headers={"Cache-Control": "max-age=300"})

    async def _token(self, request: web.Request) -> web.Response:
        """The SDK's code for a session and the access token the SDK needs."""
        body = await _body(request)
        code = body.get("code")
        settings = self.settings
        if settings.client_id is None or settings.client_secret is None or self._http is None:
            return _problem(404, "the Discord login is not configured here")
        if not isinstance(code, str) or not 0 < len(code) <= 200:
            return _problem(400, "a code is needed")
        wait = self.logins.wait_for(request.remote or "")
        if wait is not None:
            return _problem(429, "too many logins: try again shortly",
                            {"Retry-After": str(round(wait))})
        try:
            person = await exchange(self._http, settings.client_id, settings.client_secret, code)
        except LoginFailed as err:
            log.info("a web table login failed: %s", err)
            return _problem(403, "Discord did not accept the login")
        finally:
            self.logins.done()
        return web.json_response({
            "session": self.signer.issue(person.user_id, person.name, person.locale),
            "access_token": person.access_token, "user": str(person.user_id)})

    async def _dev_login(self, request: web.Request) -> web.Response:
        """Local play in a plain browser: the page names the member. Off
        (not found) unless WEB_DEV_LOGIN is on; never in production."""
        if not self.settings.dev_login:
            raise web.HTTPNotFound()
        body = await _body(request)
        user = str(body.get("user", ""))
        if not user.isdigit() or not 15 <= len(user) <= 20:
            return _problem(400, "a user id (15-20 digits) is needed")
        locale = str(body.get("locale", "en-US"))[:10]
        return web.json_response({"session": self.signer.issue(int(user), user, locale),
                                  "user": user})


async def _body(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _problem(status: int, text: str, headers: dict[str, str] | None = None) -> web.Response:
    return web.json_response({"error": text}, status=status, headers=headers)
