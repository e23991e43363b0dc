"""The "Open the table" button (ACTIVITY=true): it launches the web table as
Discord's Activity in the channel of the click (an interaction answered with
callback type 12, LAUNCH_ACTIVITY); the page finds the table there itself.
Loaded only when the Activity is configured (bot.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from cogs.community_ids import CommunityId, WebId
from cogs.i18n import Lang, t
from cogs.render_text import clip
from tables.snapshot import Status, TableSnapshot

if TYPE_CHECKING:
    from bot import ToepBot

KIND = "toepweb"  # cogs/community_items.py routes its clicks here
MAX_LABEL = 80  # Discord's limit for a button's label


def open_button(snap: TableSnapshot, lang: str) -> discord.ui.Button[discord.ui.View] | None:
    """The button for a table message, while the table is open."""
    if snap.status not in (Status.LOBBY, Status.PLAYING):
        return None
    return discord.ui.Button(label=clip(t(lang, "btn.open_table"), MAX_LABEL),
                             custom_id=f"{KIND}:{snap.guild_id}:open",
                             style=discord.ButtonStyle.secondary, row=0)


class ActivityCog(commands.Cog):
    def __init__(self, bot: ToepBot) -> None:
        self.bot = bot

    async def on_component(self, interaction: discord.Interaction, click: CommunityId,
                           lang: Lang) -> None:
        """Past the gate: a WebId of this server, on the clicked message."""
        if not isinstance(click, WebId):
            await interaction.response.send_message(t(lang, "click.forged"), ephemeral=True)
            return
        await interaction.response.launch_activity()


async def setup(bot: ToepBot) -> None:
    await bot.add_cog(ActivityCog(bot))
