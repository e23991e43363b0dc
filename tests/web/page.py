"""A page of the web table without a browser: logs in as the Embedded App
SDK would (a code from the fake's "Authorize", exchanged at POST /api/token),
opens the websocket, keeps every frame it receives, and clicks."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from tests.e2e.fake_discord import FakeDiscord, User
from tests.e2e.toep_world import World

Frame = dict[str, Any]


@dataclass
class Page:
    http: aiohttp.ClientSession
    base: str  # http://127.0.0.1:<port>/.proxy (or without the prefix)
    user: User | None = None
    frames: list[Frame] = field(default_factory=list)  # every "table" frame, in order
    notes: list[Frame] = field(default_factory=list)  # welcome, refused, denied
    socket: aiohttp.ClientWebSocketResponse | None = None
    close_code: int | None = None
    _reader: asyncio.Task[None] | None = None
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def login(self, fake: FakeDiscord, user: User) -> str:
        """The SDK's authorize (the fake's code), then the page's POST /api/token."""
        self.user = user
        async with self.http.post(f"{self.base}/api/token",
                                  json={"code": fake.authorize(user)}) as res:
            assert res.status == 200, await res.text()
            body = await res.json()
        assert body["user"] == str(user.id)
        return str(body["session"])

    async def open(self, session: str, channel_id: int, ticket: str = "",
                   lang: str | None = None) -> None:
        """The websocket's hello; `ticket`: a pass the server gave earlier;
        `lang`: the page's language toggle (else the person's Discord one)."""
        self.socket = await self.http.ws_connect(f"{self.base}/ws")
        hello = {"type": "hello", "session": session, "channel": str(channel_id),
                 "pass": ticket}
        await self.socket.send_json(hello if lang is None else {**hello, "lang": lang})
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def enter(self, fake: FakeDiscord, user: User, channel_id: int,
                    lang: str | None = None) -> Page:
        await self.open(await self.login(fake, user), channel_id, lang=lang)
        await self.wait(lambda: self.frames or self.close_code is not None)
        return self

    async def _read(self) -> None:
        assert self.socket is not None
        async for message in self.socket:
            if message.type is aiohttp.WSMsgType.TEXT:
                frame = json.loads(message.data)
                (self.frames if frame["type"] == "table" else self.notes).append(frame)
                self._changed.set()
        self.close_code = self.socket.close_code
        self._changed.set()

    @property
    def last(self) -> Frame:
        assert self.frames, "no frame yet"
        return self.frames[-1]

    async def wait(self, predicate: Callable[[], object], timeout: float = 10.0) -> None:
        async def loop() -> None:
            while not predicate():
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(loop(), timeout)

    async def note(self, kind: str) -> Frame:
        """The next message of `kind` ("refused", "denied") at the end of the notes."""
        await self.wait(lambda: self.notes and self.notes[-1]["type"] == kind)
        return self.notes[-1]

    async def act(self, verb: str, card: str | None = None, stamp: str | None = None) -> None:
        assert self.socket is not None
        await self.socket.send_json({"type": "act", "verb": verb, "card": card,
                                     "stamp": self.last["stamp"] if stamp is None else stamp})

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)


def base_url(world: World, proxy: bool = True) -> str:
    """The web table's address in `world`, behind Discord's prefix or not."""
    assert world.bot is not None and world.bot.web is not None
    return f"http://127.0.0.1:{world.bot.web.port}{'/.proxy' if proxy else ''}"
