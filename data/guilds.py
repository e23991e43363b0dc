"""Guild settings: the table language and the default rules of public tables."""

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
