"""Every button of the bot is one `DynamicItem`, registered at start-up, so
buttons keep working after a restart. The click goes to the table cog.

Views are sent `unlistened`: discord.py need not keep them (see there)."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from cogs.error_path import answered
from cogs.ids import TEMPLATE, table_id_of

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
        # Anything that raises goes the one error path (cogs/error_path.py).
        await answered(interaction, self._dispatch(interaction), table_id_of(self.raw))

    async def _dispatch(self, interaction: discord.Interaction) -> None:
        cog: TableCog | None = interaction.client.get_cog("TableCog")  # type: ignore[attr-defined]
        if cog is None:
            raise RuntimeError("a button was clicked but the table cog is not loaded")
        await cog.on_button(interaction, self.raw)


V = TypeVar("V", bound=discord.ui.View | None)


def unlistened(view: V) -> V:
    """`view`, stopped, so that sending it leaves no copy in discord.py's view store.

    Clicks reach the bot through its DynamicItems (ToepButton, CommunityItem),
    found by their custom_id's template; a stored View would only add a no-op
    dispatch to every click. Worse, discord.py keeps the stored items of a
    message by custom_id, and ours carry the table's stamp, so every edit
    added a set of Buttons that were never dropped: a heap that grew with
    every click and a garbage collector that paused the event loop longer and
    longer (0.1 to 0.4 s after two minutes of 100 tables). A stopped view is
    still sent whole: only the keeping is skipped."""
    if view is not None:
        view.stop()
    return view
