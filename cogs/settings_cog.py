"""`/toep-admin settings` (Manage Server): the guild's table language, the
house rules of its public tables, its fair limits per member and the
members' default turn pings, changed through the selects of the settings
message (`toepset:<guild>:lang|pick|reset|value:<option>|ping`)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.answers import component_values, replace_with, say, send_rendered
from cogs.community_ids import SettingsId
from cogs.i18n import Lang, command_key, lang_for_locale, t
from cogs.ping_settings_cog import set_server_default
from cogs.render_community import SETTING_OPTIONS, parse_value, settings_message
from cogs.render_limits import LIMIT_OPTIONS, parse_limit
from cogs.render_text import Rendered
from cogs.toep_group import ADMIN, add_to_toep, cog_of, remove_from_toep
from data import guilds, ping_settings
from engine.rules import RulesError, TableRules

if TYPE_CHECKING:
    from bot import ToepBot

log = logging.getLogger(__name__)


@app_commands.command(name="settings",
                      description=t("en", command_key(f"{ADMIN} settings", "desc")))
async def settings_command(interaction: discord.Interaction) -> None:
    await cog_of(interaction, SettingsCog).settings(interaction)


class SettingsCog(commands.Cog):
    def __init__(self, bot: ToepBot) -> None:
        self.bot = bot

    async def settings(self, interaction: discord.Interaction) -> None:
        lang = lang_for_locale(interaction.locale)
        if not interaction.permissions.manage_guild:
            await say(interaction, t(lang, "settings.not_allowed"))
            return
        await send_rendered(interaction, await self._message(interaction.guild_id or 0, lang))

    async def _message(self, guild_id: int, lang: Lang, picked: str | None = None,
                       note: str | None = None) -> Rendered:
        current = await guilds.get_settings(self.bot.db, guild_id)
        effective = await self.bot.presenter.table_lang(guild_id)
        limits = await guilds.get_limits(self.bot.db, guild_id,
                                         self.bot.table_config.member_limits)
        ping = await ping_settings.guild_default(self.bot.db, guild_id)
        return settings_message(guild_id, current.language, effective, current.public_rules,
                                lang, picked, note, limits, ping=ping)

    async def on_component(self, interaction: discord.Interaction, click: SettingsId,
                           lang: Lang) -> None:
        guild_id, what = click.guild_id, click.what
        if not interaction.permissions.manage_guild:
            await say(interaction, t(lang, "settings.not_allowed"))
            return
        values = component_values(interaction)
        picked: str | None = None
        note: str | None = None
        if what == "lang":
            code = values[0] if values else ""
            if code not in ("auto", "en", "nl"):
                await say(interaction, t(lang, "click.forged"))
                return
            await guilds.set_language(self.bot.db, guild_id, None if code == "auto" else
                                      ("nl" if code == "nl" else "en"))
            self.bot.presenter.forget_lang(guild_id)
            note = t(lang, "settings.saved")
        elif what == "ping":  # the turn pings of members who chose none
            if not await set_server_default(self.bot, guild_id, values[0] if values else ""):
                await say(interaction, t(lang, "click.forged"))
                return
            note = t(lang, "settings.ping.default_saved")
        elif what == "pick":
            known = values and (values[0] in SETTING_OPTIONS or values[0] in LIMIT_OPTIONS)
            picked = values[0] if known else None
        elif what == "reset":
            await guilds.set_public_rules(self.bot.db, guild_id, {})
            note = t(lang, "settings.reset_done")
        elif click.option in LIMIT_OPTIONS:
            picked = click.option
            if not await self._set_limit(guild_id, picked, values[0] if values else ""):
                await say(interaction, t(lang, "click.forged"))
                return
            note = t(lang, "settings.limit_saved")
        elif click.option is not None:
            picked = click.option
            try:
                await self._set_rule(guild_id, picked, values[0] if values else "")
            except RulesError as err:
                await say(interaction, t(lang, "settings.bad_value", reason=str(err)))
                return
            note = t(lang, "settings.saved")
        log.info("guild %s: settings changed (%s) by %s", guild_id, what, interaction.user.id)
        await replace_with(interaction, await self._message(guild_id, lang, picked, note))

    async def _set_limit(self, guild_id: int, option: str, code: str) -> bool:
        """One fair limit, if the value is one the menu offers; counted from
        the next lobby opened or joined (this process holds the guild's tables)."""
        value = parse_limit(option, code)
        if value is None:
            return False
        await guilds.set_limit(self.bot.db, guild_id, LIMIT_OPTIONS[option], value)
        self.bot.manager.limits.forget(guild_id)
        return True

    async def _set_rule(self, guild_id: int, name: str, code: str) -> None:
        """One public house rule, validated with the others before it is stored."""
        value = parse_value(name, code)
        current = await guilds.get_settings(self.bot.db, guild_id)
        chosen = {k: v for k, v in current.public_rules.items() if k != "clock"}
        chosen[name] = value
        TableRules.from_json(chosen)
        await guilds.set_public_rules(self.bot.db, guild_id, chosen)


async def setup(bot: ToepBot) -> None:
    await bot.add_cog(SettingsCog(bot))
    add_to_toep(bot, [settings_command], ADMIN)


async def teardown(bot: ToepBot) -> None:
    remove_from_toep(bot, [settings_command], ADMIN)
