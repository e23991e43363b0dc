"""`/toep leaderboard`: the guild's rated players, a page at a time, with
`toepboard:<guild>:<offset>` buttons to turn the pages."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.answers import replace_with, send_rendered
from cogs.community_ids import BoardId
from cogs.i18n import Lang, command_key, lang_for_locale, t
from cogs.render_community import MIN_GAMES, PAGE_SIZE, leaderboard_message
from cogs.render_text import Rendered
from cogs.toep_group import add_to_toep, cog_of, remove_from_toep
from data import stats

if TYPE_CHECKING:
    from bot import ToepBot


@app_commands.command(name="leaderboard",
                      description=t("en", command_key("toep leaderboard", "desc")))
async def leaderboard_command(interaction: discord.Interaction) -> None:
    await cog_of(interaction, LeaderboardCog).leaderboard(interaction)


class LeaderboardCog(commands.Cog):
    def __init__(self, bot: ToepBot) -> None:
        self.bot = bot

    async def leaderboard(self, interaction: discord.Interaction) -> None:
        lang = lang_for_locale(interaction.locale)
        await send_rendered(interaction, await self.page(interaction.guild_id or 0, 0, lang))

    async def page(self, guild_id: int, offset: int, lang: Lang) -> Rendered:
        db = self.bot.db
        total = await stats.leaderboard_count(db, guild_id, min_games=MIN_GAMES)
        if offset >= total:
            offset = max(0, (total - 1) // PAGE_SIZE * PAGE_SIZE)
        rows = await stats.leaderboard(db, guild_id, min_games=MIN_GAMES, limit=PAGE_SIZE,
                                       offset=offset)
        return leaderboard_message(rows, total, offset, guild_id, lang)

    async def on_component(self, interaction: discord.Interaction, click: BoardId,
                           lang: Lang) -> None:
        await replace_with(interaction, await self.page(click.guild_id, click.offset, lang))


async def setup(bot: ToepBot) -> None:
    await bot.add_cog(LeaderboardCog(bot))
    add_to_toep(bot, [leaderboard_command])


async def teardown(bot: ToepBot) -> None:
    remove_from_toep(bot, [leaderboard_command])
