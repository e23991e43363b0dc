"""`/toep daily` (Toep van de dag) and `/toep-admin daily-settings`: the
day's boards played privately against three hard computer players, the
server's day and closing channel, and the closing message; `/toep tournament`
and `/toep-admin new-tournament` on the same boards (tables/daily.py holds the day;
cogs/render_daily.py draws it). Its buttons carry `toepdaily:<guild>:...`.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import weakref
from datetime import timedelta
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.answers import say, send_rendered
from cogs.buttons import unlistened
from cogs.community_ids import CommunityId, DailyId
from cogs.i18n import Lang, command_key, lang_for_locale, option_key, t
from cogs.render_daily import (
    board_panel,
    closing_message,
    day_panel,
    days_panel,
    results_panel,
    settings_text,
    tournament_announcement,
)
from cogs.render_refusal import refusal
from cogs.render_text import Rendered, plain, timestamp
from cogs.toep_group import ADMIN, add_to_toep, cog_of, remove_from_toep
from data import daily as store
from data.daily import Day
from engine import events as ev
from engine.board_play import board_record
from engine.board_session import BoardSession, NothingToPass
from engine.cards import CardError, parse_card
from engine.errors import IllegalEvent
from engine.events import Event
from tables.clock import Timer
from tables.daily import (
    TOURNAMENT,
    TOURNAMENT_BOARDS,
    TOURNAMENT_HOURS,
    Closing,
    Daily,
    zone_name,
)
from tables.log_safe import log_failure
from tables.snapshot import decision_stamp

if TYPE_CHECKING:
    from bot import ToepBot

log = logging.getLogger(__name__)

TICK_S = 60.0  # how often due days are closed


@app_commands.command(name="daily", description=t("en", command_key("toep daily", "desc")))
async def daily_command(interaction: discord.Interaction) -> None:
    await cog_of(interaction, DailyCog).daily(interaction)


@app_commands.command(name="daily-settings",
                      description=t("en", command_key(f"{ADMIN} daily-settings", "desc")))
@app_commands.describe(
    time_zone=t("en", option_key(f"{ADMIN} daily-settings", "time_zone", "desc")),
    channel=t("en", option_key(f"{ADMIN} daily-settings", "channel", "desc")),
    no_channel=t("en", option_key(f"{ADMIN} daily-settings", "no_channel", "desc")))
async def daily_admin_command(interaction: discord.Interaction, time_zone: str | None = None,
                              channel: discord.TextChannel | None = None,
                              no_channel: bool = False) -> None:
    await cog_of(interaction, DailyCog).settings(interaction, time_zone, channel, no_channel)


@app_commands.command(name="tournament",
                      description=t("en", command_key("toep tournament", "desc")))
async def tournament_command(interaction: discord.Interaction) -> None:
    await cog_of(interaction, DailyCog).tournament(interaction)


@app_commands.command(name="new-tournament",
                      description=t("en", command_key(f"{ADMIN} new-tournament", "desc")))
@app_commands.describe(
    boards=t("en", option_key(f"{ADMIN} new-tournament", "boards", "desc")),
    hours=t("en", option_key(f"{ADMIN} new-tournament", "hours", "desc")))
async def tournament_admin_command(
        interaction: discord.Interaction,
        boards: app_commands.Range[int, 1, TOURNAMENT_BOARDS] = 8,
        hours: app_commands.Range[int, 1, TOURNAMENT_HOURS] = 24) -> None:
    await cog_of(interaction, DailyCog).open_tournament(interaction, boards, hours)


class DailyCog(commands.Cog):
    def __init__(self, bot: ToepBot) -> None:
        self.bot = bot
        self.service = Daily(bot.db, bot.clock, bot.executor)
        self.locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        self.timer: Timer | None = None

    async def cog_load(self) -> None:
        self._arm()

    async def cog_unload(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        await self.service.close()

    # --- /toep daily ----------------------------------------------------------------------

    async def daily(self, interaction: discord.Interaction) -> None:
        lang = lang_for_locale(interaction.locale)
        if interaction.guild_id is None:
            await say(interaction, t(lang, "daily.guild_only"))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        day = await self.service.today(interaction.guild_id)
        await send_rendered(interaction, await self._panel(interaction, lang, day))

    async def tournament(self, interaction: discord.Interaction) -> None:
        lang = lang_for_locale(interaction.locale)
        found = None if interaction.guild_id is None else await self.service.tournament(
            interaction.guild_id)
        if found is None:
            await say(interaction, t(lang, "tournament.none"))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await send_rendered(interaction, await self._panel(interaction, lang, found))

    async def _panel(self, interaction: discord.Interaction, lang: Lang, day: Day,
                     note: str | None = None) -> Rendered:
        """The panel of a day or tournament: how far the member is, or their results."""
        guild_id = interaction.guild_id or 0
        played = await store.boards_of(self.bot.db, guild_id, day.day, interaction.user.id)
        finished = sum(p.score is not None for p in played)
        if finished < day.boards:
            previous = None if day.tournament else await store.last_closed(self.bot.db,
                                                                             guild_id)
            return day_panel(day, finished, lang, previous, note)
        standing = await self.service.standing(day)
        player = await store.get_player(self.bot.db, guild_id, interaction.user.id)
        self.service.want_par(day, standing)
        versus = self.service.versus(day, standing, interaction.user.id)
        return results_panel(day, standing, versus, player, interaction.user.id, lang)

    # --- clicks ---------------------------------------------------------------------------

    async def on_component(self, interaction: discord.Interaction, click: CommunityId,
                           lang: Lang) -> None:
        """A button of the panel, past the gate: a DailyId of this server, read
        strictly (cogs/community_ids.py), on the clicker's own panel."""
        if not isinstance(click, DailyId):
            await say(interaction, t(lang, "click.forged"))
            return
        parts = list(click.parts)
        if parts == ["days"]:
            await self._days(interaction, lang)
        elif parts[0] == "records" and len(parts) == 2:
            await self._records(interaction, parts[1], lang)
        elif parts[0] in ("open", "act"):
            # Acknowledged before the member's other click is done with: a
            # double click's second waits for the first's computers, and
            # Discord gives no more than 3 s for the answer.
            await interaction.response.defer()
            async with self._lock(interaction.user.id):
                if parts[0] == "open" and len(parts) == 2:
                    await self._open(interaction, parts[1], lang)
                elif len(parts) == 6 and parts[2].isdigit():
                    await self._act(interaction, parts[1], int(parts[2]), parts[3:], lang)
        else:
            await say(interaction, t(lang, "click.forged"))

    def _lock(self, user_id: int) -> asyncio.Lock:
        """One member's boards move one click at a time."""
        lock = self.locks.get(user_id)
        if lock is None:
            lock = self.locks[user_id] = asyncio.Lock()
        return lock

    async def _today(self, interaction: discord.Interaction, key: str, lang: Lang
                     ) -> Day | None:
        """The day or tournament clicked, if it is open; else today's panel
        (or, for a tournament, a word that it has closed)."""
        found = await self.service.event(interaction.guild_id or 0, key)
        if found is None:
            await self._closed(interaction, key, lang)
        return found

    async def _closed(self, interaction: discord.Interaction, key: str, lang: Lang) -> None:
        """The panel of a day (or tournament) that has closed becomes today's,
        saying so; and saying it counts without the member if they had not
        finished its boards (what they played stays in My days)."""
        guild_id = interaction.guild_id or 0
        if key.startswith(TOURNAMENT):
            await interaction.edit_original_response(content=t(lang, "tournament.over"),
                                                     embed=None, view=None)
            return
        played = await store.boards_of(self.bot.db, guild_id, key, interaction.user.id)
        day = await store.get_day(self.bot.db, guild_id, key)
        done = sum(p.score is not None for p in played)
        unfinished = played and day is not None and done < day.boards
        note = t(lang, "daily.day_over_unfinished" if unfinished else "daily.day_over")
        rendered = await self._panel(interaction, lang, await self.service.today(guild_id),
                                     note)
        await interaction.edit_original_response(embed=rendered.embed,
                                                 view=unlistened(rendered.view))

    async def _open(self, interaction: discord.Interaction, day_name: str, lang: Lang) -> None:
        day = await self._today(interaction, day_name, lang)
        if day is None:
            return
        current = await self._current(interaction, day, lang)
        if current is None:
            rendered = await self._panel(interaction, lang, day)
            await interaction.edit_original_response(embed=rendered.embed,
                                                     view=unlistened(rendered.view))
            return
        index, session = current
        embeds, view = board_panel(day, index, session, lang)
        await interaction.edit_original_response(embeds=embeds, view=unlistened(view))

    async def _act(self, interaction: discord.Interaction, day_name: str, index: int,
                   move: list[str], lang: Lang) -> None:
        day = await self._today(interaction, day_name, lang)
        if day is None:
            return
        current = await self._current(interaction, day, lang)
        if current is None or current[0] != index:
            await interaction.followup.send(t(lang, "daily.moment_passed"), ephemeral=True)
            return
        session = current[1]
        verb, arg, stamp = move
        note = None
        try:
            event = self._event(session, verb, arg)
            if stamp != decision_stamp(session.game) or not session.asked():
                note = t(lang, "daily.moment_passed")
            elif not await self.service.act(day, interaction.user.id, index, session, event):
                # The day closed while the computers answered: nothing was
                # saved, so the board is not shown with the move played.
                await self._closed(interaction, day.day, lang)
                return
        except (CardError, ValueError):
            note = t(lang, "click.forged")
        except NothingToPass:
            note = t(lang, "click.nothing_to_pass")
        except IllegalEvent as err:
            note = refusal(err, lang, session.game.players)
        embeds, view = board_panel(day, index, session, lang, note)
        await interaction.edit_original_response(embeds=embeds, view=unlistened(view))

    async def _current(self, interaction: discord.Interaction, day: Day, lang: Lang
                       ) -> tuple[int, BoardSession] | None:
        return await self.service.current(day, interaction.user.id,
                                          interaction.user.display_name, _computers(lang))

    def _event(self, session: BoardSession, verb: str, arg: str) -> Event | None:
        if verb == "pass":
            return None
        if verb == ev.PLAY:
            return ev.play(session.me, parse_card(arg))
        if verb not in ev.SEAT_EVENTS or verb == ev.FORFEIT:
            raise ValueError(verb)
        return ev.act(verb, session.me)

    async def _days(self, interaction: discord.Interaction, lang: Lang) -> None:
        guild_id = interaction.guild_id or 0
        days = await store.played_days(self.bot.db, guild_id, interaction.user.id)
        today = await self.service.open_today(guild_id)
        await send_rendered(interaction, days_panel(days, today, guild_id, lang))

    async def _records(self, interaction: discord.Interaction, day_name: str,
                       lang: Lang) -> None:
        """The member's records of a closed day, one JSON file (never an open day's)."""
        guild_id = interaction.guild_id or 0
        day = await store.get_day(self.bot.db, guild_id, day_name)
        if day is None or not day.closed:
            await say(interaction, t(lang, "daily.records_open"))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        played = await store.boards_of(self.bot.db, guild_id, day.day, interaction.user.id)
        records = []
        for p in played:
            b = self.service.board(day, p.board)
            names = [p.name if s == b.seat else f"computer {s}" for s in range(4)]
            session = BoardSession.resume(b, names, p.events, self.service.level)
            records.append(board_record(b, session.game, day=day.day))
        payload = json.dumps({"day": day.day, "seed": day.seed, "records": records}, indent=1)
        file = discord.File(io.BytesIO(payload.encode()), filename=f"toep-daily-{day.day}.json")
        await interaction.followup.send(t(lang, "daily.records", day=day.day), file=file,
                                        ephemeral=True)

    async def history_hook(self, interaction: discord.Interaction) -> None:
        """/toep history's daily part: the member's days, if they played any."""
        guild_id = interaction.guild_id or 0
        days = await store.played_days(self.bot.db, guild_id, interaction.user.id)
        if days:
            today = await self.service.open_today(guild_id)
            lang = lang_for_locale(interaction.locale)
            await send_rendered(interaction, days_panel(days, today, guild_id, lang))

    # --- /toep-admin daily-settings -----------------------------------------------------------

    async def settings(self, interaction: discord.Interaction, time_zone: str | None,
                       channel: discord.TextChannel | None, no_channel: bool) -> None:
        lang = lang_for_locale(interaction.locale)
        guild_id = interaction.guild_id
        if guild_id is None or not interaction.permissions.manage_guild:
            await say(interaction, t(lang, "settings.not_allowed"))
            return
        known = None if time_zone is None else zone_name(time_zone)
        if time_zone is not None and known is None:
            await say(interaction, t(lang, "daily.bad_zone", zone=plain(time_zone[:64])))
            return
        if known is not None:
            await store.set_time_zone(self.bot.db, guild_id, known)
        if channel is not None or no_channel:
            await store.set_channel(self.bot.db, guild_id, None if no_channel else channel.id
                                    if channel is not None else None)
        current = await store.get_settings(self.bot.db, guild_id)
        await say(interaction, settings_text(current.time_zone, current.channel_id, lang))

    async def open_tournament(self, interaction: discord.Interaction, boards: int,
                              hours: int) -> None:
        """Open a tournament; its announcement is the command's public answer,
        in the channel where its ranking will be posted."""
        lang = lang_for_locale(interaction.locale)
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if guild_id is None or channel_id is None or not interaction.permissions.manage_guild:
            await say(interaction, t(lang, "settings.not_allowed"))
            return
        opened = await self.service.open_tournament(guild_id, boards, hours, channel_id)
        if opened is None:
            running = await self.service.tournament(guild_id)
            closes = "" if running is None else timestamp(running.closes_at)
            await say(interaction, t(lang, "tournament.busy", closes=closes))
            return
        table_lang = await self.bot.presenter.table_lang(guild_id)
        await interaction.response.send_message(
            embed=tournament_announcement(opened, table_lang),
            allowed_mentions=discord.AllowedMentions.none())

    # --- the close -------------------------------------------------------------------------

    def _arm(self) -> None:
        when = self.bot.clock.now() + timedelta(seconds=TICK_S)
        self.timer = self.bot.clock.call_at(when, self._tick)

    async def _tick(self) -> None:
        owns = self.bot.settings.shards.owns
        try:
            await self.service.close_due(owns)
            # Every closed day not yet posted, just closed or left over from a
            # post Discord refused or a stop in between: one way to the channel.
            for closing in await self.service.unposted(owns):
                if await self._post(closing):
                    await self.service.posted(closing.day)
        except Exception:
            log_failure(log, logging.ERROR, "closing the due daily days failed")
        finally:
            self._arm()

    async def _post(self, closing: Closing) -> bool:
        """Post a closed day's results; False when Discord failed for a passing
        reason (a 5xx, a 429, the connection), so the next tick tries again."""
        guild_id = closing.day.guild_id
        channel_id = closing.day.channel_id
        if not closing.day.tournament:
            channel_id = (await store.get_settings(self.bot.db, guild_id)).channel_id
        if channel_id is None or not (closing.day.tournament or closing.standing.rows):
            # A day nobody finished posts nothing: no nightly word about
            # nobody. Its seed shows on the next day's panel.
            return True
        channel = self.bot.get_channel(channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            log.warning("guild %s: the daily channel is gone", guild_id)
            return True
        lang = await self.bot.presenter.table_lang(guild_id)
        embed = closing_message(closing, lang).embed
        assert embed is not None
        try:
            await channel.send(embed=embed,
                               allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as err:
            passing = err.status >= 500 or err.status == 429
            log_failure(log, logging.WARNING, f"guild {guild_id}: the daily results not posted"
                        + ("; tried again at the next tick" if passing else ""))
            return not passing  # a 403 or 404 stays: no use trying again
        except (TimeoutError, OSError):  # the connection: a passing reason
            log_failure(log, logging.WARNING, f"guild {guild_id}: the daily results not posted"
                        "; tried again at the next tick")
            return False
        return True


def _computers(lang: Lang) -> list[str]:
    return [t(lang, "learn.computer", number=i) for i in range(1, 4)]


async def setup(bot: ToepBot) -> None:
    await bot.add_cog(DailyCog(bot))
    add_to_toep(bot, [daily_command, tournament_command])
    add_to_toep(bot, [daily_admin_command, tournament_admin_command], ADMIN)


async def teardown(bot: ToepBot) -> None:
    remove_from_toep(bot, [daily_command, tournament_command])
    remove_from_toep(bot, [daily_admin_command, tournament_admin_command], ADMIN)
