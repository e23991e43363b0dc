"""Who may watch a table: a member of its guild who can see its channel,
asked of Discord (the member, by the bot's REST) and judged by the channel's
overwrites as the bot knows them. Never from anything the page says."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from cogs.web_members import Verdict, may_watch
from web.server.sessions import Signer

if TYPE_CHECKING:
    from bot import ToepBot

FRESH = 60.0  # seconds a yes is trusted before Discord is asked again


class Access:
    def __init__(self, bot: ToepBot, signer: Signer) -> None:
        self._bot = bot
        self._signer = signer
        self._yes: dict[tuple[int, int], tuple[float, str]] = {}

    def forget(self) -> None:
        """Forget every answer of Discord's kept in memory (tests: as a restart)."""
        self._yes.clear()

    def ticket(self, channel_id: int, user_id: int, name: str) -> str:
        """A pass for the page (web/server/sessions.py): shown when it reconnects."""
        return self._signer.issue_pass(user_id, channel_id, name)

    async def check(self, guild_id: int, channel_id: int, user_id: int,
                    fresh: bool = False, shown: str = "") -> Verdict:
        """May `user_id` watch the table in this channel? `fresh`: ask Discord
        now, whatever was known (before a seat is taken). `shown`: the page's
        pass, as good as a yes of the last two minutes (after a restart too)."""
        key = (channel_id, user_id)
        known = self._yes.get(key)
        if known is not None and not fresh and time.monotonic() - known[0] < FRESH:
            return Verdict(None, known[1])
        name = self._signer.verify_pass(shown, user_id, channel_id) if shown else None
        if name is not None and not fresh:
            return Verdict(None, name)
        verdict = await self._ask(guild_id, channel_id, user_id)
        if verdict.refusal is None:
            self._yes[key] = (time.monotonic(), verdict.name)
        else:
            self._yes.pop(key, None)
        return verdict

    async def _ask(self, guild_id: int, channel_id: int, user_id: int) -> Verdict:
        return await may_watch(self._bot, guild_id, channel_id, user_id)
