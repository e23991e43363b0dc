"""`/toep learn`: a practice game against three computer players, in an
ephemeral panel with hints (cogs.learn_game holds the lesson); its buttons
carry `toeplearn:<game>:<verb>:<arg>:<stamp>`."""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.answers import say
from cogs.buttons import unlistened
from cogs.community_ids import LearnId
from cogs.i18n import Lang, command_key, lang_for_locale, t
from cogs.learn_game import Lesson, LessonRefusal
from cogs.render_learn import learn_panel
from cogs.render_refusal import refusal
from cogs.replies import refusal_text
from cogs.toep_group import add_to_toep, cog_of, remove_from_toep
from engine.cards import parse_card
from engine.errors import IllegalEvent
from tables.errors import Refusal

if TYPE_CHECKING:
    from bot import ToepBot

MAX_LESSONS = 500  # practice games kept in memory; the oldest goes first


@app_commands.command(name="learn", description=t("en", command_key("toep learn", "desc")))
async def learn_command(interaction: discord.Interaction) -> None:
    await cog_of(interaction, LearnCog).learn(interaction)


class LearnCog(commands.Cog):
    def __init__(self, bot: ToepBot) -> None:
        self.bot = bot
        self.lessons: OrderedDict[int, Lesson] = OrderedDict()  # by user id
        # One lock per person while one of their clicks is being handled.
        self.locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        self.lesson_count = 0

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
            self.lessons.popitem(last=False)
        return lesson

    async def on_component(self, interaction: discord.Interaction, click: LearnId,
                           lang: Lang) -> None:
        number, verb = click.game, click.verb
        user = interaction.user
        lock = self.locks.get(user.id)
        if lock is None:
            lock = self.locks[user.id] = asyncio.Lock()
        async with lock:
            lesson = self.lessons.get(user.id)
            if verb == "new":
                lesson = self._new_lesson(user, lang)
                panel = learn_panel(lesson, lang, first=True)
                await interaction.response.edit_message(embeds=panel.embeds,
                                                        view=unlistened(panel.view))
                return
            if lesson is None or lesson.number != number:
                await say(interaction, t(lang, "learn.gone"))
                return
            if verb == "quit":
                self.lessons.pop(user.id, None)
                await interaction.response.edit_message(content=t(lang, "learn.quit"),
                                                        embeds=[], view=None)
                return
            note = self._move(lesson, verb, click.arg, click.stamp or "", lang)
            panel = learn_panel(lesson, lang, note=note)
            await interaction.response.edit_message(embeds=panel.embeds,
                                                    view=unlistened(panel.view))

    def _move(self, lesson: Lesson, verb: str, arg: str | None, stamp: str,
              lang: Lang) -> str | None:
        """Apply the person's click; a refusal comes back as a note on the panel."""
        card = parse_card(arg) if verb == "play" and arg is not None else None
        names = lesson.game.players
        try:
            lesson.act(verb, card, stamp)
        except LessonRefusal as err:
            return refusal_text(Refusal(str(err)), lang)
        except IllegalEvent as err:
            return refusal(err, lang, names)
        return None


async def setup(bot: ToepBot) -> None:
    await bot.add_cog(LearnCog(bot))
    add_to_toep(bot, [learn_command])


async def teardown(bot: ToepBot) -> None:
    remove_from_toep(bot, [learn_command])
