"""`/toep review [game]` and the Review buttons (`toepreview:<game>`, under a
finished game's table message and in `/toep history`): a player's own review
of a finished game of theirs, privately (docs/review.md, "In Discord").

The analysis runs in worker processes (cogs/review_pool.py), never on the
event loop, and is kept in the database once done (data/reviews.py): a
second ask reads it back, an ask while it runs joins it. Meanwhile the
private reply shows how far it is, edited at most every EDIT_EVERY seconds,
and gives up waiting (not the review) before Discord's 15-minute token ends.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.community_ids import CommunityId, ReviewId
from cogs.i18n import Lang, command_key, lang_for_locale, option_key, t
from cogs.own_games import NotOwnFinished, own_finished_game
from cogs.render_review import progress_line, review_message
from cogs.review_picture import review_picture
from cogs.review_pool import Job, ReviewPool, TooMany
from cogs.review_work import ReviewFailed, version
from cogs.toep_group import add_to_toep, cog_of, remove_from_toep
from data import history
from data.reviews import get_review, put_review
from engine.review_judge import SAMPLES
from tables.log_safe import log_failure

if TYPE_CHECKING:
    from bot import ToepBot

log = logging.getLogger(__name__)

EDIT_EVERY = 2.0  # seconds between progress edits: well inside a webhook's rate limit
WAIT_AT_MOST = 13 * 60.0  # seconds: the reply's token lasts 15 minutes


@app_commands.command(name="review", description=t("en", command_key("toep review", "desc")))
@app_commands.describe(game=t("en", option_key("toep review", "game", "desc")))
async def review_command(interaction: discord.Interaction,
                         game: app_commands.Range[int, 1] | None = None) -> None:
    await cog_of(interaction, ReviewCog).review(interaction, game)


class _NoReview(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class ReviewCog(commands.Cog):
    def __init__(self, bot: ToepBot) -> None:
        self.bot = bot
        self.pool = ReviewPool()
        self.samples = SAMPLES  # worlds per decision; tests use fewer
        self.edit_every = EDIT_EVERY
        self.wait_at_most = WAIT_AT_MOST

    async def cog_unload(self) -> None:
        await self.pool.close()

    async def on_component(self, interaction: discord.Interaction, click: CommunityId,
                           lang: Lang) -> None:
        assert isinstance(click, ReviewId)
        await self.review(interaction, click.game_id)

    async def review(self, interaction: discord.Interaction, game_id: int | None) -> None:
        lang = lang_for_locale(interaction.locale)
        await interaction.response.defer(ephemeral=True, thinking=True)
        user_id = interaction.user.id
        try:
            game_id = game_id or await self._last_game(interaction.guild_id or 0, user_id)
            seat, record = await self._game(interaction.guild_id or 0, user_id, game_id)
        except _NoReview as err:
            await interaction.edit_original_response(content=t(lang, err.key, id=game_id))
            return
        key = version(self.samples)
        body = await get_review(self.bot.db, game_id, seat, key)
        if body is None:
            body = await self._worked_out(interaction, game_id, seat, record, lang)
            if body is None:
                return
        picture = await self.pool.render(review_picture, game_id, body, lang)
        file = discord.File(io.BytesIO(picture.png), filename=f"toep-review-{game_id}.png",
                            description=picture.text)
        await interaction.edit_original_response(content=review_message(game_id, body, lang),
                                                 attachments=[file])

    async def _last_game(self, guild_id: int, user_id: int) -> int:
        """The person's last finished game here (none: refused)."""
        entries = await history.list_history(self.bot.db, guild_id, user_id, limit=10)
        done = [e.game.id for e in entries if e.game.status == "finished"]
        if not done:
            raise _NoReview("review.no_games")
        return done[0]

    async def _game(self, guild_id: int, user_id: int,
                    game_id: int) -> tuple[int, dict[str, Any]]:
        """The person's seat in a finished game of theirs here, and its record."""
        try:
            loaded, seat = await own_finished_game(self.bot.db, guild_id, user_id, game_id)
        except NotOwnFinished as err:
            key = err.reason if err.reason in ("not_yours", "in_progress") else "not_finished"
            raise _NoReview(f"review.{key}") from None
        record = dict(loaded.record())
        record.pop("seed", None)  # the deals are in it; the seed would deal the game again
        return seat, record

    async def _worked_out(self, interaction: discord.Interaction, game_id: int, seat: int,
                          record: dict[str, Any], lang: str) -> dict[str, Any] | None:
        """The review from the pool, the progress shown meanwhile; None if
        the person was told something else instead."""
        async def store(body: dict[str, Any]) -> None:
            await put_review(self.bot.db, game_id, seat, version(self.samples), body,
                             self.bot.clock.now())

        try:
            job = self.pool.ask((game_id, seat), interaction.user.id, record, self.samples,
                                store)
        except TooMany:
            await interaction.edit_original_response(
                content=t(lang, "review.too_many", count=self.pool.per_member))
            return None
        try:
            return await self._follow(interaction, job, game_id, lang)
        finally:
            job.askers.discard(interaction.user.id)

    async def _follow(self, interaction: discord.Interaction, job: Job, game_id: int,
                      lang: str) -> dict[str, Any] | None:
        assert job.task is not None
        loop = asyncio.get_running_loop()
        started = loop.time()
        shown = None
        while not job.task.done():
            if loop.time() - started > self.wait_at_most:
                await interaction.edit_original_response(content=t(lang, "review.late",
                                                                   id=game_id))
                return None
            line = progress_line(game_id, job.done, job.total, lang)
            if line != shown:
                await interaction.edit_original_response(content=line)
                shown = line
            await asyncio.wait({job.task}, timeout=self.edit_every)
        if job.task.cancelled():
            await interaction.edit_original_response(content=t(lang, "review.stopping"))
            return None
        try:
            return job.task.result()
        except ReviewFailed:
            # Its text may name cards the asker never saw: at DEBUG only.
            log_failure(log, logging.ERROR, "game %s: the review failed", game_id)
            await interaction.edit_original_response(content=t(lang, "review.broken",
                                                               id=game_id))
            return None


async def setup(bot: ToepBot) -> None:
    await bot.add_cog(ReviewCog(bot))
    add_to_toep(bot, [review_command])


async def teardown(bot: ToepBot) -> None:
    remove_from_toep(bot, [review_command])
