"""The one `DynamicItem` behind every component of the community commands:
leaderboard pages (`toepboard:`), the practice game (`toeplearn:`), the
settings message (`toepset:`) and the bans list (`toepban:`). Registered at
start-up, so they keep working after a restart; the click goes to the cog of
its kind. None of them starts with `toep:`, which the table buttons own.

Every kind but the practice game carries the guild it was shown in:
`<kind>:<guild>:<what>`; a click from another guild is refused here.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol

import discord

from cogs.answers import say
from cogs.error_path import answered
from cogs.i18n import Lang, lang_for_locale, t

log = logging.getLogger(__name__)

# Which cog answers which kind.
COGS = {"toepboard": "LeaderboardCog", "toeplearn": "LearnCog", "toepset": "SettingsCog",
        "toepban": "BansCog"}
KINDS = tuple(COGS)
TEMPLATE = re.compile(r"(?P<kind>toepboard|toeplearn|toepset|toepban):(?P<rest>.*)", re.DOTALL)
GUILDLESS = frozenset({"toeplearn"})


class ComponentCog(Protocol):
    async def on_component(self, interaction: discord.Interaction, guild_id: int, what: str,
                           lang: Lang) -> None:
        """A click of this cog's kind (`guild_id` 0 for the guildless kinds)."""
        ...


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
        # Anything that raises goes the one error path (cogs/error_path.py).
        await answered(interaction, self._dispatch(interaction), None, "community.error")

    async def _dispatch(self, interaction: discord.Interaction) -> None:
        lang = lang_for_locale(interaction.locale)
        cog: ComponentCog | None = interaction.client.get_cog(  # type: ignore[attr-defined]
            COGS[self.kind])
        if cog is None:
            raise RuntimeError(f"a {self.kind} component was clicked but its cog is not loaded")
        if self.kind in GUILDLESS:
            await cog.on_component(interaction, 0, self.rest, lang)
            return
        guild_text, _, what = self.rest.partition(":")
        if not guild_text.isdigit() or int(guild_text) != (interaction.guild_id or 0):
            await say(interaction, t(lang, "click.forged"))
            return
        await cog.on_component(interaction, int(guild_text), what, lang)
