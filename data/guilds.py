"""Guild settings: the table language, the default rules of public tables,
and the fair limits per member."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from data.db import Database
from data.jsonutil import JSONObject, dump_object, load_object

log = logging.getLogger(__name__)

Language = Literal["en", "nl"]
LANGUAGES: frozenset[str] = frozenset({"en", "nl"})


@dataclass(frozen=True)
class GuildSettings:
    guild_id: int
    language: Language | None = None  # None: follow the guild's Discord locale
    public_rules: JSONObject = field(default_factory=dict)  # option name -> value


async def get_settings(db: Database, guild_id: int) -> GuildSettings:
    """The guild's settings; defaults when none were ever set."""
    async with db.read() as conn:
        rows = list(
            await conn.execute_fetchall(
                "SELECT language, public_rules FROM guild_settings WHERE guild_id = ?",
                (guild_id,),
            )
        )
    if not rows:
        return GuildSettings(guild_id)
    return GuildSettings(guild_id, _language(rows[0][0]), load_object(rows[0][1]))


async def set_language(db: Database, guild_id: int, language: Language | None) -> None:
    """Set the table language; None follows the guild's locale again."""
    if language is not None and language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}")
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, language) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
            (guild_id, language),
        )


async def set_public_rules(db: Database, guild_id: int, rules: Mapping[str, Any]) -> None:
    """Replace the default rules of the guild's public tables (validated by the caller)."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, public_rules) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET public_rules = excluded.public_rules",
            (guild_id, dump_object(rules)),
        )


def _language(value: object) -> Language | None:
    if value == "en":
        return "en"
    if value == "nl":
        return "nl"
    return None


# --- fair limits per member ------------------------------------------------------------

LimitName = Literal["hosted", "seated", "tables"]
# Each limit's column, and the values an admin may choose (the settings select).
_LIMIT_COLUMNS: dict[str, str] = {
    "hosted": "max_hosted", "seated": "max_seated", "tables": "max_tables"}
LIMIT_RANGES: dict[str, tuple[int, int]] = {"hosted": (1, 10), "seated": (1, 10),
                                            "tables": (1, 200)}


@dataclass(frozen=True)
class Limits:
    """How much one member may hold open in a server, and the server in all.
    The defaults keep one member from filling every channel, and a busy server
    from taking the whole bot."""

    hosted: int = 2  # open lobbies a member hosts
    seated: int = 3  # lobbies a member sits in at once (their own among them)
    tables: int = 25  # live tables (lobbies and games in play) in the server


DEFAULT_LIMITS = Limits()


async def get_limits(db: Database, guild_id: int,
                     defaults: Limits = DEFAULT_LIMITS) -> Limits:
    """The server's limits: `defaults` where its admins set none."""
    async with db.read() as conn:
        rows = list(await conn.execute_fetchall(
            "SELECT max_hosted, max_seated, max_tables FROM guild_settings WHERE guild_id = ?",
            (guild_id,)))
    if not rows:
        return defaults
    hosted, seated, tables = rows[0]
    return Limits(hosted=defaults.hosted if hosted is None else int(hosted),
                  seated=defaults.seated if seated is None else int(seated),
                  tables=defaults.tables if tables is None else int(tables))


async def set_limit(db: Database, guild_id: int, name: str, value: int | None) -> None:
    """Set one limit (None: back to the default); ValueError if not allowed."""
    column = _LIMIT_COLUMNS.get(name)
    if column is None:
        raise ValueError(f"unknown limit {name!r}")
    low, high = LIMIT_RANGES[name]
    if value is not None and not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}")
    async with db.transaction() as conn:
        await conn.execute(  # the column comes from the fixed map above, never from input
            f"INSERT INTO guild_settings (guild_id, {column}) VALUES (?, ?)"
            f" ON CONFLICT (guild_id) DO UPDATE SET {column} = excluded.{column}",
            (guild_id, value))

