"""The one `DynamicItem` behind every component of the community commands:
leaderboard pages (`toepboard:`), the practice game (`toeplearn:`), the
settings message (`toepset:`) and the bans list (`toepban:`). Registered at
start-up, so they keep working after a restart; the click goes to the
community cog. None of them starts with `toep:`, which the table buttons own.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from cogs.error_path import answered, not_loaded

if TYPE_CHECKING:
    from cogs.community_cog import CommunityCog

log = logging.getLogger(__name__)

KINDS = ("toepboard", "toeplearn", "toepset", "toepban")
TEMPLATE = re.compile(r"(?P<kind>toepboard|toeplearn|toepset|toepban):(?P<rest>.*)", re.DOTALL)


class CommunityItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    def __init__(self, item: discord.ui.Item[Any], kind: str, rest: str) -> None:
        super().__init__(item)
        self.kind = kind
        self.rest = rest

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> CommunityItem:
        return cls(item, match["kind"], match["rest"])

    async def callback(self, interaction: discord.Interaction) -> None:
        cog: CommunityCog | None = interaction.client.get_cog(  # type: ignore[attr-defined]
            "CommunityCog")
        work = (cog.on_component(interaction, self.kind, self.rest) if cog is not None
                else not_loaded("the community cog"))
        await answered(interaction, work, None, "community.error")
