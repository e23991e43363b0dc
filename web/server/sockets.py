"""One websocket per viewer: a hello with the session and the channel, the
checks, then frames out and clicks in until the page goes.

Close codes: 4401 no valid session (log in again), 4403 not allowed to watch,
4404 no table in that channel, 4408 no hello in time, 4400 a malformed hello,
1013 the bot has only just started and does not know the server yet (try again).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from cogs.i18n import LANGS, lang_for_locale, t
from web.server import actions
from web.server.access import FRESH, Access
from web.server.sessions import Signer
from web.server.viewers import Hub, Viewer

if TYPE_CHECKING:
    from bot import ToepBot
    from tables.table import Table

log = logging.getLogger(__name__)
HELLO_WAIT = 10.0  # seconds
MAX_MESSAGE = 4096  # bytes: a click is a few dozen
HEARTBEAT = 30.0
TRY_AGAIN = 1013  # the websocket's "try again later"


class Sockets:
    def __init__(self, bot: ToepBot, hub: Hub, access: Access, signer: Signer) -> None:
        self._bot = bot
        self._hub = hub
        self._access = access
        self._signer = signer
        self.open: set[web.WebSocketResponse] = set()

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=MAX_MESSAGE)
        await socket.prepare(request)
        self.open.add(socket)
        try:
            viewer = await self._greet(socket)
            if viewer is not None:
                await self._serve(viewer)
        finally:
            self.open.discard(socket)
            await socket.close()
        return socket

    async def close_all(self) -> None:
        for socket in list(self.open):
            await socket.close(code=1001, message=b"the bot is stopping")

    async def _greet(self, socket: web.WebSocketResponse) -> Viewer | None:
        try:
            hello = _json(await asyncio.wait_for(socket.receive(), HELLO_WAIT))
        except TimeoutError:
            await socket.close(code=4408, message=b"no hello")
            return None
        if hello is None or hello.get("type") != "hello":
            await socket.close(code=4400, message=b"malformed hello")
            return None
        session = self._signer.verify(str(hello.get("session", "")))
        # The page's choice of language (its toggle), else the person's Discord one.
        chosen = hello.get("lang")
        lang = lang_for_locale(chosen if chosen in LANGS else
                               session.locale if session else None)
        if session is None:
            await _deny(socket, 4401, t(lang, "web.login_again"))
            return None
        channel = str(hello.get("channel", ""))
        table = self._bot.manager.in_channel(int(channel)) if channel.isdigit() else None
        if table is None:
            await _deny(socket, 4404, t(lang, "web.no_table"))
            return None
        shown = hello.get("pass")
        verdict = await self._access.check(table.row.guild_id, table.row.channel_id,
                                           session.user_id,
                                           shown=shown if isinstance(shown, str) else "")
        if verdict.later:  # just started: the page tries again, as after a drop
            await socket.close(code=TRY_AGAIN, message=b"try again later")
            return None
        if verdict.refusal is not None:
            await _deny(socket, 4403, t(lang, verdict.refusal))
            return None
        viewer = Viewer(socket, session.user_id, verdict.name, lang, table.id)
        await viewer.send({"type": "welcome", "user": str(session.user_id),
                           "name": verdict.name, "lang": lang,
                           "pass": self._access.ticket(table.row.channel_id, session.user_id,
                                                       verdict.name)})
        return viewer

    async def _serve(self, viewer: Viewer) -> None:
        table = self._bot.manager.get(viewer.table_id)
        if table is None:
            return
        self._hub.add(viewer, table)
        loop = asyncio.get_running_loop()
        sender = loop.create_task(viewer.run())
        checker = loop.create_task(self._keep_checking(viewer, table))
        try:
            async for message in viewer.socket:
                if message.type is not WSMsgType.TEXT:
                    break
                request = _json(message)
                if request is None or request.get("type") != "act":
                    continue  # a page of a newer or older make: ignored
                await actions.act(self._bot, self._access, table, viewer, request)
        finally:
            self._hub.remove(viewer)
            for task in (sender, checker):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                    await task

    async def _keep_checking(self, viewer: Viewer, table: Table) -> None:
        """Discord is asked again every minute (the first at a random moment, so
        pages that came together are not asked for together): a member who left
        the server or lost sight of the channel stops watching; the others get
        a fresh pass."""
        await asyncio.sleep(random.uniform(0.5, 1.0) * FRESH)
        while not viewer.socket.closed:
            verdict = await self._access.check(table.row.guild_id, table.row.channel_id,
                                               viewer.user_id, fresh=True)
            if verdict.refusal is not None and not verdict.later:
                await _deny(viewer.socket, 4403, t(viewer.lang, verdict.refusal))
                return
            if verdict.refusal is None:
                await viewer.send({"type": "pass", "pass": self._access.ticket(
                    table.row.channel_id, viewer.user_id, verdict.name)})
            await asyncio.sleep(FRESH)


async def _deny(socket: web.WebSocketResponse, code: int, text: str) -> None:
    await socket.send_str(json.dumps({"type": "denied", "text": text}))
    await socket.close(code=code, message=b"denied")  # the text went in the frame


def _json(message: Any) -> dict[str, Any] | None:
    if getattr(message, "type", None) is not WSMsgType.TEXT:
        return None
    try:
        value = json.loads(message.data)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
