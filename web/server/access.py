"""Who may watch a table: a member of its guild who can see its channel,
asked of Discord (the member, by the bot's REST) and judged by the channel's
overwrites as the bot knows them. Never from anything the page says."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot import ToepBot

FRESH = 60.0  # seconds a yes is trusted before Discord is asked again


@dataclass(frozen=True)
class Verdict:
    refusal: str | None  # a catalog key, or None: may watch
    name: str = ""  # the member's name in that server


class Access:
    def __init__(self, bot: ToepBot) -> None:
        self._bot = bot
        self._yes: dict[tuple[int, int], tuple[float, str]] = {}

    async def check(self, guild_id: int, channel_id: int, user_id: int,
                    fresh: bool = False) -> Verdict:
        """May `user_id` watch the table in this channel? `fresh`: ask Discord
        now, whatever was known (before a seat is taken)."""
        key = (channel_id, user_id)
        known = self._yes.get(key)
        if known is not None and not fresh and time.monotonic() - known[0] < FRESH:
            return Verdict(None, known[1])
        verdict = await self._ask(guild_id, channel_id, user_id)
        if verdict.refusal is None:
            self._yes[key] = (time.monotonic(), verdict.name)
        else:
            self._yes.pop(key, None)
        return verdict

    async def _ask(self, guild_id: int, channel_id: int, user_id: int) -> Verdict:
        guild = self._bot.get_guild(guild_id)
        channel = None if guild is None else guild.get_channel_or_thread(channel_id)
        if guild is None or channel is None:
            return Verdict("web.no_table")
        try:
            member = await guild.fetch_member(user_id)
        except discord.NotFound:
            return Verdict("web.not_member")
        if not channel.permissions_for(member).view_channel:
            return Verdict("web.no_view")
        return Verdict(None, member.display_name)
