"""`/toep help`: the commands at a glance (cogs.render_help), ephemeral, in
the player's language; it lists whatever the /toep and /toep-admin groups
hold (the admin ones marked as such, for everyone: a member who cannot use
them learns that they exist and who can).

`/toep rules [topic]`: one topic, or without one the index of them all;
either way with a menu (`toeprules:pick`, cogs/render_rules.py) that turns
the reader's own reply to any other topic."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.answers import component_values, replace_with, say, send_rendered
from cogs.community_ids import CommunityId, RulesId
from cogs.i18n import Lang, choice_key, command_key, lang_for_locale, option_key, t
from cogs.render_help import help_message
from cogs.render_rules import INDEX, rules_index, rules_page
from cogs.render_topics import TOPICS
from cogs.toep_group import ADMIN, TOEP, add_to_toep, remove_from_toep, toep_group

if TYPE_CHECKING:
    from bot import ToepBot

RULES = "toep rules"


@app_commands.command(name="help", description=t("en", command_key("toep help", "desc")))
async def help_command(interaction: discord.Interaction) -> None:
    lang = lang_for_locale(interaction.locale)
    bot: commands.Bot = interaction.client  # type: ignore[assignment]
    names = {group: [command.name for command in toep_group(bot, group).commands]
             for group in (TOEP, ADMIN)}
    await send_rendered(interaction, help_message(names, lang))


@app_commands.command(name="rules", description=t("en", command_key(RULES, "desc")))
@app_commands.describe(topic=t("en", option_key(RULES, "topic", "desc")))
@app_commands.choices(topic=[app_commands.Choice(name=t("en", choice_key(v)), value=v)
                             for v in TOPICS])
async def rules_command(interaction: discord.Interaction, topic: str | None = None) -> None:
    lang = lang_for_locale(interaction.locale)
    await send_rendered(interaction, rules_index(lang) if topic is None
                        else rules_page(topic, lang))


class HelpCog(commands.Cog):
    def __init__(self, bot: ToepBot) -> None:
        self.bot = bot

    async def on_component(self, interaction: discord.Interaction, click: CommunityId,
                           lang: Lang) -> None:
        """The rules menu: the chosen topic replaces the reply it sits on (the
        gate has checked that the reply is the reader's own)."""
        chosen = component_values(interaction)
        if not isinstance(click, RulesId) or len(chosen) != 1 or chosen[0] not in (INDEX,
                                                                                     *TOPICS):
            await say(interaction, t(lang, "click.forged"))
            return
        await replace_with(interaction, rules_page(chosen[0], lang))


async def setup(bot: ToepBot) -> None:
    await bot.add_cog(HelpCog(bot))
    add_to_toep(bot, [help_command, rules_command])


async def teardown(bot: ToepBot) -> None:
    remove_from_toep(bot, [help_command, rules_command])
