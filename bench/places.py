"""Where a benchmark's databases live: SQLite files in the run's folder, or
databases of a PostgreSQL server started for the run (tests/pg_server.py,
durable: every commit flushed, as SQLite's synchronous=FULL). Used by
bench/soak.py (one database per phase) and bench/e2e_load.py (one for all of
its bot processes)."""

from __future__ import annotations

from pathlib import Path

from tests.pg_server import PgServer

BACKENDS = ("sqlite", "postgres")


class Places:
    def __init__(self, backend: str, folder: Path) -> None:
        """`backend`: "sqlite" or "postgres" (a server of its own, started on enter)."""
        if backend not in BACKENDS:
            raise ValueError(f"unknown database backend {backend!r}: one of {BACKENDS}")
        self.folder = folder
        self.server = PgServer(durable=True) if backend == "postgres" else None

    async def __call__(self, name: str) -> str | Path:
        """A new database called `name`: a file's path, or a PostgreSQL URL."""
        if self.server is None:
            return self.folder / f"{name}.sqlite3"
        return await self.server.create_database(name)

    def postmaster(self) -> int | None:
        """The PostgreSQL server's main process (bench/cpu.py measures its tree)."""
        if self.server is None:
            return None
        return int((self.server.data / "postmaster.pid").read_text().split()[0])

    def __enter__(self) -> Places:
        if self.server is not None:
            self.server.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.server is not None:
            self.server.stop()
