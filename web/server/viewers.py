"""The viewers of each table and what they are sent.

The hub is a table listener beside the presenter: after every committed
change (under the table's lock, so it must not block) it builds the public
frame once per language and each seated viewer's own part from that seat's
update, and leaves the newest frame in each viewer's slot. A viewer's own
task sends it: a slow page skips states rather than queueing them, and never
holds up the table or the others.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from aiohttp import web

from engine.events import Happening
from tables.log_safe import log_failure
from tables.snapshot import SeatUpdate, Status, TableSnapshot
from tables.table_deps import TableListener
from web.server.frames import Json, seat_frame, table_frame

if TYPE_CHECKING:
    from tables.table import Table

log = logging.getLogger(__name__)
OPEN = (Status.LOBBY, Status.PLAYING)


@dataclass(eq=False)
class Viewer:
    socket: web.WebSocketResponse
    user_id: int
    name: str
    lang: str
    table_id: int
    _latest: str | None = None
    _ready: asyncio.Event = field(default_factory=asyncio.Event)

    def show(self, frame: str) -> None:
        self._latest = frame
        self._ready.set()

    async def send(self, frame: Json) -> None:
        """A message of its own (a refusal, a welcome), sent now."""
        await self.socket.send_str(json.dumps(frame))

    async def run(self) -> None:
        """Send the newest frame whenever there is one, until the socket closes."""
        while not self.socket.closed:
            await self._ready.wait()
            self._ready.clear()
            frame, self._latest = self._latest, None
            if frame is not None and not self.socket.closed:
                await self.socket.send_str(frame)


@dataclass(frozen=True)
class Told:
    """A table as last told: what a viewer who arrives now is shown."""

    snap: TableSnapshot
    updates: dict[int, SeatUpdate]  # by user id


class Hub:
    def __init__(self) -> None:
        self._viewers: dict[int, set[Viewer]] = {}
        self._told: dict[int, Told] = {}
        self.frames_sent = 0  # frames built for viewers (bench/web_table.py)

    def viewers(self, table_id: int) -> set[Viewer]:
        return self._viewers.get(table_id, set())

    def add(self, viewer: Viewer, table: Table) -> None:
        self._viewers.setdefault(viewer.table_id, set()).add(viewer)
        told = self._told.get(table.id)
        if told is None:  # nothing changed since the start: the table as it is
            updates = [u for s in table.seats if (u := table.seat_update(s.index)) is not None]
            told = Told(table.snapshot(), {u.user_id: u for u in updates})
        self._show(viewer, told, {})

    def remove(self, viewer: Viewer) -> None:
        viewers = self._viewers.get(viewer.table_id)
        if viewers is not None:
            viewers.discard(viewer)
            if not viewers:
                del self._viewers[viewer.table_id]

    async def table_changed(self, table: Table, snap: TableSnapshot,
                            updates: Sequence[SeatUpdate],
                            happenings: Sequence[Happening]) -> None:
        told = Told(snap, {u.user_id: u for u in updates})
        if snap.status in OPEN:
            self._told[table.id] = told
        else:
            self._told.pop(table.id, None)
        publics: dict[str, Json] = {}
        for viewer in self._viewers.get(table.id, ()):
            self._show(viewer, told, publics)

    def _show(self, viewer: Viewer, told: Told, publics: dict[str, Json]) -> None:
        public = publics.get(viewer.lang)
        if public is None:
            public = publics[viewer.lang] = table_frame(told.snap, told.snap.recent, viewer.lang)
        # The seat's own part goes only to the person sitting in it (by user id).
        update = told.updates.get(viewer.user_id)
        me = None if update is None else seat_frame(told.snap, update.view)
        viewer.show(json.dumps({"type": "table", **public, "me": me}))
        self.frames_sent += 1


class Listeners:
    """Tells the presenter, then the hub: a table has one listener."""

    def __init__(self, *listeners: TableListener) -> None:
        self._all = listeners

    async def table_changed(self, table: Table, snap: TableSnapshot,
                            updates: Sequence[SeatUpdate],
                            happenings: Sequence[Happening]) -> None:
        for listener in self._all:
            try:
                await listener.table_changed(table, snap, updates, happenings)
            except Exception:  # the next one is still told
                log_failure(log, logging.ERROR, "table %s: a listener failed", table.id)
