"""`/toep settings [ping:]`: a member's own choice of turn pings in this
server (always, when idle, never, or the server's default), shown and
changed privately; and the server's default, a select of `/toep-admin
settings` (`toepset:<guild>:ping`, saved by `set_server_default`)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.answers import say
from cogs.i18n import Lang, choice_key, command_key, lang_for_locale, option_key, t
from cogs.render_help import command_name
from cogs.render_ping import member_ping_text
from cogs.toep_group import TOEP, add_to_toep, cog_of, remove_from_toep
from data import ping_settings
from data.ping_settings import PingChoice

if TYPE_CHECKING:
    from bot import ToepBot

log = logging.getLogger(__name__)

SETTINGS = f"{TOEP} settings"
SERVER = "server"  # the choice that drops a member's own and follows the server's default


@app_commands.command(name="settings", description=t("en", command_key(SETTINGS, "desc")))
@app_commands.describe(ping=t("en", option_key(SETTINGS, "ping", "desc")))
@app_commands.choices(ping=[app_commands.Choice(name=t("en", choice_key(v)), value=v)
                            for v in (*(c.value for c in PingChoice), SERVER)])
async def settings_command(interaction: discord.Interaction, ping: str | None = None) -> None:
    await cog_of(interaction, PingSettingsCog).settings(interaction, ping)


class PingSettingsCog(commands.Cog):
    def __init__(self, bot: ToepBot) -> None:
        self.bot = bot

    async def settings(self, interaction: discord.Interaction, ping: str | None) -> None:
        lang = lang_for_locale(interaction.locale)
        guild_id, user_id = interaction.guild_id or 0, interaction.user.id
        if ping is not None:
            if ping != SERVER and ping_settings.parse(ping) is None:
                await say(interaction, t(lang, "click.forged"))  # no client sends it
                return
            await ping_settings.set_member_choice(self.bot.db, guild_id, user_id,
                                                  ping_settings.parse(ping))
            self.bot.presenter.pings.choices.forget(guild_id, user_id)
            log.info("guild %s: member %s chose turn pings %s", guild_id, user_id, ping)
        await say(interaction, await self._text(guild_id, user_id, lang, saved=ping is not None))

    async def _text(self, guild_id: int, user_id: int, lang: Lang, saved: bool) -> str:
        db = self.bot.db
        member = (await ping_settings.member_choices(db, guild_id, [user_id])).get(user_id)
        server = await ping_settings.guild_default(db, guild_id)
        return member_ping_text(member, server, lang,
                                command_name("settings", lang) + " "
                                + t(lang, option_key(SETTINGS, "ping", "name")) + ":",
                                saved=saved)

async def set_server_default(bot: ToepBot, guild_id: int, value: str) -> bool:
    """The server's default from the select of `/toep-admin settings`; False
    for a value no select offers."""
    choice = ping_settings.parse(value)
    if choice is None:
        return False
    await ping_settings.set_guild_default(bot.db, guild_id, choice)
    bot.presenter.pings.choices.forget(guild_id)
    return True


async def setup(bot: ToepBot) -> None:
    await bot.add_cog(PingSettingsCog(bot))
    add_to_toep(bot, [settings_command])


async def teardown(bot: ToepBot) -> None:
    remove_from_toep(bot, [settings_command])
