"""The `/toep` commands (and `/toep-admin end`) and every button click: parse, hand to the table,
answer. No rules here: the table and the engine decide; the presenter shows."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs.answers import component_values
from cogs.buttons import unlistened
from cogs.clicks import waited
from cogs.i18n import Lang, choice_key, command_key, lang_for_locale, option_key, t
from cogs.ids import MANAGE_VERBS, ButtonId
from cogs.lobby_remove import parse_seat_value
from cogs.permissions import is_thread, missing_permissions, missing_text
from cogs.render import hand_panel, names_of
from cogs.replies import refusal_text
from cogs.rule_options import RULE_OPTIONS, chosen_options, public_table_rules, rules_from
from cogs.toep_group import ADMIN, TOEP
from data import games
from data.errors import NotFoundError
from engine.rules import TableRules
from tables.errors import Refusal
from tables.snapshot import Status
from tables.table import Table
from tables.verbs import perform

if TYPE_CHECKING:
    from bot import ToepBot
    from cogs.manage_cog import ManageCog

log = logging.getLogger(__name__)

NEW = "toep new"
# Seconds a "My hand" click may have waited before it reached us and still get
# its panel drawn within the answer; older, it gets a quick "thinking" answer
# and the panel follows. The load gauge is smoothed over about a second; the
# clicks of a burst (every table starting at once) show the queue at once.
HAND_QUEUED = 0.5


def _en(key: str) -> str:
    return t("en", key)


def _describe(command: str, *options: str) -> dict[str, str]:
    return {name: _en(option_key(command, name, "desc")) for name in options}


def _choices(*values: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=_en(choice_key(v)), value=v) for v in values]


class TableCog(commands.Cog):
    # Guild-only, in both of Discord's words (dm_permission, contexts): no
    # command is offered in a DM; cogs/error_path.py refuses one sent anyway.
    toep = app_commands.Group(name=TOEP, description=_en(command_key(TOEP, "desc")),
                              guild_only=True,
                              allowed_contexts=app_commands.AppCommandContext(guild=True))
    # Hidden from members without Manage Server (cogs/toep_group.py says why
    # a group of its own); its commands check the permission again when run.
    admin = app_commands.Group(
        name=ADMIN, description=_en(command_key(ADMIN, "desc")), guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True),
        default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, bot: ToepBot) -> None:
        self.bot = bot

    @property
    def manager(self) -> Any:
        return self.bot.manager

    # --- commands ---------------------------------------------------------------------

    @toep.command(name="new", description=_en(command_key(NEW, "desc")))
    @app_commands.describe(**_describe(NEW, "private", *RULE_OPTIONS))
    @app_commands.choices(next_leader=_choices("after_leader", "after_winner", "winner"),
                          two_left=_choices("normal", "super_toep", "ask"))
    async def new(self, interaction: discord.Interaction, private: bool = False,
                  limit: app_commands.Range[int, 5, 30] | None = None,
                  max_stake: app_commands.Range[int, 2, 10] | None = None,
                  folded_card_wins: bool | None = None,
                  no_toep_past_limit: bool | None = None,
                  next_leader: str | None = None,
                  rounds: app_commands.Range[int, 1, 100] | None = None,
                  seven_counts: bool | None = None,
                  redeal_after: app_commands.Range[int, 2, 5] | None = None,
                  dead_man: bool | None = None,
                  small_players: app_commands.Range[int, 0, 5] | None = None,
                  two_left: str | None = None,
                  max_players: app_commands.Range[int, 2, 8] | None = None,
                  clock: app_commands.Range[int, 10, 60] | None = None,
                  window: app_commands.Range[int, 5, 30] | None = None) -> None:
        lang = lang_for_locale(interaction.locale)
        chosen = chosen_options(locals())
        missing = missing_permissions(interaction.app_permissions,
                                      is_thread(interaction.channel))
        if missing:  # a table the bot could not show: say what it lacks
            await self._say(interaction, missing_text(missing, lang))
            return
        await self._defer(interaction)
        try:
            rules = await self._rules(interaction, private, chosen)
            table = await self.manager.create(
                guild_id=interaction.guild_id or 0, channel_id=interaction.channel_id or 0,
                host_id=interaction.user.id, host_name=interaction.user.display_name,
                public=not private, rules=rules)
        except Refusal as err:
            await self._say(interaction, refusal_text(err, lang))
            return
        await table.announce()
        # The answer links the lobby message itself, once it is posted.
        await self._say(interaction, t(lang, "reply.created",
                                       link=await self.bot.presenter.posted_link(table)))

    async def _rules(self, interaction: discord.Interaction, private: bool,
                     chosen: dict[str, Any]) -> TableRules:
        if not private:
            if chosen:
                raise Refusal("house_rules_private")
            from data import guilds

            settings = await guilds.get_settings(self.bot.db, interaction.guild_id or 0)
            return public_table_rules(settings.public_rules)
        return rules_from(chosen)

    @toep.command(name="invite", description=_en(command_key("toep invite", "desc")))
    @app_commands.describe(**_describe("toep invite", "member"))
    async def invite(self, interaction: discord.Interaction, member: discord.Member) -> None:
        lang = lang_for_locale(interaction.locale)
        await self._defer(interaction)
        table = await self._table_here(interaction)
        if table is None:
            return
        try:
            new = await table.invite(interaction.user.id, member.id)
        except Refusal as err:
            await self._say(interaction, refusal_text(err, lang))
            return
        if new:
            await self._manage().announce(table, interaction.user.id, [member.id])
        await self._say(interaction, t(lang, "reply.invited", member=member.mention))

    @toep.command(name="hand", description=_en(command_key("toep hand", "desc")))
    async def hand(self, interaction: discord.Interaction) -> None:
        table = await self._table_here(interaction)
        if table is not None:
            await self._send_panel(interaction, table)

    @toep.command(name="leave", description=_en(command_key("toep leave", "desc")))
    async def leave(self, interaction: discord.Interaction) -> None:
        lang = lang_for_locale(interaction.locale)
        await self._defer(interaction)
        table = await self._table_here(interaction)
        if table is None:
            return
        playing = table.status is Status.PLAYING
        seat = table.seat_of(interaction.user.id)
        if playing and seat is not None and table.game and not table.game.out[seat]:
            await self._manage().ask_to_leave(interaction, table, lang)  # it forfeits: ask first
            return
        try:
            await table.leave(interaction.user.id)
        except Refusal as err:
            await self._say(interaction, refusal_text(err, lang))
            return
        await self._say(interaction, t(lang, "reply.walked_out" if playing else "reply.left"))

    @admin.command(name="end", description=_en(command_key(f"{ADMIN} end", "desc")))
    async def end(self, interaction: discord.Interaction) -> None:
        lang = lang_for_locale(interaction.locale)
        if not interaction.permissions.manage_guild:
            await self._say(interaction, t(lang, "click.manage_server"))
            return
        await self._defer(interaction)
        table = await self._table_here(interaction)
        if table is None:
            return
        try:
            await table.end("admin")
        except Refusal as err:
            await self._say(interaction, refusal_text(err, lang))
            return
        await self._say(interaction, t(lang, "reply.ended"))

    # --- buttons -------------------------------------------------------------------------

    async def on_button(self, interaction: discord.Interaction, button: ButtonId) -> None:
        """A table button, past the gate (cogs/gate.py): its id read, on the
        clicked message, of this server's table."""
        lang = lang_for_locale(interaction.locale)
        if button.verb in MANAGE_VERBS:
            await self._manage().on_button(interaction, button, lang)
            return
        table = self.manager.get(button.table_id)
        if table is None:
            await self._say(interaction, await self._gone(button.table_id, lang))
            return
        if button.verb == "hand":
            await self._send_panel(interaction, table)
            return
        on_panel = bool(interaction.message and interaction.message.flags.ephemeral)
        await interaction.response.defer()  # within Discord's 3 seconds
        if on_panel:
            self.bot.presenter.register_panel(table.id, interaction.user.id, interaction, lang,
                                              clicked=button.stamp)
        try:
            # Acknowledged already: past capacity the move waits its turn
            # (tables/slots.py), and later clicks are acknowledged meanwhile;
            # a clock that runs out meanwhile waits for it.
            with table.click_waiting():
                async with self.bot.load.slots.hold(urgent=True):
                    await self._dispatch(table, button.verb, _arg(button, interaction),
                                         button.card, button.stamp, interaction.user)
        except Refusal as err:
            names = names_of(table.snapshot())
            await interaction.followup.send(refusal_text(err, lang, names), ephemeral=True)
        # Anything else goes the one error path (cogs/error_path.py).

    async def _dispatch(self, table: Table, verb: str, arg: str | None, card: Any,
                        stamp: str | None, user: discord.abc.User) -> None:
        if verb == "remove":  # the host's menu: its value names the seat (cogs/lobby_remove.py)
            picked = parse_seat_value([arg] if arg is not None else [])
            if picked is None:
                raise Refusal("unknown_action", verb=verb)
            await table.remove(user.id, *picked)
        else:
            await perform(table, user.id, user.display_name, verb, arg, card, stamp)

    async def _gone(self, table_id: int, lang: Lang) -> str:
        try:
            await games.load_game(self.bot.db, table_id)
        except NotFoundError:  # a database error goes the one error path
            return t(lang, "click.unknown_table")
        return t(lang, "click.finished")

    # --- helpers -------------------------------------------------------------------------

    def _manage(self) -> ManageCog:
        # By name: the extension loader imports cogs.manage_cog as a module of
        # its own, so its class is not the one an import here would see.
        cog: Any = self.bot.get_cog("ManageCog")
        assert cog is not None, "cogs.manage_cog is not loaded"
        return cast("ManageCog", cog)

    async def _table_here(self, interaction: discord.Interaction) -> Table | None:
        table: Table | None = self.manager.in_channel(interaction.channel_id or 0)
        if table is None:
            await self._say(interaction, t(lang_for_locale(interaction.locale), "click.no_table"))
        return table

    async def _send_panel(self, interaction: discord.Interaction, table: Table) -> None:
        lang = lang_for_locale(interaction.locale)
        if table.status not in (Status.LOBBY, Status.PLAYING):
            await self._say(interaction, t(lang, "click.finished"))
            return
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await self._say(interaction, t(lang, "click.not_seated"))
            return
        update = table.seat_update(seat)
        if update is None or table.status is not Status.PLAYING:
            await self._say(interaction, t(lang, "click.not_started"))
            return
        # The table as it was last told (saved), not a move still being saved:
        # the panel never shows what a failed save takes back, nor goes back.
        told = self.bot.presenter.told(table.id, update.user_id)
        if told is not None and self._panel_after_answer(interaction):
            # Past capacity, or late already: answered at once, the panel
            # follows in its turn.
            await interaction.response.defer(ephemeral=True, thinking=True)
            self.bot.presenter.follow_panel(table.id, update.user_id, interaction, lang)
            return
        snap, update = told or (table.snapshot(), update)
        now = self.bot.presenter.now()
        warning = await self.bot.presenter.forfeit_warnings.line(
            snap, table.forfeits_count, update.seat, update.user_id, lang, now)
        rendered = hand_panel(snap, update.view, lang, now, warning=warning)
        await interaction.response.send_message(
            content=rendered.content, embed=rendered.embed or discord.utils.MISSING,
            view=unlistened(rendered.view) or discord.utils.MISSING, ephemeral=True)
        self.bot.presenter.register_panel(table.id, interaction.user.id, interaction, lang,
                                          (snap, update))

    def _panel_after_answer(self, interaction: discord.Interaction) -> bool:
        """Whether "My hand" is answered before its panel is drawn: past
        capacity, or when the click already waited in a queue to reach us."""
        if not self.bot.load.shedding.hand_in_answer:
            return True
        return waited(interaction.created_at, self.bot.clock.now()) > HAND_QUEUED

    async def _defer(self, interaction: discord.Interaction) -> None:
        """Acknowledge at once (Discord allows 3 seconds); the answer follows
        once the table and the database have done their part."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)

    async def _say(self, interaction: discord.Interaction, text: str) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)


def _arg(button: ButtonId, interaction: discord.Interaction) -> str | None:
    """The button's argument; for the host's menu, the one value picked."""
    if button.verb != "remove":
        return button.arg
    values = component_values(interaction)
    return values[0] if len(values) == 1 else None


async def setup(bot: ToepBot) -> None:
    await bot.add_cog(TableCog(bot))
