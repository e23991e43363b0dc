"""`/toep-admin bans` (Manage Server): who is banned from public tables (R19), with
a `toepban:<guild>:<user>` button to lift each ban. The player is told that
their ban was lifted (cogs/ban_notices.py)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.answers import replace_with, say, send_rendered
from cogs.ban_notices import notices_of
from cogs.community_ids import BanId
from cogs.i18n import Lang, command_key, lang_for_locale, t
from cogs.render_community import bans_message, mention
from cogs.toep_group import ADMIN, add_to_toep, cog_of, remove_from_toep
from data import bans

if TYPE_CHECKING:
    from bot import ToepBot

log = logging.getLogger(__name__)


@app_commands.command(name="bans", description=t("en", command_key(f"{ADMIN} bans", "desc")))
async def bans_command(interaction: discord.Interaction) -> None:
    await cog_of(interaction, BansCog).bans(interaction)


class BansCog(commands.Cog):
    def __init__(self, bot: ToepBot) -> None:
        self.bot = bot

    async def bans(self, interaction: discord.Interaction) -> None:
        lang = lang_for_locale(interaction.locale)
        if not interaction.permissions.manage_guild:
            await say(interaction, t(lang, "bans.not_allowed"))
            return
        guild_id = interaction.guild_id or 0
        now = self.bot.clock.now()
        found = await bans.list_bans(self.bot.db, guild_id, now)
        await send_rendered(interaction, bans_message(found, guild_id, lang, now))

    async def on_component(self, interaction: discord.Interaction, click: BanId,
                           lang: Lang) -> None:
        """"Lift ban": only for members who may manage the server."""
        if not interaction.permissions.manage_guild:
            await say(interaction, t(lang, "bans.not_allowed"))
            return
        guild_id, user_id = click.guild_id, click.user_id
        now = self.bot.clock.now()
        lifted = await bans.lift_ban(self.bot.db, guild_id, user_id, interaction.user.id, now)
        notices = notices_of(self.bot)
        if lifted is not None and notices is not None:
            notices.add(guild_id, user_id)  # they hear of it at their next click or command
        key = "bans.lifted" if lifted is not None else "bans.already_gone"
        note = t(lang, key, user=mention(user_id))
        found = await bans.list_bans(self.bot.db, guild_id, now)
        await replace_with(interaction, bans_message(found, guild_id, lang, now, note))


async def setup(bot: ToepBot) -> None:
    await bot.add_cog(BansCog(bot))
    add_to_toep(bot, [bans_command], ADMIN)


async def teardown(bot: ToepBot) -> None:
    remove_from_toep(bot, [bans_command], ADMIN)
