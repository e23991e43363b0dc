"""`/toep help`: the commands at a glance (cogs.render_help), ephemeral, in
the player's language; it lists whatever the /toep and /toep-admin groups
hold (the admin ones marked as such, for everyone: a member who cannot use
them learns that they exist and who can)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.answers import send_rendered
from cogs.i18n import command_key, lang_for_locale, t
from cogs.render_help import help_message
from cogs.toep_group import ADMIN, TOEP, add_to_toep, remove_from_toep, toep_group

if TYPE_CHECKING:
    from bot import ToepBot


@app_commands.command(name="help", description=t("en", command_key("toep help", "desc")))
async def help_command(interaction: discord.Interaction) -> None:
    lang = lang_for_locale(interaction.locale)
    bot: commands.Bot = interaction.client  # type: ignore[assignment]
    names = {group: [command.name for command in toep_group(bot, group).commands]
             for group in (TOEP, ADMIN)}
    await send_rendered(interaction, help_message(names, lang))


class HelpCog(commands.Cog):
    def __init__(self, bot: ToepBot) -> None:
        self.bot = bot


async def setup(bot: ToepBot) -> None:
    await bot.add_cog(HelpCog(bot))
    add_to_toep(bot, [help_command])


async def teardown(bot: ToepBot) -> None:
    remove_from_toep(bot, [help_command])
