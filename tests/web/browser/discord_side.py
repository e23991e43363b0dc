"""Discord's side of an Activity, for a real browser: a page that holds the
table in an iframe (on another origin, as discordsays.com is) and answers
the Embedded App SDK's handshake as the Discord client does: READY after the
HANDSHAKE, a code for AUTHORIZE (one the fake minted for that person), and
the user for AUTHENTICATE."""

from __future__ import annotations

import json
import socket
from urllib.parse import urlencode

from aiohttp import web

PAGE = """<!doctype html>
<html><head><meta charset="utf-8">
<style>body{margin:0}iframe{border:0;width:100vw;height:100vh}</style></head>
<body><iframe id="app"></iframe>
<script>
const given = %s;
const frame = document.getElementById("app");
window.asked = [];
window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, payload] = event.data;
  const reply = (body) => frame.contentWindow.postMessage([1, body], "*");
  if (opcode === 0) {
    window.asked.push(["HANDSHAKE", payload]);
    reply({cmd: "DISPATCH", evt: "READY", nonce: null, data: {v: 1, config: {}}});
    return;
  }
  if (opcode !== 1) return;
  window.asked.push([payload.cmd, payload.args]);
  if (payload.cmd === "AUTHORIZE") {
    reply({cmd: "AUTHORIZE", evt: null, nonce: payload.nonce, data: {code: given.code}});
  } else if (payload.cmd === "AUTHENTICATE") {
    reply({cmd: "AUTHENTICATE", evt: null, nonce: payload.nonce,
           data: {access_token: payload.args.access_token, user: {id: given.user}}});
  } else {
    reply({cmd: payload.cmd, evt: "ERROR", nonce: payload.nonce,
           data: {code: 4000, message: "unknown"}});
  }
});
frame.src = given.src;
</script></body></html>"""


class DiscordSide:
    """Serves the Discord client's page on localhost (the table is on 127.0.0.1:
    another origin, so the iframe is cross-origin as in Discord)."""

    def __init__(self) -> None:
        self._runner: web.AppRunner | None = None
        self._pages: dict[str, str] = {}
        self.port = 0

    async def start(self) -> DiscordSide:
        app = web.Application()
        app.router.add_get("/activity/{name}", self._page)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def launch(self, name: str, table_port: int, code: str, user_id: int, channel_id: int,
               guild_id: int) -> str:
        """The address of the Activity as Discord would open it for one person."""
        query = urlencode({"frame_id": f"frame-{name}", "instance_id": "i-1",
                           "platform": "desktop", "channel_id": channel_id, "guild_id": guild_id})
        src = f"http://127.0.0.1:{table_port}/.proxy/?{query}"
        self._pages[name] = json.dumps({"code": code, "user": str(user_id), "src": src})
        return f"http://localhost:{self.port}/activity/{name}"

    async def _page(self, request: web.Request) -> web.Response:
        given = self._pages.get(request.match_info["name"])
        if given is None:
            raise web.HTTPNotFound()
        return web.Response(text=PAGE % given, content_type="text/html")
