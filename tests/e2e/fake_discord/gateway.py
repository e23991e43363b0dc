"""The gateway websocket: HELLO, IDENTIFY/READY, GUILD_CREATE, heartbeats, RESUME, dispatch."""

from __future__ import annotations

import asyncio
import json
import secrets
import zlib
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .core import Settings, dump_json
from .faults import Faults
from .models import Json, User
from .shards import UNSHARDED, ShardRefusal, carries, guild_of, identify_shard
from .store import Store

HEARTBEAT, IDENTIFY, RESUME, RECONNECT, REQUEST_MEMBERS = 1, 2, 6, 7, 8
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11
PRESENCE_UPDATE, VOICE_STATE_UPDATE = 3, 4
INTENT_GUILD_MEMBERS = 1 << 1
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)
RESUME_URL = "wss://gateway-us-east1-b.discord.gg"


@dataclass
class Connection:
    """One websocket; its counters let tests check that zlib-stream was really used."""

    ws: web.WebSocketResponse
    query: dict[str, str]
    compress: str | None
    session: Session | None = None
    frames_sent: int = 0
    bytes_json: int = 0
    bytes_wire: int = 0
    heartbeats: int = 0
    close_code: int | None = None
    _zlib: zlib._Compress = field(default_factory=zlib.compressobj)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, payload: Json, sent: Callable[[], None] | None = None) -> None:
        """Send one payload; `sent` is called as it goes out (after any wait for the lock)."""
        raw = dump_json(payload)
        async with self._lock:  # the compression stream must match the frame order
            if self.ws.closed:
                return
            if sent is not None:
                sent()
            self.frames_sent += 1
            self.bytes_json += len(raw)
            try:
                await self._send(raw)
            except ConnectionError:
                # The client went away (a killed process) before the close was
                # seen: as on Discord, a dispatch stays in the session's `sent`
                # for a RESUME, and whoever caused it is not told.
                return

    async def _send(self, raw: bytes) -> None:
        if self.compress == "zlib-stream":
            # One shared stream for the whole connection; SYNC_FLUSH ends each
            # payload with 00 00 ff ff, which is how discord.py finds the boundary.
            data = self._zlib.compress(raw) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
            self.bytes_wire += len(data)
            await self.ws.send_bytes(data)
        else:
            self.bytes_wire += len(raw)
            await self.ws.send_str(raw.decode())

    async def close(self, code: int, reason: str) -> None:
        self.close_code = code
        await self.ws.close(code=code, message=reason.encode())


@dataclass
class Session:
    id: str
    intents: int
    shard: tuple[int, int] = UNSHARDED  # [shard_id, shard_count] from its IDENTIFY
    seq: int = 0
    sent: list[Json] = field(default_factory=list)  # replayed on RESUME
    connection: Connection | None = None


class Gateway:
    def __init__(
        self, settings: Settings, store: Store, bot: User, application_id: int, faults: Faults
    ) -> None:
        self._settings = settings
        self._store = store
        self._bot = bot
        self._application_id = application_id
        self._faults = faults
        self.connections: list[Connection] = []
        self.sessions: dict[str, Session] = {}
        # Set once every shard (of one shard count) identified and got all its guilds.
        self.ready = asyncio.Event()
        self._shards_ready: dict[int, set[int]] = {}  # shard count -> shards that got theirs
        self.identified = 0  # READYs sent (a new READY after an invalidated session counts)
        self.resumed = 0  # RESUMEDs sent
        self._tasks: set[asyncio.Task[None]] = set()

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)  # asyncio keeps only weak references
        task.add_done_callback(self._tasks.discard)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        if self._faults.gateway_down():
            # An outage: the handshake fails, and discord.py backs off and tries again.
            self._faults.record("gateway-refused", request.method, request.path, 503)
            self._store.touch()
            return web.Response(status=503, text="503 Service Unavailable")
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        query = dict(request.query)
        conn = Connection(ws=ws, query=query, compress=query.get("compress"))
        self.connections.append(conn)
        problem = self._query_problem(query)
        if problem:
            self._store.error(f"gateway: {problem}")
            await conn.close(4012 if "version" in problem else 4000, problem)
            return ws
        interval_ms = int(self._settings.heartbeat_interval * 1000)
        await conn.send(
            {"op": HELLO, "d": {"heartbeat_interval": interval_ms}, "s": None, "t": None}
        )
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                self._store.error(f"gateway: unexpected frame type {msg.type}")
                continue
            await self._on_payload(conn, json.loads(msg.data))
        if conn.session is not None and conn.session.connection is conn:
            conn.session.connection = None
        self._store.touch()
        return ws

    @staticmethod
    def _query_problem(query: dict[str, str]) -> str | None:
        if query.get("v") != "10":
            return f"invalid API version {query.get('v')!r}"
        if query.get("encoding", "json") != "json":
            return f"unsupported encoding {query.get('encoding')!r}"
        if query.get("compress") not in (None, "zlib-stream"):
            return f"unsupported compress {query.get('compress')!r}"
        return None

    async def _on_payload(self, conn: Connection, payload: Json) -> None:
        op, data = payload.get("op"), payload.get("d")
        if op == HEARTBEAT:
            conn.heartbeats += 1
            self._spawn(self._ack_heartbeat(conn))
        elif op == IDENTIFY:
            await self._identify(conn, data or {})
        elif op == RESUME:
            await self._resume(conn, data or {})
        elif conn.session is None:
            await conn.close(4003, "Not authenticated.")
        elif op == REQUEST_MEMBERS:
            await self._members_chunk(conn.session, data or {})
        elif op not in (PRESENCE_UPDATE, VOICE_STATE_UPDATE):
            self._store.error(f"gateway: unknown opcode {op}")
            await conn.close(4001, "Unknown opcode.")

    async def _ack_heartbeat(self, conn: Connection) -> None:
        """The ACK comes a network round trip later, as from Discord. discord.py's
        keep-alive thread notes when it sent a beat only once the send is done; an
        ACK faster than that thread measures a latency of the whole interval and
        logs "Can't keep up, websocket is 41.3s behind" at every beat."""
        await asyncio.sleep(self._settings.round_trip)
        await conn.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})

    def _token_ok(self, token: object) -> bool:
        return isinstance(token, str) and token.removeprefix("Bot ") == self._settings.token

    async def _identify(self, conn: Connection, data: Json) -> None:
        if conn.session is not None:
            await conn.close(4005, "Already authenticated.")
            return
        if not self._token_ok(data.get("token")):
            await conn.close(4004, "Authentication failed.")
            return
        intents = data.get("intents")
        if not isinstance(intents, int) or intents < 0:
            await conn.close(4013, "Invalid intent(s).")
            return
        if intents & PRIVILEGED_INTENTS & ~self._settings.privileged_intents:
            await conn.close(4014, "Disallowed intent(s).")
            return
        shard = identify_shard(
            data.get("shard"), list(self._store.guilds), self._settings.max_guilds_per_shard
        )
        if isinstance(shard, ShardRefusal):
            await conn.close(shard.code, shard.reason)
            return
        session = Session(id=secrets.token_hex(16), intents=intents, shard=shard, connection=conn)
        conn.session = session
        self.sessions[session.id] = session
        await self._send_event(session, "READY", self._ready_payload(session))
        self.identified += 1
        self._store.touch()
        # Like Discord: READY lists the guilds as unavailable; each GUILD_CREATE follows.
        self._spawn(self._send_guilds(session, self._guilds_of(session)))

    def _guilds_of(self, session: Session) -> list[int]:
        return [g for g in self._store.guilds if carries(session.shard, g)]

    async def _send_guilds(self, session: Session, guild_ids: list[int]) -> None:
        waited = 0.0
        for guild_id in sorted(guild_ids, key=self._faults.guild_delay):
            delay = self._faults.guild_delay(guild_id)
            await asyncio.sleep(max(0.0, delay - waited))
            waited = max(waited, delay)
            if self.sessions.get(session.id) is session:  # not invalidated meanwhile
                await self._send_event(
                    session, "GUILD_CREATE", self.guild_payload(guild_id, session)
                )
        shard_id, count = session.shard
        ready = self._shards_ready.setdefault(count, set())
        ready.add(shard_id)
        if len(ready) == count:
            self.ready.set()
        self._store.touch()

    def _ready_payload(self, session: Session) -> Json:
        return {
            "v": 10,
            "user": {**self._bot.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g), "unavailable": True} for g in self._guilds_of(session)],
            "shard": list(session.shard),
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": RESUME_URL,
            "application": {"id": str(self._application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "auth": {},
            "_trace": ["fake-discord"],
        }

    def guild_payload(self, guild_id: int, session: Session) -> Json:
        guild = self._store.guilds[guild_id]
        # Without the privileged GUILD_MEMBERS intent Discord sends only the bot itself.
        if session.intents & INTENT_GUILD_MEMBERS:
            members = list(guild.members)
        else:
            members = [m for m in guild.members if m == self._bot.id]
        return guild.payload(members)

    async def _resume(self, conn: Connection, data: Json) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        seq = data.get("seq")
        if session is None or not self._token_ok(data.get("token")) or not isinstance(seq, int):
            await conn.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        delay = self._faults.take_resume_delay()
        if delay > 0:
            # Answered later, in a task: heartbeats on this connection keep being acked.
            self._faults.record("resume-delayed", "RESUME", f"+{delay:g}s", 0)
            self._store.touch()
            self._spawn(self._finish_resume(conn, session, seq, delay))
        else:
            await self._finish_resume(conn, session, seq)

    async def _finish_resume(
        self, conn: Connection, session: Session, seq: int, delay: float = 0.0
    ) -> None:
        await asyncio.sleep(delay)
        if conn.ws.closed or self.sessions.get(session.id) is not session:
            return
        conn.session = session
        session.connection = conn
        for payload in session.sent:
            if payload["s"] > seq:
                await conn.send(payload)
        await self._send_event(session, "RESUMED", {"_trace": ["fake-discord"]})
        self.resumed += 1
        self._store.touch()

    async def _members_chunk(self, session: Session, data: Json) -> None:
        guild = self._store.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        chunk: Json = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in guild.members.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
            "presences": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await self._send_event(session, "GUILD_MEMBERS_CHUNK", chunk)

    async def _send_event(self, session: Session, event: str, data: Json,
                          sent: Callable[[], None] | None = None) -> None:
        session.seq += 1
        payload: Json = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.sent.append(payload)
        if session.connection is not None:
            await session.connection.send(payload, sent)

    async def dispatch(self, event: str, data: Json, *, intent: int = 0,
                       sent: Callable[[], None] | None = None) -> None:
        """Send a DISPATCH to every identified session (that has `intent`, if given)
        whose shard carries the event's guild; `sent` is called as each frame goes out."""
        guild_id = guild_of(event, data)
        for session in list(self.sessions.values()):
            if (intent == 0 or session.intents & intent) and carries(session.shard, guild_id):
                await self._send_event(session, event, data, sent)

    async def dispatch_to(self, session: Session, event: str, data: Json) -> None:
        """Send a DISPATCH to one session, if its shard carries the event's guild."""
        if carries(session.shard, guild_of(event, data)):
            await self._send_event(session, event, data)

    def live_sessions(self, guild_id: int | None = None) -> list[Session]:
        """Sessions with a live connection (those whose shard carries `guild_id`, if given)."""
        return [
            s
            for s in self.sessions.values()
            if s.connection is not None
            and not s.connection.ws.closed
            and carries(s.shard, guild_id)
        ]

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the client must reconnect and RESUME."""
        for session in self.live_sessions():
            assert session.connection is not None
            await session.connection.send({"op": RECONNECT, "d": None, "s": None, "t": None})

    async def drop(self, code: int, *, invalidate: bool) -> None:
        """Close every live connection with `code`; `invalidate` forgets their sessions, so
        the RESUME that follows is answered op 9 and the client identifies anew."""
        for session in self.live_sessions():
            assert session.connection is not None
            connection = session.connection
            session.connection = None  # events from now on wait for the RESUME
            if invalidate:
                self.sessions.pop(session.id, None)
            await connection.close(code, "Fake Discord: connection dropped.")
        self._store.touch()

    async def invalidate_sessions(self) -> None:
        """Send op 9 (not resumable) on every live connection: the client identifies anew."""
        for session in self.live_sessions():
            assert session.connection is not None
            self.sessions.pop(session.id, None)
            await session.connection.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})

    async def close_all(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for conn in self.connections:
            if not conn.ws.closed:
                await conn.close(1001, "Fake Discord stopping.")
