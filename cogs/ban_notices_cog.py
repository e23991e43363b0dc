"""The extension that loads the ban notices (cogs/ban_notices.py). The cog
lives in a module of its own: discord.py loads an extension as a fresh
module, and the cogs that reach it (manage, bans) must know its class."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.ban_notices import BanNoticesCog

if TYPE_CHECKING:
    from bot import ToepBot


async def setup(bot: ToepBot) -> None:
    await bot.add_cog(BanNoticesCog(bot))
