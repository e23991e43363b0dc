"""Bans speak (R19): the leave question says which forfeit this would be and,
for the third, until when; a ban that starts is told to its player privately
(in the walk-out's answer, or at their next interaction, after a restart
too), and so is its lifting by an admin: each once, in their language."""

from __future__ import annotations

import asyncio
import itertools
from datetime import timedelta
from pathlib import Path

import pytest

from cogs.i18n import t
from cogs.render_bans import nth
from cogs.render_text import timestamp
from data import bans, games
from data.bans import BAN_LENGTH
from engine.game import Phase
from tables.snapshot import Status
from tests.e2e.fake_discord.models import Message
from tests.e2e.toep_world import (
    World,
    open_private_table,
    open_public_table,
    open_world,
    original,
    start,
    to_a_turn,
)

CHANNELS = itertools.count(900)  # the other tables' channels
LANGS = pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("nl", "nl")])


async def _forfeited_elsewhere(world: World, who: str, times: int) -> None:
    """`who` forfeited `times` public games in other channels this week."""
    assert world.bot is not None
    db, now = world.bot.db, world.bot.clock.now()
    for i in range(times):
        row = await games.create_game(db, guild_id=world.guild.id, channel_id=next(CHANNELS),
                                      host_id=1, public=True, rules={}, seed=i, now=now)
        await bans.record_forfeit(db, game_id=row.id, guild_id=world.guild.id,
                                  user_id=world.people[who].id, kind="timeout",
                                  at=now - timedelta(hours=times - i))


async def _question(world: World, who: str, locale: str) -> Message:
    res = await world.slash(who, "toep leave", locale=locale)
    return (await res.wait_followups(1))[0]


def _started(lang: str, until: str, left: str) -> str:
    return t(lang, "ban.notice.started", nth=nth(3, lang), days=7, until=until, left=left)


@LANGS
async def test_the_leave_question_counts_the_forfeits_and_names_the_ban(
        tmp_path: Path, locale: str, lang: str) -> None:
    async with open_world(tmp_path, ("anna", "bram"), locale=locale,
                          guild_locale=locale) as world:
        await _forfeited_elsewhere(world, "anna", 1)
        await _forfeited_elsewhere(world, "bram", 2)
        await open_public_table(world)
        assert world.bot is not None
        question = await _question(world, "anna", locale)
        assert question.text == t(lang, "leave.confirm.counts") + "\n" + t(
            lang, "ban.warn.count", nth=nth(2, lang), days=7)
        question = await _question(world, "bram", locale)
        until = timestamp(world.bot.clock.now() + BAN_LENGTH, "f")
        assert until.startswith("<t:") and until.endswith(":f>")  # each reader's own time zone
        assert question.text == t(lang, "leave.confirm.counts") + "\n" + t(
            lang, "ban.warn.last", nth=nth(3, lang), days=7, until=until)


@LANGS
async def test_a_walk_out_that_bans_says_so_in_its_answer(
        tmp_path: Path, locale: str, lang: str) -> None:
    async with open_world(tmp_path, ("anna", "bram"), locale=locale) as world:
        await _forfeited_elsewhere(world, "bram", 2)
        table = await open_public_table(world)
        question = await world.walk_out("bram")
        assert world.bot is not None
        ban = await bans.active_ban(world.bot.db, world.guild.id, world.people["bram"].id,
                                    world.bot.clock.now())
        assert ban is not None and table.status is Status.FINISHED
        told = t(lang, "reply.walked_out") + "\n" + _started(
            lang, timestamp(ban.until, "f"), timestamp(ban.until, "R"))
        try:
            await world.fake.wait_for(lambda: question.text == told)
        except TimeoutError:
            raise AssertionError(f"{question.text!r} != {told!r}") from None
        # told: the next interaction says nothing more of it
        res = await world.slash("bram", "toep stats", locale=locale)
        await world.bot_settled()
        await asyncio.sleep(0.3)  # a notice would follow the command's own answer
        assert res.followups == []
        assert await bans.untold_for(world.bot.db, world.guild.id,
                                     world.people["bram"].id) == []


@LANGS
async def test_a_ban_by_the_clock_is_told_at_the_next_interaction_after_a_restart(
        tmp_path: Path, locale: str, lang: str) -> None:
    async with open_world(tmp_path, ("anna", "bram"), locale=locale) as world:
        table = await open_public_table(world)
        game = table.game
        assert game is not None
        await world.fake_clock.advance(table.rules.window)  # the vuile was moment passes
        assert game.phase is Phase.PLAY
        late = world.name_of(table.seats[game.turn].user_id)
        assert late is not None
        await _forfeited_elsewhere(world, late, 2)
        assert table.deadline is not None
        await world.fake_clock.advance((table.deadline - world.fake_clock.now()).total_seconds())
        await world.fake.wait_for(lambda: table.status is Status.FINISHED)
        assert world.bot is not None
        ban = await bans.active_ban(world.bot.db, world.guild.id, world.people[late].id,
                                    world.bot.clock.now())
        assert ban is not None  # the third forfeit, and nobody was told yet

        await world.stop()  # a restart loses no notice
        await world.start()
        res = await world.slash(late, "toep stats", locale=locale)
        notice = (await res.wait_followups(1))[0]
        assert notice.ephemeral and notice.text == _started(
            lang, timestamp(ban.until, "f"), timestamp(ban.until, "R"))
        assert not original(res).text.startswith("⛔")  # the command's own answer is its own
        # once only; and nobody else hears of it
        other = "bram" if late == "anna" else "anna"
        again = [await world.slash(late, "toep stats", locale=locale),
                 await world.slash(other, "toep stats", locale=locale)]
        await world.bot_settled()
        await asyncio.sleep(0.3)  # a notice would follow the command's own answer
        assert [r.followups for r in again] == [[], []]


@LANGS
async def test_a_lifted_ban_is_told_to_its_player(tmp_path: Path, locale: str,
                                                 lang: str) -> None:
    async with open_world(tmp_path, ("anna", "bram")) as world:
        assert world.bot is not None
        bram = world.people["bram"]
        await _forfeited_elsewhere(world, "bram", 3)
        assert await bans.active_ban(world.bot.db, world.guild.id, bram.id,
                                     world.bot.clock.now()) is not None
        res = await world.slash("anna", "toep-admin bans")
        panel = original(res)
        await world.click("anna", panel, f"toepban:{world.guild.id}:{bram.id}")
        await world.fake.wait_for(lambda: panel.buttons() == [])
        assert await bans.active_ban(world.bot.db, world.guild.id, bram.id,
                                     world.bot.clock.now()) is None
        # bram hears of it at his next click, whatever it is: here, joining a table
        await world.slash("anna", "toep new")
        await world.wait_table_message("anna")
        table = world.table()
        join = world.table_message().button(label=t("en", "btn.join"))
        await world.fake.click(bram, world.table_message(), str(join["custom_id"]), locale=locale)
        told = await world.fake.wait_for(lambda: world.fake.ephemeral_messages(bram) or None)
        assert [m.text for m in told] == [t(lang, "ban.notice.lifted")]  # not "banned" too
        await world.fake.wait_for(lambda: table.seat_of(bram.id) is not None)
        # once; and anna, who lifted it, is not told as if it were hers
        res = await world.slash("bram", "toep stats", locale=locale)
        await world.bot_settled()
        await asyncio.sleep(0.3)
        assert res.followups == []
        assert [m.text for m in world.fake.ephemeral_messages(bram)].count(
            t(lang, "ban.notice.lifted")) == 1
        assert all(m.text != t("en", "ban.notice.lifted")
                   for m in world.fake.ephemeral_messages(world.people["anna"]))


@LANGS
async def test_the_panel_of_a_player_on_the_clock_warns_what_running_out_costs(
        tmp_path: Path, locale: str, lang: str) -> None:
    """The clock warning: while a player's turn clock runs at a public table,
    their panel (theirs only) says which forfeit running out would be and,
    for the one that bans, until when; a vuile was window, where silence is an
    answer, warns of nothing."""
    async with open_world(tmp_path, ("anna", "bram"), locale=locale,
                          guild_locale=locale) as world:
        await _forfeited_elsewhere(world, "anna", 2)
        await _forfeited_elsewhere(world, "bram", 2)
        table = await open_public_table(world)
        assert world.bot is not None
        window_panel = await world.panel("anna")
        assert window_panel is not None and "⏱️" not in window_panel.text
        turn = await to_a_turn(world, table)
        who = world.name_of(table.seats[turn].user_id)
        other = "bram" if who == "anna" else "anna"
        assert who is not None
        await world.clocks_shown()
        panel = await world.panel(who)
        assert panel is not None
        until = timestamp(world.bot.clock.now() + BAN_LENGTH, "f")
        warning = t(lang, "hand.clock_warning", warning=t(
            lang, "ban.warn.last", nth=nth(3, lang), days=7, until=until))
        assert warning in panel.text
        waiting = await world.panel(other)  # not on the clock: no warning
        assert waiting is not None and "⏱️" not in waiting.text


async def test_a_private_table_warns_of_nothing_on_the_clock(tmp_path: Path) -> None:
    async with open_world(tmp_path, ("anna", "bram")) as world:
        await _forfeited_elsewhere(world, "anna", 2)
        await _forfeited_elsewhere(world, "bram", 2)
        table = await open_private_table(world, guests=("bram",))
        await start(world)
        turn = await to_a_turn(world, table)
        who = world.name_of(table.seats[turn].user_id)
        assert who is not None
        await world.clocks_shown()
        panel = await world.panel(who)
        assert panel is not None and "⏱️" not in panel.text
