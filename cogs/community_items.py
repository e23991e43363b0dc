"""The components of the community commands: leaderboard pages (`toepboard:`),
the practice game (`toeplearn:`), the settings message (`toepset:`), the
bans list (`toepban:`) and Toep van de dag (`toepdaily:`). cogs/clicks.py
routes their clicks here, whatever message they sit on and after a restart
too; each goes to the cog of its kind. None of them starts with `toep:`,
which the table buttons own.

Every kind but the practice game carries the guild it was shown in:
`<kind>:<guild>:<what>`; a click from another guild is refused here.
"""

from __future__ import annotations

import logging
import re
from typing import Protocol

import discord

from cogs.answers import say
from cogs.i18n import Lang, lang_for_locale, t

log = logging.getLogger(__name__)

# Which cog answers which kind.
COGS = {"toepboard": "LeaderboardCog", "toeplearn": "LearnCog", "toepset": "SettingsCog",
        "toepban": "BansCog", "toepdaily": "DailyCog"}
KINDS = tuple(COGS)
TEMPLATE = re.compile(r"(?P<kind>toepboard|toeplearn|toepset|toepban|toepdaily):(?P<rest>.*)",
                      re.DOTALL)
GUILDLESS = frozenset({"toeplearn"})


class ComponentCog(Protocol):
    async def on_component(self, interaction: discord.Interaction, guild_id: int, what: str,
                           lang: Lang) -> None:
        """A click of this cog's kind (`guild_id` 0 for the guildless kinds)."""
        ...


async def community_click(interaction: discord.Interaction, kind: str, rest: str) -> None:
    """A click of one of the community kinds (cogs/clicks.py routes it here)."""
    lang = lang_for_locale(interaction.locale)
    cog: ComponentCog | None = interaction.client.get_cog(  # type: ignore[attr-defined]
        COGS[kind])
    if cog is None:
        raise RuntimeError(f"a {kind} component was clicked but its cog is not loaded")
    if kind in GUILDLESS:
        await cog.on_component(interaction, 0, rest, lang)
        return
    guild_text, _, what = rest.partition(":")
    if not guild_text.isdigit() or int(guild_text) != (interaction.guild_id or 0):
        await say(interaction, t(lang, "click.forged"))
        return
    await cog.on_component(interaction, int(guild_text), what, lang)
