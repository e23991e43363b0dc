"""The components of the community commands: leaderboard pages (`toepboard:`),
the practice game (`toeplearn:`), the settings message (`toepset:`), the
bans list (`toepban:`), the rules menu (`toeprules:`), the web table's
Open button (`toepweb:`), reviews (`toepreview:`) and Toep van de dag
(`toepdaily:`). cogs/clicks.py
routes their clicks here, whatever message they sit on and after a restart
too; each goes to the cog of its kind. None of them starts with `toep:`,
which the table buttons own.

The gate (cogs/gate.py) has read the id (cogs/community_ids.py) and checked
that a kind carrying a guild was clicked in that guild.
"""

from __future__ import annotations

import logging
from typing import Protocol

import discord

from cogs.community_ids import (
    BanId,
    BoardId,
    CommunityId,
    DailyId,
    LearnId,
    ReviewId,
    RulesId,
    SettingsId,
    WebId,
)
from cogs.i18n import Lang, lang_for_locale

log = logging.getLogger(__name__)

# Which cog answers which kind.
COGS: dict[type[CommunityId], str] = {BoardId: "LeaderboardCog", LearnId: "LearnCog",
                                      SettingsId: "SettingsCog", BanId: "BansCog",
                                      RulesId: "HelpCog", WebId: "ActivityCog",
                                      ReviewId: "ReviewCog", DailyId: "DailyCog"}


class ComponentCog(Protocol):
    async def on_component(self, interaction: discord.Interaction, click: CommunityId,
                           lang: Lang) -> None:
        """A click of this cog's kind, its id read and checked by the gate."""
        ...


async def community_click(interaction: discord.Interaction, click: CommunityId) -> None:
    """A click of one of the community kinds (cogs/clicks.py routes it here)."""
    name = COGS[type(click)]
    cog: ComponentCog | None = interaction.client.get_cog(name)  # type: ignore[attr-defined]
    if cog is None:
        raise RuntimeError(f"a component of {name} was clicked but its cog is not loaded")
    await cog.on_component(interaction, click, lang_for_locale(interaction.locale))
