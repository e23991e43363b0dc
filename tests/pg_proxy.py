"""A TCP relay in front of a test PostgreSQL server (tests/pg_server.py) whose
network can be cut as a vanished machine's is: `freeze()` stops carrying bytes
either way without closing anything (no reset, no goodbye: the client's writes
still succeed and its reads wait), `thaw()` carries them on. Never a mock: the
server and the driver are real; only the wire between them stalls."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from tests.pg_server import PgServer


class FreezingProxy:
    def __init__(self, server: PgServer) -> None:
        self._socket = str(Path(server.socket_dir) / ".s.PGSQL.5432")
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._server: asyncio.Server | None = None
        self.port = 0

    def url(self, pg_url: str) -> str:
        """`pg_url` (a database of the server) reached through this relay."""
        database = pg_url.split("@/", 1)[1].split("?", 1)[0]
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def freeze(self) -> None:
        self._flowing.clear()

    def thaw(self) -> None:
        self._flowing.set()

    async def __aenter__(self) -> FreezingProxy:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            up_reader, up_writer = await asyncio.open_unix_connection(self._socket)
            await asyncio.gather(self._carry(reader, up_writer), self._carry(up_reader, writer))
        except (OSError, asyncio.CancelledError):
            pass  # a side hung up, or the relay stops: the other side is closed below
        finally:
            self._tasks.discard(task)
            writer.close()

    async def _carry(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while data := await source.read(65536):
                await self._flowing.wait()
                sink.write(data)
                await sink.drain()
        finally:
            with contextlib.suppress(OSError):
                sink.close()
