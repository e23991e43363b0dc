"""The community commands under `/toep`: leaderboard, stats, history,
learn, settings and bans (issue 6).

The commands join the table cog's `/toep` group (see `setup`); their
components go through one DynamicItem (cogs.community_items) to
`CommunityCog.on_component`. Replies are ephemeral, in the user's locale.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.buttons import unlistened
from cogs.community_items import CommunityItem
from cogs.i18n import Lang, command_key, lang_for_locale, option_key, t
from cogs.learn_game import Lesson, LessonRefusal
from cogs.render_community import (
    MIN_GAMES,
    PAGE_SIZE,
    SETTING_OPTIONS,
    bans_message,
    export_name,
    history_message,
    leaderboard_message,
    parse_value,
    settings_message,
    stats_message,
)
from cogs.render_learn import learn_panel
from cogs.render_text import Rendered, refusal
from cogs.replies import refusal_text
from data import bans, guilds, history, stats
from data.errors import NotFoundError
from data.gameload import load_game
from engine.cards import CardError, parse_card
from engine.errors import IllegalEvent
from engine.record import ReplayError
from engine.rules import RulesError, TableRules
from engine.seat_view_record import seat_view_record
from tables.errors import Refusal

if TYPE_CHECKING:
    from bot import ToepBot

log = logging.getLogger(__name__)

HISTORY_LIMIT = 10
MAX_LESSONS = 500  # practice games kept in memory; the oldest goes first
MAX_OFFSET = 10**7


def _en(key: str) -> str:
    return t("en", key)


def _cog(interaction: discord.Interaction) -> CommunityCog:
    cog = interaction.client.get_cog("CommunityCog")  # type: ignore[attr-defined]
    assert isinstance(cog, CommunityCog)
    return cog


# --- the commands (added to the /toep group in setup) -----------------------------------


@app_commands.command(name="leaderboard", description=_en(command_key("toep leaderboard", "desc")))
async def leaderboard_command(interaction: discord.Interaction) -> None:
    await _cog(interaction).leaderboard(interaction)


@app_commands.command(name="stats", description=_en(command_key("toep stats", "desc")))
@app_commands.describe(member=_en(option_key("toep stats", "member", "desc")))
async def stats_command(interaction: discord.Interaction,
                        member: discord.Member | None = None) -> None:
    await _cog(interaction).stats(interaction, member)


@app_commands.command(name="history", description=_en(command_key("toep history", "desc")))
@app_commands.describe(game=_en(option_key("toep history", "game", "desc")))
async def history_command(interaction: discord.Interaction,
                          game: app_commands.Range[int, 1] | None = None) -> None:
    await _cog(interaction).history(interaction, game)


@app_commands.command(name="learn", description=_en(command_key("toep learn", "desc")))
async def learn_command(interaction: discord.Interaction) -> None:
    await _cog(interaction).learn(interaction)


@app_commands.command(name="settings", description=_en(command_key("toep settings", "desc")))
@app_commands.default_permissions(manage_guild=True)
async def settings_command(interaction: discord.Interaction) -> None:
    await _cog(interaction).settings(interaction)


@app_commands.command(name="bans", description=_en(command_key("toep bans", "desc")))
@app_commands.default_permissions(manage_guild=True)
async def bans_command(interaction: discord.Interaction) -> None:
    await _cog(interaction).bans(interaction)


COMMANDS: tuple[app_commands.Command[Any, Any, Any], ...] = (
    leaderboard_command, stats_command, history_command, learn_command, settings_command,
    bans_command)


class CommunityCog(commands.Cog):
    def __init__(self, bot: ToepBot) -> None:
        self.bot = bot
        self.lessons: OrderedDict[int, Lesson] = OrderedDict()  # by user id
        self.locks: dict[int, asyncio.Lock] = {}
        self.lesson_count = 0

    # --- leaderboard and stats -----------------------------------------------------------

    async def leaderboard(self, interaction: discord.Interaction) -> None:
        lang = lang_for_locale(interaction.locale)
        rendered = await self._board(interaction.guild_id or 0, 0, lang)
        await self._send(interaction, rendered)

    async def _board(self, guild_id: int, offset: int, lang: Lang) -> Rendered:
        db = self.bot.db
        total = await stats.leaderboard_count(db, guild_id, min_games=MIN_GAMES)
        if offset >= total:
            offset = max(0, (total - 1) // PAGE_SIZE * PAGE_SIZE)
        rows = await stats.leaderboard(db, guild_id, min_games=MIN_GAMES, limit=PAGE_SIZE,
                                       offset=offset)
        return leaderboard_message(rows, total, offset, guild_id, lang)

    async def stats(self, interaction: discord.Interaction,
                    member: discord.Member | None) -> None:
        lang = lang_for_locale(interaction.locale)
        who: discord.abc.User = member or interaction.user
        guild_id = interaction.guild_id or 0
        found = await stats.player_stats(self.bot.db, guild_id, who.id, min_games=MIN_GAMES)
        size = await stats.leaderboard_count(self.bot.db, guild_id, min_games=MIN_GAMES)
        name = discord.utils.escape_markdown(who.display_name)
        await self._send(interaction, stats_message(name, found, size, lang))

    # --- history -------------------------------------------------------------------------

    async def history(self, interaction: discord.Interaction, game_id: int | None) -> None:
        lang = lang_for_locale(interaction.locale)
        guild_id = interaction.guild_id or 0
        if game_id is None:
            entries = await history.list_history(self.bot.db, guild_id, interaction.user.id,
                                                 limit=HISTORY_LIMIT)
            await self._send(interaction, history_message(entries, lang))
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
            loaded = await load_game(self.bot.db, game_id)
        except NotFoundError:
            raise _NoExport("history.not_yours") from None
        seat = next((s.seat for s in loaded.seats if s.user_id == user_id), None)
        if loaded.game.guild_id != guild_id or seat is None:
            raise _NoExport("history.not_yours")  # whether it exists is not yours to know
        status = loaded.game.status
        if status in ("lobby", "playing"):
            raise _NoExport("history.in_progress")  # its hidden cards are still secret
        if status != "finished":
            raise _NoExport(f"history.status.{status}")
        record = loaded.record()
        loop = asyncio.get_running_loop()
        try:
            view = await loop.run_in_executor(None, seat_view_record, record, seat)
        except ReplayError:
            log.exception("game %s: the seat's view of seat %s failed", game_id, seat)
            raise _NoExport("history.broken") from None
        return json.dumps(view, indent=1).encode("utf-8"), seat

    # --- learn ---------------------------------------------------------------------------

    async def learn(self, interaction: discord.Interaction) -> None:
        lang = lang_for_locale(interaction.locale)
        lesson = self._new_lesson(interaction.user, lang)
        panel = learn_panel(lesson, lang, first=True)
        await interaction.response.send_message(embeds=panel.embeds, view=unlistened(panel.view),
                                                ephemeral=True)

    def _new_lesson(self, user: discord.abc.User, lang: Lang) -> Lesson:
        self.lesson_count += 1
        computers = [t(lang, "learn.computer", number=i) for i in range(1, 4)]
        lesson = Lesson.new(user.id, self.lesson_count, user.display_name, computers)
        self.lessons.pop(user.id, None)
        self.lessons[user.id] = lesson
        while len(self.lessons) > MAX_LESSONS:
            old, _ = self.lessons.popitem(last=False)
            self.locks.pop(old, None)
        return lesson

    async def _on_learn(self, interaction: discord.Interaction, rest: str, lang: Lang) -> None:
        parts = rest.split(":")
        if len(parts) != 4 or not parts[0].isdigit():
            await self._say(interaction, t(lang, "click.forged"))
            return
        number, verb, arg, stamp = int(parts[0]), parts[1], parts[2], parts[3]
        user = interaction.user
        lock = self.locks.setdefault(user.id, asyncio.Lock())
        async with lock:
            lesson = self.lessons.get(user.id)
            if verb == "new":
                lesson = self._new_lesson(user, lang)
                panel = learn_panel(lesson, lang, first=True)
                await interaction.response.edit_message(embeds=panel.embeds,
                                                        view=unlistened(panel.view))
                return
            if lesson is None or lesson.number != number:
                await self._say(interaction, t(lang, "learn.gone"))
                return
            if verb == "quit":
                self.lessons.pop(user.id, None)
                await interaction.response.edit_message(content=t(lang, "learn.quit"),
                                                        embeds=[], view=None)
                return
            note = self._learn_move(lesson, verb, arg, stamp, lang)
            panel = learn_panel(lesson, lang, note=note)
            await interaction.response.edit_message(embeds=panel.embeds,
                                                        view=unlistened(panel.view))

    def _learn_move(self, lesson: Lesson, verb: str, arg: str, stamp: str,
                    lang: Lang) -> str | None:
        """Apply the person's click; a refusal comes back as a note on the panel."""
        try:
            card = parse_card(arg) if verb == "play" else None
        except CardError:
            return t(lang, "click.forged")
        names = lesson.game.players
        try:
            lesson.act(verb, card, stamp)
        except LessonRefusal as err:
            return refusal_text(Refusal(str(err)), lang)
        except IllegalEvent as err:
            return refusal(err, lang, names)
        return None

    # --- settings ------------------------------------------------------------------------

    async def settings(self, interaction: discord.Interaction) -> None:
        lang = lang_for_locale(interaction.locale)
        if not interaction.permissions.manage_guild:
            await self._say(interaction, t(lang, "settings.not_allowed"))
            return
        await self._send(interaction, await self._settings(interaction.guild_id or 0, lang))

    async def _settings(self, guild_id: int, lang: Lang, picked: str | None = None,
                        note: str | None = None) -> Rendered:
        current = await guilds.get_settings(self.bot.db, guild_id)
        effective = await self.bot.presenter.table_lang(guild_id)
        return settings_message(guild_id, current.language, effective, current.public_rules,
                                lang, picked, note)

    async def _on_settings(self, interaction: discord.Interaction, guild_id: int, what: str,
                           lang: Lang) -> None:
        values = _values(interaction)
        db = self.bot.db
        picked: str | None = None
        note: str | None = None
        if what == "lang":
            code = values[0] if values else ""
            if code not in ("auto", "en", "nl"):
                await self._say(interaction, t(lang, "click.forged"))
                return
            await guilds.set_language(db, guild_id, None if code == "auto" else
                                      ("nl" if code == "nl" else "en"))
            self.bot.presenter.forget_lang(guild_id)
            note = t(lang, "settings.saved")
        elif what == "pick":
            picked = values[0] if values and values[0] in SETTING_OPTIONS else None
        elif what == "reset":
            await guilds.set_public_rules(db, guild_id, {})
            note = t(lang, "settings.reset_done")
        elif what.startswith("value:"):
            picked = what.removeprefix("value:")
            try:
                value = parse_value(picked, values[0] if values else "")
                current = await guilds.get_settings(db, guild_id)
                chosen = {k: v for k, v in current.public_rules.items() if k != "clock"}
                chosen[picked] = value
                TableRules.from_json(chosen)  # validated before it is stored
            except RulesError as err:
                await self._say(interaction, t(lang, "settings.bad_value", reason=str(err)))
                return
            await guilds.set_public_rules(db, guild_id, chosen)
            note = t(lang, "settings.saved")
        else:
            await self._say(interaction, t(lang, "click.forged"))
            return
        log.info("guild %s: settings changed (%s) by %s", guild_id, what, interaction.user.id)
        rendered = await self._settings(guild_id, lang, picked, note)
        await interaction.response.edit_message(content=rendered.content, embed=rendered.embed,
                                                view=unlistened(rendered.view))

    # --- bans ----------------------------------------------------------------------------

    async def bans(self, interaction: discord.Interaction) -> None:
        lang = lang_for_locale(interaction.locale)
        if not interaction.permissions.manage_guild:
            await self._say(interaction, t(lang, "bans.not_allowed"))
            return
        guild_id = interaction.guild_id or 0
        now = self.bot.clock.now()
        found = await bans.list_bans(self.bot.db, guild_id, now)
        await self._send(interaction, bans_message(found, guild_id, lang, now))

    async def _on_ban(self, interaction: discord.Interaction, guild_id: int, rest: str,
                      lang: Lang) -> None:
        if not rest.isdigit() or len(rest) > 20:
            await self._say(interaction, t(lang, "click.forged"))
            return
        user_id = int(rest)
        now = self.bot.clock.now()
        lifted = await bans.lift_ban(self.bot.db, guild_id, user_id, interaction.user.id, now)
        key = "bans.lifted" if lifted is not None else "bans.already_gone"
        note = t(lang, key, user=f"<@{user_id}>")
        found = await bans.list_bans(self.bot.db, guild_id, now)
        rendered = bans_message(found, guild_id, lang, now, note)
        await interaction.response.edit_message(content=rendered.content, embed=rendered.embed,
                                                view=unlistened(rendered.view))

    # --- components ----------------------------------------------------------------------

    async def on_component(self, interaction: discord.Interaction, kind: str, rest: str) -> None:
        lang = lang_for_locale(interaction.locale)
        try:
            if kind == "toeplearn":
                await self._on_learn(interaction, rest, lang)
                return
            guild_text, _, what = rest.partition(":")
            if not guild_text.isdigit() or int(guild_text) != (interaction.guild_id or 0):
                await self._say(interaction, t(lang, "click.forged"))
                return
            guild_id = int(guild_text)
            if kind == "toepboard":
                if not what.isdigit() or int(what) > MAX_OFFSET:
                    await self._say(interaction, t(lang, "click.forged"))
                    return
                rendered = await self._board(guild_id, int(what), lang)
                await interaction.response.edit_message(embed=rendered.embed,
                                                        view=unlistened(rendered.view))
                return
            if not interaction.permissions.manage_guild:
                await self._say(interaction, t(lang, "settings.not_allowed"))
                return
            if kind == "toepset":
                await self._on_settings(interaction, guild_id, what, lang)
            elif kind == "toepban":
                await self._on_ban(interaction, guild_id, what, lang)
            else:
                await self._say(interaction, t(lang, "click.forged"))
        except Exception:
            log.exception("a %s click failed", kind)
            await self._say(interaction, t(lang, "community.error"))

    # --- helpers -------------------------------------------------------------------------

    async def _send(self, interaction: discord.Interaction, rendered: Rendered) -> None:
        kwargs: dict[str, Any] = {"ephemeral": True}
        if rendered.content is not None:
            kwargs["content"] = rendered.content
        if rendered.embed is not None:
            kwargs["embed"] = rendered.embed
        if rendered.view is not None:
            kwargs["view"] = unlistened(rendered.view)
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)

    async def _say(self, interaction: discord.Interaction, text: str) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)


class _NoExport(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _values(interaction: discord.Interaction) -> list[str]:
    data: Any = interaction.data or {}
    values = data.get("values") if isinstance(data, dict) else None
    return [str(v) for v in values] if isinstance(values, list) else []


def _toep_group(bot: ToepBot) -> app_commands.Group:
    table_cog: Any = bot.get_cog("TableCog")
    if table_cog is None:
        raise RuntimeError("cogs.community_cog needs cogs.table_cog loaded first")
    group = table_cog.toep
    assert isinstance(group, app_commands.Group)
    return group


async def setup(bot: ToepBot) -> None:
    await bot.add_cog(CommunityCog(bot))
    group = _toep_group(bot)
    for command in COMMANDS:
        group.add_command(command, override=True)
    bot.add_dynamic_items(CommunityItem)


async def teardown(bot: ToepBot) -> None:
    table_cog: Any = bot.get_cog("TableCog")
    if table_cog is not None:
        for command in COMMANDS:
            table_cog.toep.remove_command(command.name)
    bot.remove_dynamic_items(CommunityItem)
