"""Numbered schema migrations: data/migrations/NNNN_name.sql.

Each file is applied in its own transaction together with its row in
`schema_migrations`, so a migration is either wholly applied and recorded or
not at all. Applied files are never edited: a changed checksum stops start-up.
"""

from __future__ import annotations

import hashlib
import logging
import re
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from data import pg_schema
from data.errors import MigrationError
from data.sql import POSTGRESQL, STATEMENT_ERRORS, Connection
from data.times import to_db

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

_BOOTSTRAP = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    checksum   TEXT NOT NULL,
    applied_at TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()

    @property
    def label(self) -> str:
        return f"{self.version:04d}_{self.name}"


def discover(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migrations in a folder, in order; numbers must run 1, 2, 3 ... without gaps."""
    found: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        match = _FILE_NAME.match(path.name)
        if match is None:
            raise MigrationError(f"{path}: migration file names look like 0001_name.sql")
        found.append(Migration(int(match[1]), match[2], path.read_text(encoding="utf-8")))
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise MigrationError(
                f"{directory}: expected migration {expected:04d}, found {migration.label}"
            )
    return found


def split_statements(sql: str) -> list[str]:
    """The statements of a script, each ending where sqlite3 says one is complete.

    executescript() would commit our open transaction first, so statements are
    run one by one inside it instead.
    """
    statements: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if _strip_comments(buffer):
        raise MigrationError(f"incomplete SQL statement at the end: {buffer.strip()[:80]!r}")
    return statements


def _strip_comments(sql: str) -> str:
    lines = (line.split("--", 1)[0] for line in sql.splitlines())
    return "".join(lines).strip()


async def applied_versions(conn: Connection) -> dict[int, str]:
    """Version -> checksum of every migration recorded in the database."""
    rows = await conn.execute_fetchall("SELECT version, checksum FROM schema_migrations")
    return {int(row[0]): str(row[1]) for row in rows}


async def apply_migrations(conn: Connection, migrations: list[Migration]) -> list[int]:
    """Apply the migrations not yet applied; return the versions applied now."""
    if conn.dialect is POSTGRESQL:
        # Several processes may start at once on one server: they take turns.
        await _in_transaction(conn, _BOOTSTRAP, "the bootstrap of schema_migrations")
    else:
        await conn.execute(_BOOTSTRAP)
    done = await applied_versions(conn)
    _check_applied(done, migrations)
    applied: list[int] = []
    for migration in migrations:
        if migration.version in done:
            continue
        if await _apply_one(conn, migration):
            applied.append(migration.version)
            log.info("applied migration %s", migration.label)
    return applied


def statements_for(conn: Connection, sql: str) -> list[str]:
    """The statements of a migration script in the connection's dialect."""
    statements = split_statements(sql)
    if conn.dialect is not POSTGRESQL:
        return statements
    return [pg for statement in statements for pg in pg_schema.statement(statement)]


def _check_applied(done: dict[int, str], migrations: list[Migration]) -> None:
    known = {m.version: m for m in migrations}
    for version, checksum in sorted(done.items()):
        migration = known.get(version)
        if migration is None:
            raise MigrationError(
                f"the database has migration {version:04d}, which this code does not know "
                f"(newest known: {len(migrations):04d}); refusing to run an older bot on it"
            )
        if migration.checksum != checksum:
            raise MigrationError(
                f"migration {migration.label} was changed after it was applied; "
                "add a new migration instead of editing a landed one"
            )


async def _apply_one(conn: Connection, migration: Migration) -> bool:
    """Apply one migration; False if another process applied it meanwhile."""
    statements = statements_for(conn, migration.sql)
    await conn.execute(conn.dialect.begin)
    try:
        # Processes starting together on one PostgreSQL take turns here.
        await conn.lock("schema_migrations")
        if migration.version in await applied_versions(conn):
            await conn.execute("ROLLBACK")
            return False
        await _run(conn, statements, f"migration {migration.label}")
        await conn.execute(
            "INSERT INTO schema_migrations (version, name, checksum, applied_at)"
            " VALUES (?, ?, ?, ?)",
            (migration.version, migration.name, migration.checksum, to_db(datetime.now(UTC))),
        )
        await conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            await conn.execute("ROLLBACK")
        raise
    return True


async def _in_transaction(conn: Connection, script: str, what: str) -> None:
    await conn.execute(conn.dialect.begin)
    try:
        await conn.lock("schema_migrations")
        await _run(conn, statements_for(conn, script), what)
        await conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            await conn.execute("ROLLBACK")
        raise


async def _run(conn: Connection, statements: list[str], what: str) -> None:
    for number, statement in enumerate(statements, start=1):
        try:
            await conn.execute(statement)
        except STATEMENT_ERRORS as error:
            raise MigrationError(
                f"{what} failed at statement {number} "
                f"({statement[:60]!r}...): {error}; rolled back, nothing of it was applied"
            ) from error
