"""Who wants turn pings: a member's own choice per server (`/toep settings`),
and the server's default for members who made none (`/toep-admin settings`)."""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping
from enum import StrEnum

from data.db import Database

log = logging.getLogger(__name__)


class PingChoice(StrEnum):
    ALWAYS = "always"  # the moment the turn starts
    IDLE = "idle"  # only after a few seconds with nothing done or looked at
    NEVER = "never"  # no turn pings (the last call before a forfeit still comes)


DEFAULT = PingChoice.IDLE  # a server that chose no default


def parse(value: object) -> PingChoice | None:
    """A stored or chosen value; None for anything else (the default applies)."""
    try:
        return PingChoice(str(value))
    except ValueError:
        return None


async def member_choices(db: Database, guild_id: int,
                         user_ids: Collection[int]) -> dict[int, PingChoice]:
    """The choices these members made in this server (those who made none are left out)."""
    if not user_ids:
        return {}
    ids = sorted(set(user_ids))
    marks = ", ".join("?" for _ in ids)
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT user_id, ping FROM member_settings"
            f" WHERE guild_id = ? AND user_id IN ({marks})",
            (guild_id, *ids))
    found = {int(user): parse(ping) for user, ping in rows}
    return {user: choice for user, choice in found.items() if choice is not None}


async def set_member_choice(db: Database, guild_id: int, user_id: int,
                            choice: PingChoice | None) -> None:
    """A member's choice; None: the server's default again."""
    async with db.transaction() as conn:
        if choice is None:
            await conn.execute("DELETE FROM member_settings WHERE guild_id = ? AND user_id = ?",
                               (guild_id, user_id))
            return
        await conn.execute(
            "INSERT INTO member_settings (guild_id, user_id, ping) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET ping = excluded.ping",
            (guild_id, user_id, choice.value))


async def guild_default(db: Database, guild_id: int) -> PingChoice | None:
    """The server's default (None: none chosen, so DEFAULT)."""
    async with db.read() as conn:
        rows = list(await conn.execute_fetchall(
            "SELECT ping FROM guild_settings WHERE guild_id = ?", (guild_id,)))
    return parse(rows[0][0]) if rows else None


async def set_guild_default(db: Database, guild_id: int, choice: PingChoice | None) -> None:
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, ping) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET ping = excluded.ping",
            (guild_id, None if choice is None else choice.value))


def effective(member: PingChoice | None, server: PingChoice | None) -> PingChoice:
    """What counts for a member: their own choice, else the server's, else DEFAULT."""
    return member or server or DEFAULT


def choices_for(user_ids: Collection[int], members: Mapping[int, PingChoice],
                server: PingChoice | None) -> dict[int, PingChoice]:
    return {user: effective(members.get(user), server) for user in user_ids}
