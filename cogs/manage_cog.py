"""Finding and managing a table: `/toep table` brings its message back to
the bottom of the channel; `/toep uninvite` and `/toep house-rules` for the
host of a private lobby; the answers to "leave the game?" (`walkout`,
`stay`) and the "play again" button under a finished game (`again`).

The table cog hands these buttons over (cogs.ids.MANAGE_VERBS)."""

from __future__ import annotations

import logging
import weakref
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.answers import say
from cogs.ban_notices import forfeit_warning_for, notices_of
from cogs.buttons import unlistened
from cogs.i18n import Lang, command_key, lang_for_locale, option_key, t
from cogs.ids import ButtonId
from cogs.invitations import Invitations
from cogs.permissions import is_thread, missing_permissions, missing_text
from cogs.render_manage import leave_question
from cogs.render_text import Rendered
from cogs.replies import refusal_text
from cogs.rule_options import RULE_OPTIONS, chosen_options, public_table_rules, rules_from
from cogs.toep_group import Command, add_to_toep, cog_of, remove_from_toep
from data import games, guilds
from data.errors import NotFoundError
from data.games import LoadedGame
from engine.rules import TableRules
from tables.errors import Refusal, TableFailure
from tables.table import Table

if TYPE_CHECKING:
    from bot import ToepBot

log = logging.getLogger(__name__)

NEW = "toep new"
RULES = "toep house-rules"


def _en(key: str) -> str:
    return t("en", key)


def _as_new(part: str) -> dict[str, app_commands.locale_str]:
    """The options' names or descriptions of /toep new (the same keys, so
    the same words in every language)."""
    return {name: app_commands.locale_str(_en(option_key(NEW, name, part)),
                                          key=option_key(NEW, name, part))
            for name in RULE_OPTIONS}


def _choices(*values: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=_en(f"choice.{v}"), value=v) for v in values]


@app_commands.command(name="table", description=_en(command_key("toep table", "desc")))
async def table_command(interaction: discord.Interaction) -> None:
    await cog_of(interaction, ManageCog).bring_back(interaction)


@app_commands.command(name="uninvite", description=_en(command_key("toep uninvite", "desc")))
@app_commands.describe(member=_en(option_key("toep uninvite", "member", "desc")))
async def uninvite_command(interaction: discord.Interaction, member: discord.Member) -> None:
    await cog_of(interaction, ManageCog).uninvite(interaction, member)


@app_commands.command(name="house-rules", description=_en(command_key(RULES, "desc")))
@app_commands.rename(**_as_new("name"))
@app_commands.describe(**_as_new("desc"))
@app_commands.choices(next_leader=_choices("after_leader", "after_winner", "winner"),
                      two_left=_choices("normal", "super_toep", "ask"))
async def house_rules_command(
        interaction: discord.Interaction,
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
    # The same options, ranges and choices as /toep new (its private house rules);
    # tests/e2e/test_bot_manage.py checks that the two stay the same.
    await cog_of(interaction, ManageCog).house_rules(interaction, chosen_options(locals()))


COMMANDS: tuple[Command, ...] = (table_command, uninvite_command, house_rules_command)


class ManageCog(commands.Cog):
    def __init__(self, bot: ToepBot) -> None:
        self.bot = bot
        # Members already told, per table: invited, withdrawn and invited
        # again, a member is still mentioned only once per table. Held weakly,
        # so a table's entry goes with the table once it closed.
        self.told: weakref.WeakKeyDictionary[Table, set[int]] = weakref.WeakKeyDictionary()
        self.invitations = Invitations(bot)

    async def cog_load(self) -> None:
        self.bot.manager.lobby_watchers.append(self.invitations.lobby_over)
        self.invitations.sweep_left_over(self.bot.manager.shards.owns)

    async def cog_unload(self) -> None:
        self.bot.manager.lobby_watchers.remove(self.invitations.lobby_over)
        await self.invitations.close()

    # --- commands ------------------------------------------------------------------------

    async def bring_back(self, interaction: discord.Interaction) -> None:
        lang = lang_for_locale(interaction.locale)
        table = await self._table_here(interaction, lang)
        if table is None:
            return
        link = await self.bot.presenter.bring_back(table)
        await say(interaction, t(lang, "manage.back" if link else "manage.just_posted",
                                 link=link or ""))

    async def uninvite(self, interaction: discord.Interaction, member: discord.Member) -> None:
        lang = lang_for_locale(interaction.locale)
        table = await self._table_here(interaction, lang)
        if table is not None and await self._done(
                interaction, lang, table.uninvite(interaction.user.id, member.id)):
            await say(interaction, t(lang, "manage.uninvited", member=member.mention))

    async def house_rules(self, interaction: discord.Interaction, chosen: dict[str, Any]) -> None:
        lang = lang_for_locale(interaction.locale)
        table = await self._table_here(interaction, lang)
        if table is None:
            return
        if not chosen:
            await say(interaction, t(lang, "manage.no_options"))
            return
        try:
            rules = rules_from(chosen, table.rules.to_json())
        except Refusal as err:
            await say(interaction, refusal_text(err, lang))
            return
        if await self._done(interaction, lang, table.change_rules(interaction.user.id, rules)):
            await say(interaction, t(lang, "manage.rules_changed"))

    # --- buttons -------------------------------------------------------------------------

    async def on_button(self, interaction: discord.Interaction, button: ButtonId,
                        lang: Lang) -> None:
        if button.verb == "stay":
            await interaction.response.edit_message(content=t(lang, "leave.stayed"), view=None)
        elif button.verb == "walkout":
            notices = notices_of(self.bot)
            if notices is None:
                await self._walk_out(interaction, button.table_id, lang)
                return
            with notices.answered_here(interaction):  # a ban it starts is told in its answer
                await self._walk_out(interaction, button.table_id, lang)
        else:
            await self._play_again(interaction, button.table_id, lang)

    async def _walk_out(self, interaction: discord.Interaction, table_id: int,
                        lang: Lang) -> None:
        await interaction.response.defer()
        table = self.bot.manager.get(table_id)
        text = t(lang, "click.finished")
        if table is not None:
            try:
                await table.walk_out(interaction.user.id)
                text = t(lang, "reply.walked_out")
            except Refusal as err:
                text = refusal_text(err, lang)
            except TableFailure:
                text = t(lang, "click.error")
        notices = notices_of(self.bot)
        try:
            if notices is None:
                await interaction.edit_original_response(content=text, view=None)
                return
            # A ban this walk-out started is told in its answer, then and there.
            async with notices.telling(interaction) as told:
                await interaction.edit_original_response(
                    content="\n".join(x for x in (text, told) if x), view=None)
        except discord.HTTPException as err:  # the walk-out stands; only its answer is lost
            log.warning("the answer to a walk-out could not be shown: %s", err)

    async def _play_again(self, interaction: discord.Interaction, table_id: int,
                          lang: Lang) -> None:
        """A new lobby here: the presser hosts, the others of the finished game
        invited (and mentioned), its computer players and rules again."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            old = await games.load_game(self.bot.db, table_id)
        except NotFoundError:
            await say(interaction, t(lang, "click.unknown_table"))
            return
        user = interaction.user
        people = [s.user_id for s in old.seats if s.user_id is not None]
        # Asked again: those who saw the game to its end, not who walked out
        # or forfeited (they left this company once already).
        stayed = [s.user_id for s in old.seats if s.user_id is not None and not s.forfeited]
        if user.id not in people or old.game.guild_id != (interaction.guild_id or 0):
            await say(interaction, refusal_text(Refusal("not_a_player"), lang))
            return
        missing = missing_permissions(interaction.app_permissions,
                                      is_thread(interaction.channel))
        if missing:  # as for /toep new: a table the bot could not show opens not
            await say(interaction, missing_text(missing, lang))
            return
        try:
            table = await self.bot.manager.create(
                guild_id=old.game.guild_id, channel_id=old.game.channel_id, host_id=user.id,
                host_name=user.display_name, public=old.game.public,
                rules=await self._rules_again(old), invites=() if old.game.public else stayed,
                bots=[s.computer for s in old.seats if s.computer is not None])
        except Refusal as err:
            await say(interaction, refusal_text(err, lang))
            return
        await table.announce()
        others = [u for u in stayed if u != user.id]
        await self.announce(table, user.id, others)
        await say(interaction, t(lang, "reply.created",
                                 link=await self.bot.presenter.posted_link(table)))

    async def _rules_again(self, old: LoadedGame) -> TableRules:
        """A private table's own rules; a public table plays by the server's
        public house rules as they are now (every rated game by the same)."""
        if not old.game.public:
            return TableRules.from_json(old.game.rules)
        settings = await guilds.get_settings(self.bot.db, old.game.guild_id)
        return public_table_rules(settings.public_rules)

    # --- shared --------------------------------------------------------------------------

    async def leave_question(self, table: Table, user_id: int, lang: Lang) -> Rendered:
        """"Leave the game?", saying whether the forfeit counts toward a ban
        (R19), and if it does, which forfeit it would be and what it costs."""
        why_free = (None if table.forfeits_count
                    else "private" if not table.row.public else "alone")
        warning = None
        if why_free is None:
            warning = await forfeit_warning_for(self.bot.db, table.row.guild_id, user_id,
                                                self.bot.clock.now(), lang)
        return leave_question(table.id, why_free, lang, warning)

    async def ask_to_leave(self, interaction: discord.Interaction, table: Table,
                           lang: Lang) -> None:
        question = await self.leave_question(table, interaction.user.id, lang)
        await interaction.followup.send(question.content or "",
                                        view=unlistened(question.view) or discord.utils.MISSING,
                                        ephemeral=True)

    async def announce(self, table: Table, host_id: int, user_ids: Iterable[int]) -> None:
        """Tell the invited in the channel, once: the only mentions that notify."""
        told = self.told.setdefault(table, set())
        users = sorted(set(user_ids) - told)
        if not users:
            return
        told.update(users)
        lang = await self.bot.presenter.table_lang(table.row.guild_id)
        channel = self.bot.get_partial_messageable(table.row.channel_id,
                                                   guild_id=table.row.guild_id)
        key = "manage.invited_public" if table.row.public else "manage.invited"
        text = t(lang, key, members=" ".join(f"<@{u}>" for u in users), host=f"<@{host_id}>",
                 join=t(lang, "btn.join"))
        try:
            message = await channel.send(text, allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(id=u) for u in users], everyone=False, roles=False))
        except discord.HTTPException as err:
            log.warning("table %s: the invitation could not be posted: %s", table.id, err)
            return
        await self.invitations.posted(table, message.id)

    async def _table_here(self, interaction: discord.Interaction, lang: Lang) -> Table | None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        table: Table | None = self.bot.manager.in_channel(interaction.channel_id or 0)
        if table is None:
            await say(interaction, t(lang, "click.no_table"))
        return table

    async def _done(self, interaction: discord.Interaction, lang: Lang, work: Any) -> bool:
        """Await a table change; a refusal or failure is answered here."""
        try:
            await work
        except Refusal as err:
            await say(interaction, refusal_text(err, lang))
            return False
        except TableFailure:
            await say(interaction, t(lang, "click.error"))
            return False
        return True


async def setup(bot: ToepBot) -> None:
    await bot.add_cog(ManageCog(bot))
    add_to_toep(bot, list(COMMANDS))


async def teardown(bot: ToepBot) -> None:
    remove_from_toep(bot, list(COMMANDS))
