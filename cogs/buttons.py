"""Every button of the bot is one `DynamicItem`, registered at start-up, so
buttons keep working after a restart. The click goes to the table cog."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from cogs.ids import TEMPLATE

if TYPE_CHECKING:
    from cogs.table_cog import TableCog

log = logging.getLogger(__name__)


class ToepButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.raw = custom_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,  # type: ignore[override]
                             item: discord.ui.Button[Any], match: re.Match[str]) -> ToepButton:
        return cls(item.custom_id or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        cog: TableCog | None = interaction.client.get_cog("TableCog")  # type: ignore[attr-defined]
        if cog is None:
            log.error("a button was clicked but the table cog is not loaded")
            return
        await cog.on_button(interaction, self.raw)
