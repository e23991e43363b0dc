"""A click in the page: the same table methods, checks, saves and records
as the button in Discord (cogs/table_cog.py), so the two stay in step and a
player may switch between them mid-game. The page names a verb, a card and
the stamp of the moment it saw; who clicks is the session's, never the page's."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from cogs.i18n import t
from cogs.render_text import names_of
from cogs.replies import refusal_text
from engine.cards import CardError, parse_card
from tables.errors import Refusal, TableFailure
from tables.log_safe import log_failure
from tables.table import GAME_VERBS, Table
from tables.verbs import perform
from web.server.access import Access
from web.server.barred import tell_barred
from web.server.viewers import Viewer

if TYPE_CHECKING:
    from bot import ToepBot

log = logging.getLogger(__name__)
LOBBY_VERBS = frozenset({"join", "leave", "start"})
VERBS = LOBBY_VERBS | GAME_VERBS


async def act(bot: ToepBot, access: Access, table: Table, viewer: Viewer,
              message: dict[str, Any]) -> None:
    """Do what the page asked, or tell the viewer why not; nothing else."""
    try:
        await _act(bot, access, table, viewer, message)
    except Refusal as err:
        await _refused(bot, table, viewer, err)
    except TableFailure as err:  # the table logged why and put itself back
        log.warning("table %s: a click from the web table failed: %s", table.id, err)
        key = "click.not_saved" if err.storage else "click.error"
        await viewer.send({"type": "refused", "text": t(viewer.lang, key)})
    except Exception:  # anything else: logged (never with its text above DEBUG)
        log_failure(log, logging.ERROR, "table %s: a click from the web table failed", table.id)
        await viewer.send({"type": "refused", "text": t(viewer.lang, "click.error")})


async def _refused(bot: ToepBot, table: Table, viewer: Viewer, err: Refusal) -> None:
    """The refusal in the viewer's words; a ban of their own with its notice."""
    if err.key == "banned" and await tell_barred(bot, table.row.guild_id, viewer):
        return
    await viewer.send({"type": "refused",
                       "text": refusal_text(err, viewer.lang, names_of(table.snapshot()))})


async def _act(bot: ToepBot, access: Access, table: Table, viewer: Viewer,
               message: dict[str, Any]) -> None:
    verb, card_text, stamp = message.get("verb"), message.get("card"), message.get("stamp")
    if not isinstance(verb, str) or verb not in VERBS:
        raise Refusal("unknown_action", verb=str(verb)[:20])
    if not isinstance(stamp, str | None) or not isinstance(card_text, str | None):
        raise Refusal("unknown_action", verb=verb)
    try:
        card = None if card_text is None else parse_card(card_text)
    except CardError as err:
        raise Refusal("unknown_action", verb=verb) from err
    # Still a member who sees the channel (asked of Discord again for a seat).
    verdict = await access.check(table.row.guild_id, table.row.channel_id, viewer.user_id,
                                 fresh=verb == "join")
    if verdict.later:  # the bot has just started: nothing is played meanwhile
        await viewer.send({"type": "refused", "text": t(viewer.lang, verdict.refusal or "")})
        return
    if verdict.refusal is not None:
        await viewer.send({"type": "denied", "text": t(viewer.lang, verdict.refusal)})
        await viewer.socket.close()
        return
    # As a button: past capacity the move waits its turn, and a clock that
    # runs out meanwhile waits for it.
    with table.click_waiting():
        async with bot.load.slots.hold(urgent=True):
            await perform(table, viewer.user_id, verdict.name, verb, card=card, stamp=stamp)
