"""While the bot stops (bot.py `ToepBot.stop_for`: SIGTERM from `docker stop` or
systemd, SIGINT from Ctrl-C), a click or a command is answered, privately, that
Toep is restarting, and nothing else happens: the tables are closing and their
saves finishing, and the next process takes over as soon as this one is gone."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from cogs.answers import say
from cogs.i18n import lang_for_locale, t

if TYPE_CHECKING:
    from bot import ToepBot

log = logging.getLogger(__name__)


async def refused_while_stopping(bot: ToepBot, interaction: discord.Interaction[Any]) -> bool:
    """True if the bot is stopping: then `interaction` got the "restarting" answer."""
    if not bot.stopping:
        return False
    try:
        await say(interaction, t(lang_for_locale(interaction.locale), "bot.restarting"))
    except (discord.HTTPException, discord.RateLimited, aiohttp.ClientError) as err:
        # Its 3 seconds ran out, or the connection to Discord is closing already.
        log.info("the 'restarting' answer could not be sent: %s", err)
    return True
