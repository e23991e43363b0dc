"""`/toep stats [member]`: a person's figures in this guild."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.answers import send_rendered
from cogs.i18n import command_key, lang_for_locale, option_key, t
from cogs.render_community import MIN_GAMES, stats_message
from cogs.render_text import plain
from cogs.toep_group import add_to_toep, cog_of, remove_from_toep
from data import stats

if TYPE_CHECKING:
    from bot import ToepBot


@app_commands.command(name="stats", description=t("en", command_key("toep stats", "desc")))
@app_commands.describe(member=t("en", option_key("toep stats", "member", "desc")))
async def stats_command(interaction: discord.Interaction,
                        member: discord.Member | None = None) -> None:
    await cog_of(interaction, StatsCog).stats(interaction, member)


class StatsCog(commands.Cog):
    def __init__(self, bot: ToepBot) -> None:
        self.bot = bot

    async def stats(self, interaction: discord.Interaction,
                    member: discord.Member | None) -> None:
        lang = lang_for_locale(interaction.locale)
        who: discord.abc.User = member or interaction.user
        guild_id = interaction.guild_id or 0
        found = await stats.player_stats(self.bot.db, guild_id, who.id, min_games=MIN_GAMES)
        size = await stats.leaderboard_count(self.bot.db, guild_id, min_games=MIN_GAMES)
        await send_rendered(interaction, stats_message(plain(who.display_name), found, size,
                                                       lang))


async def setup(bot: ToepBot) -> None:
    await bot.add_cog(StatsCog(bot))
    add_to_toep(bot, [stats_command])


async def teardown(bot: ToepBot) -> None:
    remove_from_toep(bot, [stats_command])
