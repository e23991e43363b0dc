"""A click at the web table from a player banned from public tables (R19).

In Discord a banned player's click is refused in a line, and the ban's
notice (when it ends, and why) comes privately at their next interaction
(cogs/ban_notices.py). No notice reaches a page, so the page's refusal says
it all at once: until when (and how long that is), why, and that private
tables stay open. Having said so, it counts as the ban's notice: its start
is marked told, so Discord does not tell it a second time.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from cogs.render_bans import barred_text
from data import bans
from tables.log_safe import log_failure
from web.server.viewers import Viewer

if TYPE_CHECKING:
    from bot import ToepBot

log = logging.getLogger(__name__)


async def tell_barred(bot: ToepBot, guild_id: int, viewer: Viewer) -> bool:
    """Refuse the viewer's click with their ban's notice; False if no ban is
    in force (it ended or was lifted meanwhile) or the database cannot say:
    then the plain refusal."""
    now = bot.clock.now()
    try:
        ban = await bans.active_ban(bot.db, guild_id, viewer.user_id, now)
        untold = [] if ban is None else [
            n for n in await bans.untold_for(bot.db, guild_id, viewer.user_id)
            if n.kind == "start" and n.ban.id == ban.id]
    except Exception:  # the plain refusal says enough
        log_failure(log, logging.WARNING, "a ban notice for the web table could not be read")
        return False
    if ban is None:
        return False
    await viewer.send({"type": "refused", "text": barred_text(ban, viewer.lang)})
    if untold:
        try:
            await bans.mark_told(bot.db, untold, now)
        except Exception:  # still untold: Discord tells it at the next interaction
            log_failure(log, logging.WARNING, "a ban notice told at the web table "
                        "could not be marked told")
    return True
