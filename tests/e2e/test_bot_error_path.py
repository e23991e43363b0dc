"""One error path (issue 11): an unexpected error in a command or a click is
logged with its traceback and table, the person gets a short apology in
their language (never "thinking..." forever), and the table plays on: a
lobby action whose save fails changes nothing, an engine error mid-commit
rolls the game back, and a result that cannot be saved yet is saved later."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cogs.i18n import t
from data import games, stats
from data.group_commit import LogWriter
from engine.events import Event, Happening
from engine.game import Game, Phase
from tables.snapshot import Status
from tables.table import Table
from tests.e2e.fake_discord import InteractionResult
from tests.e2e.fake_discord.snowflake import DISCORD_EPOCH_MS
from tests.e2e.toep_world import (
    World,
    careful,
    open_private_table,
    open_world,
    original,
    panel_button,
    reply,
    start,
)


def _fail_once(real: Callable[..., Any], error: Exception) -> Callable[..., Any]:
    """`real`, except that its first call raises `error`."""
    calls: list[None] = []

    async def once(*args: Any, **kwargs: Any) -> Any:
        calls.append(None)
        if len(calls) == 1:
            raise error
        return await real(*args, **kwargs)

    return once


def _take_errors(world: World, *needles: str) -> list[str]:
    """The bot's logged errors (each must name one of `needles`), cleared."""
    found = [f"{r.getMessage()} {r.exc_text or ''}" for r in world.logged_errors]
    world.logged_errors.clear()
    assert found and all(any(n in text for n in needles) for text in found), found
    return found


async def _saved_events(world: World, table: Table) -> int:
    assert world.bot is not None
    return len((await games.load_game(world.bot.db, table.id)).events)


async def test_a_database_error_in_toep_new_gets_an_apology(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_world(tmp_path, locale="nl") as world:
        locked = sqlite3.OperationalError("database is locked")
        monkeypatch.setattr(games, "create_game", _fail_once(games.create_game, locked))
        res = await world.slash("anna", "toep new", {"private": True})
        answer = await res.wait_message()  # not "thinking..." forever
        assert answer.ephemeral and reply(res) == t("nl", "community.error")
        (logged,) = _take_errors(world, "database is locked")
        assert "/toep new" in logged and "Traceback" in logged
        assert world.bot is not None and list(world.bot.manager) == []

        res = await world.slash("anna", "toep new", {"private": True})  # the next one works
        link = f"/{world.guild.id}/{world.channel.id}/{world.table_message().id}"
        assert reply(res) == t("nl", "reply.created", link=f"https://discord.com/channels{link}")


async def test_a_lobby_action_whose_save_fails_changes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_world(tmp_path, ("anna", "bram")) as world:
        table = await open_private_table(world)
        await world.slash("anna", "toep invite", {"member": world.people["bram"]})
        full = sqlite3.OperationalError("database or disk is full")
        real = games.update_lobby_seats
        monkeypatch.setattr(games, "update_lobby_seats", _fail_once(real, full))
        res = await world.click_table("bram", "join")
        assert reply(res) == t("en", "click.error")
        _take_errors(world, "disk is full")
        assert [s.name for s in table.seats] == ["anna"]  # not half joined
        assert world.bot is not None
        saved = await games.load_game(world.bot.db, table.id)
        assert [s.name for s in saved.seats] == ["anna"]

        await world.click_table("bram", "join")  # the next click works
        assert [s.name for s in table.seats] == ["anna", "bram"]
        await world.wait_table_message("bram")


async def test_an_engine_error_mid_commit_rolls_back_and_the_next_click_works(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_world(tmp_path, ("anna", "bram")) as world:
        table = await open_private_table(world, guests=("bram",))
        await start(world)
        await world.drive(careful, lambda t: t.game is not None and t.game.phase is Phase.PLAY)
        game = table.game
        assert game is not None
        before = len(game.events)
        seat = game.turn
        choice = careful(game, seat)
        waiting = world.name_of(table.seats[seat].user_id)
        assert choice is not None and waiting is not None
        real_apply = Game.apply
        broken: list[Event] = []

        def apply_then_fail(self: Game, event: Event) -> tuple[Happening, ...]:
            happened = real_apply(self, event)  # the event is in the game's log now
            if not broken:
                broken.append(event)
                raise RuntimeError("an engine bug")
            return happened

        monkeypatch.setattr(Game, "apply", apply_then_fail)
        res = await world.answer(waiting, *choice)
        assert reply(res) == t("en", "click.error")
        # A bug's own text may name a card: only its kind is logged at ERROR.
        _take_errors(world, "RuntimeError")
        assert table.game is not None and len(table.game.events) == before  # rolled back
        assert await _saved_events(world, table) == before
        assert table.status is Status.PLAYING and table.game.turn == seat

        # The same decision again: judged, saved and shown like any other.
        res = await world.answer(waiting, *choice)
        assert res.followups == []  # no refusal, no apology
        assert len(table.game.events) > before
        assert await _saved_events(world, table) == len(table.game.events)
        assert world.logged_errors == []


async def test_a_result_that_cannot_be_saved_is_saved_later(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_world(tmp_path, ("anna", "bram")) as world:
        table = await open_private_table(world, guests=("bram",))
        await start(world)
        locked = sqlite3.OperationalError("database is locked")
        monkeypatch.setattr(stats, "finish_game", _fail_once(stats.finish_game, locked))
        question = await world.walk_out("bram")  # walking out ends a game of two
        await world.fake.wait_for(lambda: question.text == t("en", "reply.walked_out"))
        assert table.game is not None and table.game.over
        # Not finished in memory while the database says "playing".
        assert table.status is Status.PLAYING
        assert world.bot is not None
        assert (await games.load_game(world.bot.db, table.id)).game.status == "playing"
        assert world.logged_errors == []  # a warning: it is tried again

        await world.fake_clock.advance(1)
        assert table.status is Status.FINISHED
        assert (await games.load_game(world.bot.db, table.id)).game.status == "finished"
        await world.wait_table_message("anna wins the game!")


async def test_community_commands_and_their_buttons_answer_an_error_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_world(tmp_path, locale="nl") as world:
        locked = sqlite3.OperationalError("database is locked")
        monkeypatch.setattr(stats, "player_stats", _fail_once(stats.player_stats, locked))
        res = await world.slash("anna", "toep stats")
        assert reply(res) == t("nl", "community.error")
        assert "/toep stats" in _take_errors(world, "database is locked")[0]

        board = original(await world.slash("anna", "toep leaderboard"))
        count = _fail_once(stats.leaderboard_count, locked)
        monkeypatch.setattr(stats, "leaderboard_count", count)
        # A page button on anna's own leaderboard (an empty one shows none).
        res = await world.forge_click("anna", f"toepboard:{world.guild.id}:0", board)
        assert reply(res) == t("nl", "community.error")
        _take_errors(world, "database is locked")


async def test_a_panel_opened_during_a_save_never_shows_the_move_it_takes_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_world(tmp_path, ("anna", "bram")) as world:
        table = await open_private_table(world, guests=("bram",))
        await start(world)
        await world.drive(careful, lambda t: t.game is not None and t.game.phase is Phase.PLAY
                          and not t.game.table)
        game = table.game
        assert game is not None
        mover = world.name_of(table.seats[game.turn].user_id)
        other = "bram" if mover == "anna" else "anna"
        choice = careful(game, game.turn)
        assert mover is not None and choice is not None
        panel = await world.panel(mover)
        assert panel is not None and panel_button(panel, *choice) is not None

        # The move's save hangs, then fails (the disk): meanwhile the other
        # player opens their hand, which is not their turn yet.
        held, release = asyncio.Event(), asyncio.Event()
        real_append = LogWriter.append

        async def hanging(self: LogWriter, *args: Any, **kwargs: Any) -> Any:
            held.set()
            await release.wait()
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(LogWriter, "append", hanging)
        move = await world.fake.click(world.people[mover], panel, panel_button(panel, *choice))
        await held.wait()
        # Not world.panel: it would wait for the hanging click's callback too.
        opened = (await world.fake.slash(world.people[other], world.channel, "toep hand",
                                         {})).message
        assert opened is not None and opened.ephemeral and opened.buttons()
        assert [b for b in opened.buttons() if b.get("disabled") is not True
                and str(b.get("custom_id", "")).split(":")[2] == "play"] == []
        release.set()
        monkeypatch.setattr(LogWriter, "append", real_append)
        await world.settle()
        assert reply(move) == t("en", "click.not_saved")
        world.logged_errors.clear()  # none: a failed save is a warning
        assert table.game is not None and table.game.turn == world.seat(mover)


async def test_a_click_that_comes_too_late_is_one_warning_and_the_next_is_answered(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with open_world(tmp_path, ("anna", "bram")) as world:
        await open_private_table(world, guests=("bram",))
        await start(world)
        caplog.set_level(logging.WARNING, logger="cogs.error_path")
        # After an outage Discord may hand over a click whose 3 seconds ran
        # out: nothing can answer it, and that is no bug of ours.
        world.fake.deliver_late()
        late = await world.click_table("anna", "hand")
        assert late.ack_type is None
        rejected = [r for r in world.fake.rejections if r.code == 10062]
        assert len(rejected) == 1  # no apology tried on a token Discord no longer knows
        notes = [r for r in caplog.records if r.name == "cogs.error_path"]
        assert [(r.levelno, r.exc_info) for r in notes] == [(logging.WARNING, None)]
        assert "came too late" in notes[0].getMessage()
        # The world's own checks would count the late click: it is this test's.
        world.fake.rejections.remove(rejected[0])
        del world.fake.store.interactions[late.id]
        assert await world.panel("anna") is not None  # the next click is answered


async def _hand_click_made_ago(world: World, monkeypatch: pytest.MonkeyPatch, who: str,
                               seconds: float) -> InteractionResult:
    """`who` presses "My hand" with a click whose id says it was made `seconds` ago."""
    ids = world.fake.store.ids
    fresh = ids.next
    made = int((ids.wall_clock() - seconds) * 1000) - DISCORD_EPOCH_MS
    monkeypatch.setattr(ids, "next", lambda: (made << 22) | 0x3FFFFF)
    try:
        return await world.click_table(who, "hand")
    finally:
        monkeypatch.setattr(ids, "next", fresh)


async def test_a_click_older_than_discord_takes_answers_for_is_left_alone(
        tmp_path: Path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_world(tmp_path, ("anna", "bram")) as world:
        await open_private_table(world, guests=("bram",))
        await start(world)
        caplog.set_level(logging.WARNING, logger="cogs.clicks")
        # Its id says it was made 10 s ago (a bot that stalled that long).
        old = await _hand_click_made_ago(world, monkeypatch, "anna", 10.0)
        assert old.ack_type is None and old.message is None  # no panel made, none sent
        assert world.fake.rejections == []  # no answer tried that Discord would refuse
        notes = [r.getMessage() for r in caplog.records if r.name == "cogs.clicks"]
        assert len(notes) == 1 and "came too late" in notes[0]
        # The world's own check would count the old click: it is this test's.
        del world.fake.store.interactions[old.id]
        assert await world.panel("anna") is not None  # a fresh click is answered


async def test_a_hand_click_that_waited_in_a_queue_is_answered_before_its_panel(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_world(tmp_path, ("anna", "bram")) as world:
        await open_private_table(world, guests=("bram",))
        await start(world)
        await world.bot_settled()
        # Its id says it was made a second ago: it waited that long to reach
        # the bot (a burst), though the load gauge still reads normal.
        waited = await _hand_click_made_ago(world, monkeypatch, "anna", 1.0)
        assert waited.ack_name == "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE"
        await world.bot_settled()
        assert waited.message is not None and waited.message.buttons()  # the panel came
        fresh_click = await world.click_table("bram", "hand")
        assert fresh_click.ack_name == "CHANNEL_MESSAGE_WITH_SOURCE"  # drawn in the answer
