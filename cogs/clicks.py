"""Every click on a component: through the gate (cogs/gate.py), then routed by
what its custom_id names: a table button to the table cog, the community kinds
(cogs/community_items.py) to theirs. A click the gate refuses (a forged
client) gets a short private answer, rather than Discord's "This interaction
failed". Each goes the one error path (cogs/error_path.py).

The route is read from the interaction's data, so a button works whatever
message it sits on, and after a restart. Not discord.py's DynamicItems: to
find the item clicked, discord.py rebuilt every clicked message as a View of
Items first. At 400 tables that was a few percent of the event loop, and a
View holds a Future its items point back at: cyclic garbage, 1,500 Views a
second, that only the cycle collector frees, pausing the loop to do so."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from cogs.answers import say
from cogs.community_items import community_click
from cogs.error_path import answered, what_was_clicked
from cogs.gate import Refused, admit
from cogs.i18n import lang_for_locale, t
from cogs.ids import ButtonId, table_id_of
from cogs.stopping import refused_while_stopping

if TYPE_CHECKING:
    from bot import ToepBot
    from cogs.table_cog import TableCog

log = logging.getLogger(__name__)

# Seconds after which a click is left alone: Discord takes no first answer
# after 3, and a margin keeps a clock a little ahead of Discord's from
# dropping good clicks. Past capacity, answering clicks that can no longer
# be answered (each a request Discord refuses, and the panel it would have
# sent) was work that made the next clicks late too.
TOO_LATE = 4.0


def waited(created: datetime, now: datetime) -> float:
    """Seconds since a click was made (its id's time) by `now`, the bot's clock."""
    return (now - created).total_seconds()


def too_late(created: datetime, now: datetime) -> bool:
    """Whether a click made at `created` can no longer be answered at `now`."""
    return waited(created, now) > TOO_LATE


class ClicksCog(commands.Cog):
    def __init__(self, bot: ToepBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        if await refused_while_stopping(self.bot, interaction):
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if too_late(interaction.created_at, self.bot.clock.now()):
            # Its move is not played, as when its answer fails (cogs/error_path.py).
            log.warning("table %s: %s came too late to be answered; left alone",
                        table_id_of(custom_id), what_was_clicked(interaction))
            return
        click = admit(interaction, self._guild_of)
        if isinstance(click, Refused):
            # A forged client, as a rule: told, and nothing more. The log shows
            # the id's first characters only: it is the clicker's own text.
            log.info("the gate refused a forged click, %s: %s", what_was_clicked(interaction),
                     click.reason)
            await answered(interaction, say(interaction, t(lang_for_locale(interaction.locale),
                                                           click.key)), None)
        elif isinstance(click, ButtonId):
            await answered(interaction, self._table_click(interaction, click), click.table_id)
        else:
            await answered(interaction, community_click(interaction, click), None,
                           "community.error")

    def _guild_of(self, table_id: int) -> int | None:
        table = self.bot.manager.get(table_id)
        return None if table is None else int(table.row.guild_id)

    async def _table_click(self, interaction: discord.Interaction, button: ButtonId) -> None:
        cog: TableCog | None = self.bot.get_cog("TableCog")  # type: ignore[assignment]
        if cog is None:
            raise RuntimeError("a button was clicked but the table cog is not loaded")
        await cog.on_button(interaction, button)


async def setup(bot: ToepBot) -> None:
    await bot.add_cog(ClicksCog(bot))
