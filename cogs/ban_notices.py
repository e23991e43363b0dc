"""Bans speak: a player is told privately when a ban of theirs starts and
when an admin lifts it (R19), and warned before a forfeit that would start
one (`forfeit_warning_for`).

How: an ephemeral message at the player's next interaction with the bot in
that server, whatever it is (a command, a button, a menu), after the bot's
own answer to it. Not a DM: many members accept no DMs from a server's
members, and a DM comes out of context; an ephemeral message reaches
everyone, privately, where they play. A walk-out that starts a ban says so
in its own answer (cogs/manage_cog.py), and the clock's forfeit is told at
the next interaction.

Each notice is told once. Whether it was told is kept with the ban in the
database (data/bans.py `mark_told`), so a restart loses none. In memory is
only who has an untold notice (read at start, added to when a saved forfeit
starts a ban or an admin lifts one), so an interaction of anyone else costs
a set lookup, not a query. A guild's bans, lifts and interactions all reach
the process that holds its shard, so the set is right in a cluster too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from datetime import datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.i18n import Lang, lang_for_locale
from cogs.render_bans import forfeit_warning, notices_text
from data import bans
from data.db import Database

if TYPE_CHECKING:
    from bot import ToepBot

log = logging.getLogger(__name__)

Key = tuple[int, int]  # (guild, user)

# First answers after which a follow-up is a message of its own. After a
# "thinking..." answer (deferred_channel_message) the first follow-up would
# replace it, so a notice waits for the next interaction instead.
_FOLLOWS = frozenset({discord.InteractionResponseType.channel_message,
                      discord.InteractionResponseType.deferred_message_update,
                      discord.InteractionResponseType.message_update})
ANSWER_WAIT = 3.5  # seconds: Discord's 3 for a first answer, and a margin
POLL = 0.05


class BanNoticesCog(commands.Cog):
    def __init__(self, bot: ToepBot) -> None:
        self.bot = bot
        # Who has an untold notice; the number moves on with each new one, so
        # a notice that comes while older ones are told is not forgotten.
        self.pending: dict[Key, int] = {}
        self._telling: set[Key] = set()
        self._own: set[int] = set()  # interactions whose answer tells their own notices

    async def cog_load(self) -> None:
        for key in await bans.untold(self.bot.db):
            self.add(*key)
        self.bot.manager.deps.writer.on_ban = self.ban_started

    async def cog_unload(self) -> None:
        writer = self.bot.manager.deps.writer
        if writer.on_ban == self.ban_started:
            writer.on_ban = None

    def ban_started(self, ban: bans.Ban) -> None:
        self.add(ban.guild_id, ban.user_id)

    def add(self, guild_id: int, user_id: int) -> None:
        """The user has a new untold notice in the guild (saved already)."""
        key = (guild_id, user_id)
        self.pending[key] = self.pending.get(key, 0) + 1

    # --- when to tell --------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A click or a form: told once the bot's own answer went out.
        (Slash commands: on_app_command_completion.)"""
        if interaction.type not in (discord.InteractionType.component,
                                    discord.InteractionType.modal_submit):
            return
        if _key(interaction) not in self.pending:
            return
        if await _answered(interaction) in _FOLLOWS and interaction.id not in self._own:
            await self.tell(interaction)

    @commands.Cog.listener()
    async def on_app_command_completion(
            self, interaction: discord.Interaction,
            command: app_commands.Command[commands.Cog, ..., None]) -> None:
        """A slash command has done all its answering: a follow-up is its own message."""
        if _key(interaction) in self.pending and interaction.response.is_done():
            await self.tell(interaction)

    @contextlib.contextmanager
    def answered_here(self, interaction: discord.Interaction) -> Iterator[None]:
        """The block answers `interaction` and tells its notices in that answer
        (`telling`): a walk-out that starts a ban says so then and there."""
        self._own.add(interaction.id)
        try:
            yield
        finally:
            self._own.discard(interaction.id)

    # --- telling -------------------------------------------------------------------------

    async def tell(self, interaction: discord.Interaction) -> None:
        """The user's untold notices, as an ephemeral follow-up."""
        try:
            async with self.telling(interaction) as text:
                if text:
                    await interaction.followup.send(text, ephemeral=True)
        except (discord.HTTPException, discord.RateLimited) as err:
            # Still untold in the database and here: the next interaction tries again.
            log.warning("a ban notice could not be sent: %s", err)
        except Exception:  # the database's trouble: the same
            log.warning("a ban notice could not be told", exc_info=True)

    @contextlib.asynccontextmanager
    async def telling(self, interaction: discord.Interaction) -> AsyncIterator[str]:
        """The text of the user's untold notices ("" if none, or if another
        interaction tells them right now), in their language. They count as
        told once the block has shown them, without an error."""
        key = _key(interaction)
        if key not in self.pending or key in self._telling:
            yield ""
            return
        self._telling.add(key)
        try:
            seen = self.pending[key]
            notices = await bans.untold_for(self.bot.db, *key)
            now = self.bot.clock.now()
            yield notices_text(notices, now, lang_for_locale(interaction.locale))
            await bans.mark_told(self.bot.db, notices, now)
            if self.pending.get(key) == seen:
                del self.pending[key]
        finally:
            self._telling.discard(key)


async def forfeit_warning_for(db: Database, guild_id: int, user_id: int, now: datetime,
                              lang: Lang) -> str | None:
    """The warning before a forfeit that counts toward a ban: which one in the
    window it would be, and for the last until when it would bar the player.
    For the leave question (cogs/manage_cog.py) and for a warning before a
    turn's clock runs out at a table where forfeits count."""
    return forfeit_warning(await bans.standing(db, guild_id, user_id, now), now, lang)


def _key(interaction: discord.Interaction) -> Key:
    return (interaction.guild_id or 0, interaction.user.id)


async def _answered(interaction: discord.Interaction) -> discord.InteractionResponseType | None:
    """The first answer the bot gave, once given (None if none came in time).
    discord.py tells no one when it answers, so this looks: only for the
    rare person with an untold notice."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + ANSWER_WAIT
    while not interaction.response.is_done():
        if loop.time() >= deadline:
            return None
        await asyncio.sleep(POLL)
    return interaction.response.type


def notices_of(bot: commands.Bot) -> BanNoticesCog | None:
    cog = bot.get_cog("BanNoticesCog")
    return cog if isinstance(cog, BanNoticesCog) else None

