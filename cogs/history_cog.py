"""`/toep history [game]`: your last games, or one finished game of yours
as the JSON of your seat's view (nobody else's hidden cards)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.answers import send_rendered
from cogs.i18n import command_key, lang_for_locale, option_key, t
from cogs.own_games import NotOwnFinished, own_finished_game
from cogs.render_community import export_name, history_message
from cogs.toep_group import add_to_toep, cog_of, remove_from_toep
from data import history
from engine.record import ReplayError
from engine.seat_view_record import seat_view_record
from tables.log_safe import log_failure

if TYPE_CHECKING:
    from bot import ToepBot

log = logging.getLogger(__name__)

HISTORY_LIMIT = 10


@app_commands.command(name="history", description=t("en", command_key("toep history", "desc")))
@app_commands.describe(game=t("en", option_key("toep history", "game", "desc")))
async def history_command(interaction: discord.Interaction,
                          game: app_commands.Range[int, 1] | None = None) -> None:
    await cog_of(interaction, HistoryCog).history(interaction, game)


class HistoryCog(commands.Cog):
    def __init__(self, bot: ToepBot) -> None:
        self.bot = bot

    async def history(self, interaction: discord.Interaction, game_id: int | None) -> None:
        lang = lang_for_locale(interaction.locale)
        guild_id = interaction.guild_id or 0
        if game_id is None:
            entries = await history.list_history(self.bot.db, guild_id, interaction.user.id,
                                                 limit=HISTORY_LIMIT)
            await send_rendered(interaction, history_message(entries, lang))
            daily = self.bot.get_cog("DailyCog")
            if daily is not None:  # Toep van de dag's days, if any (cogs/daily_cog.py)
                await daily.history_hook(interaction)  # type: ignore[attr-defined]
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            payload, seat = await self._export(guild_id, interaction.user.id, game_id)
        except _NoExport as err:
            await interaction.followup.send(t(lang, err.key, id=game_id), ephemeral=True)
            return
        file = discord.File(io.BytesIO(payload), filename=export_name(game_id, seat))
        await interaction.followup.send(t(lang, "history.export", id=game_id, seat=seat),
                                        file=file, ephemeral=True)

    async def _export(self, guild_id: int, user_id: int, game_id: int) -> tuple[bytes, int]:
        """The JSON of the person's seat's view of a finished game of theirs."""
        try:
            loaded, seat = await own_finished_game(self.bot.db, guild_id, user_id, game_id)
        except NotOwnFinished as err:
            key = err.reason if err.reason in ("not_yours", "in_progress") else (
                f"status.{err.reason}")
            raise _NoExport(f"history.{key}") from None
        record = loaded.record()
        loop = asyncio.get_running_loop()
        try:
            view = await loop.run_in_executor(None, seat_view_record, record, seat)
        except ReplayError:
            # Its text may name the cards of other seats: at DEBUG only.
            log_failure(log, logging.ERROR, "game %s: the seat's view of seat %s failed",
                        game_id, seat)
            raise _NoExport("history.broken") from None
        return json.dumps(view, indent=1).encode("utf-8"), seat


class _NoExport(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


async def setup(bot: ToepBot) -> None:
    await bot.add_cog(HistoryCog(bot))
    add_to_toep(bot, [history_command])


async def teardown(bot: ToepBot) -> None:
    remove_from_toep(bot, [history_command])
