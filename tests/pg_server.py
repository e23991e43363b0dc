"""A throw-away PostgreSQL server for the tests and the benchmarks: never a mock.

`PgServer().start()` runs initdb into a new temporary folder and starts the
server with pg_ctl, listening only on a unix socket inside that folder (no
port is taken); `stop()` stops it and removes the folder. `create_database`
makes a database, `url(name)` is the URL of one (tests/conftest.py makes a
fresh one per test; bench/soak.py one per phase).

Binaries, first found wins:
1. `TOEP_PG_BINDIR` (a folder holding initdb, pg_ctl and postgres);
2. the system's: `initdb` on PATH, or `pg_config --bindir`;
3. the pinned `pgserver` package of requirements-dev.txt, which ships them:
   `make test` on a fresh machine needs nothing installed by hand.

PostgreSQL refuses to run as root: as root, the server runs as `nobody`,
owning its folder.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import asyncpg

log = logging.getLogger(__name__)

_TOOLS = ("initdb", "pg_ctl", "postgres")
_SUPERUSER = "postgres"


class PgUnavailable(RuntimeError):
    """No PostgreSQL binaries were found, or the server would not start."""


def find_bindir() -> Path:
    """The folder of initdb, pg_ctl and postgres (see the module's order)."""
    for candidate in _candidates():
        if candidate is not None and all((candidate / tool).exists() for tool in _TOOLS):
            return candidate
    raise PgUnavailable("no PostgreSQL binaries: install the dev requirements "
                        "(requirements-dev.txt pins pgserver, which ships them)")


def _candidates() -> list[Path | None]:
    found: list[Path | None] = []
    if os.environ.get("TOEP_PG_BINDIR"):
        found.append(Path(os.environ["TOEP_PG_BINDIR"]))
    initdb = shutil.which("initdb")
    found.append(Path(initdb).resolve().parent if initdb else None)
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True,
                                 check=True, timeout=10).stdout.strip()
            found.append(Path(out))
    spec = importlib.util.find_spec("pgserver")
    if spec is not None and spec.origin is not None:
        found.append(Path(spec.origin).parent / "pginstall" / "bin")
    return found


class PgServer:
    def __init__(self, *, durable: bool = False) -> None:
        """`durable`: flush every commit to disk (benchmarks); tests skip the flushes."""
        self.bindir = find_bindir()
        self._user = _run_as()
        # Not under pytest's own temporary folder: that one is private to us, and
        # as root the server runs as another user, who must reach its folder.
        self.folder = Path(tempfile.mkdtemp(prefix="toep-pg-"))
        self.data = self.folder / "data"
        self.socket_dir = self.folder
        self.durable = durable
        self.running = False

    def start(self) -> None:
        if self._user is not None:
            os.chown(self.folder, self._user.pw_uid, self._user.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", _SUPERUSER, "--auth=trust",
                  "--encoding=UTF8", "--locale=C", "--no-sync")
        options = [f"-k {self.socket_dir}", "-c listen_addresses=", "-c max_connections=200"]
        if not self.durable:
            options += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "server.log"),
                  "-w", "-t", "60", "-o", " ".join(options), "start")
        self.running = True

    def stop(self) -> None:
        """Stop the server (if it runs) and remove its folder."""
        try:
            if self.running:
                self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
                self.running = False
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{_SUPERUSER}@/{database}?host={self.socket_dir}"

    async def admin(self, statement: str) -> None:
        """Run one statement as the superuser, outside any transaction."""
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(statement)
        finally:
            await conn.close()

    async def create_database(self, name: str, template: str | None = None) -> str:
        """A new database (a copy of `template`, if given); returns its URL."""
        copy = f" TEMPLATE {template}" if template else ""
        await self.admin(f"CREATE DATABASE {name}{copy}")
        return self.url(name)

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bindir / tool), *args]
        user = None if self._user is None else self._user.pw_name
        done = subprocess.run(command, capture_output=True, text=True, user=user,
                              cwd=self.folder, timeout=120, check=False)
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip()[-800:]
            raise PgUnavailable(f"{tool} failed ({done.returncode}): {tail}")


def _run_as() -> pwd.struct_passwd | None:
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("nobody")
    except KeyError as err:
        raise PgUnavailable("running as root, and there is no user 'nobody' to run "
                            "PostgreSQL as (it refuses root)") from err
