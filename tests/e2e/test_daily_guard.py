"""Toep van de dag against a cheater and a bad moment: stale, forged and
edited clicks on the day's and the tournament's buttons, the day closing
mid-board and a restart mid-board. Each refusal is a clear private word,
and the member's saved boards stay as they were."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from data import daily as store
from data.daily import PlayedBoard
from tests.e2e.fake_discord.models import Message
from tests.e2e.test_daily import _daily, _hand, _open, _part, _play_day, _small_days, _step
from tests.e2e.toep_world import World, open_world, reply

DAY = "2026-01-05"  # the fake clock's day, UTC
MIDNIGHT = datetime(2026, 1, 6, tzinfo=UTC)  # when it closes


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with open_world(tmp_path, ("anna", "bram")) as opened:
        _small_days(opened)
        yield opened


async def _saved(world: World, who: str, day: str = DAY) -> list[PlayedBoard]:
    assert world.bot is not None and world.guild is not None
    return await store.boards_of(world.bot.db, world.guild.id, day, world.people[who].id)


def _acts(panel: Message) -> list[str]:
    return [str(b["custom_id"]) for b in panel.buttons()
            if _part(b, 2) == "act" and not b.get("disabled")]


def _with(custom_id: str, index: int, value: str) -> str:
    parts = custom_id.split(":")
    parts[index] = value
    return ":".join(parts)


async def _mid_board(world: World, who: str = "anna") -> Message:
    """`who`'s panel on board 1, a choice or two in."""
    panel = await _daily(world, who)
    await _open(world, who, panel)
    await _play_day(world, who, panel, stop_after=2)
    return panel


async def test_a_card_clicked_twice_is_told_the_moment_passed(world: World) -> None:
    """A double click: the second arrives after the first moved the panel on,
    with a button the panel no longer shows (Discord sends the message as it
    is now)."""
    panel = await _mid_board(world)
    old = _acts(panel)
    assert await _step(world, "anna", panel)
    saved = await _saved(world, "anna")
    stale = next(i for i in old if i not in _acts(panel))
    res = await world.fake.forge_click(world.people["anna"], panel, stale)
    await world.settle()
    assert reply(res) == "That moment has passed."
    assert await _saved(world, "anna") == saved


async def test_forged_ids_past_the_gate_change_nothing(world: World) -> None:
    """What a modified client might send from a copy of the member's own
    panel: another board, a board past the day's, another day, an act of a
    tournament nobody opened, records of the open day."""
    panel = await _mid_board(world)
    saved = await _saved(world, "anna")
    act = _acts(panel)[0]
    tries = {
        _with(act, 4, "1"): "That moment has passed.",  # the next board, not begun
        _with(act, 4, "7"): "That moment has passed.",  # past the day's boards
        _with(act, 3, "2026-01-04"): "That day has closed; here is today's.",
        _with(act, 3, "tournament-20260105-100000"): "That tournament has closed",
        f"toepdaily:{world.guild.id}:records:{DAY}":
            "A day's records come out when the day has closed.",
        _with(act, 1, str(world.guild.id + 1)): "That belongs to another server.",
    }
    for custom_id, told in tries.items():
        copy = await _daily(world, "anna")  # a panel of anna's own to send it from
        res = await world.forge_click("anna", custom_id, copy)
        # told in a private answer, or on the panel it was sent from
        text = reply(res) if res.ack_type == 4 or res.followups else copy.text
        assert told in text, (custom_id, text)
        assert await _saved(world, "anna") == saved, custom_id
    # and the panel plays on where it was
    assert await _step(world, "anna", panel)


def _midnight_while_thinking(world: World) -> None:
    """The day's end comes while the computers answer the member's next
    choice: the clock moves past midnight (UTC) inside the worker's call,
    before the board is saved; the tick that closes the day comes later."""
    assert world.bot is not None
    service: Any = world.bot.get_cog("DailyCog").service  # type: ignore[union-attr]
    thread = service._thread

    async def late(fn: Any, *args: Any, **kwargs: Any) -> Any:
        result = await thread(fn, *args, **kwargs)
        if getattr(fn, "__name__", "") == "act" and world.fake_clock.now() < MIDNIGHT:
            world.fake_clock._now = MIDNIGHT + timedelta(seconds=30)
        return result
    service._thread = late


async def test_a_move_as_the_day_closes_is_not_shown_as_played(world: World) -> None:
    panel = await _mid_board(world)
    saved = await _saved(world, "anna")
    shown = _hand(panel)
    _midnight_while_thinking(world)
    assert await _step(world, "anna", panel)
    # not the board with a move that never counted: today's panel, and why
    assert "board 1 of 2" not in panel.text and _hand(panel) != shown
    assert "That day closed before you finished its boards" in panel.text
    assert "finished 0 of 2" in panel.text and "2026-01-06" in panel.text
    assert await _saved(world, "anna") == saved
    await world.fake_clock.advance(120)  # the tick closes the day: anna is not in it
    closed = await store.get_day(world.bot.db, world.guild.id, DAY)  # type: ignore[union-attr]
    assert closed is not None and closed.closed
    assert await _saved(world, "anna") == saved


async def test_yesterdays_buttons_after_the_day_rolled_over(world: World) -> None:
    """anna stopped mid-board, bram finished; the day closed overnight. Their
    old panels' buttons bring today's panel, saying what became of theirs."""
    anna = await _mid_board(world)
    saved = await _saved(world, "anna")
    bram = await _daily(world, "bram")
    await _open(world, "bram", bram)
    await _play_day(world, "bram", bram)
    await world.fake_clock.advance(12 * 3600 + 120)  # past midnight and its tick
    assert await _step(world, "anna", anna)  # a card of yesterday's board
    assert "you are not in its ranking" in anna.text and "2026-01-06" in anna.text
    assert "finished 0 of 2" in anna.text and not _hand(anna)
    assert await _saved(world, "anna") == saved
    await world.click("bram", bram, str(bram.button(label="Refresh")["custom_id"]))
    assert "That day has closed; here is today's." in bram.text
    assert "finished 0 of 2" in bram.text
    # anna's history keeps what she played, unfinished, and counts no day
    history = await world.slash("anna", "toep history")
    days = (await history.wait_followups(1))[0].text
    assert f"{DAY}: " in days and "…" in days
    player = await store.get_player(world.bot.db, world.guild.id,  # type: ignore[union-attr]
                                    world.people["anna"].id)
    assert player.days == 0 and player.streak == 0


async def test_a_restart_mid_board_plays_on_from_the_panel_shown(world: World) -> None:
    """The bot restarts between two choices: the panel it left keeps working,
    the board exactly where it was."""
    panel = await _mid_board(world)
    saved = await _saved(world, "anna")
    buttons = _acts(panel)
    shown = panel.text
    await world.stop()
    await world.start()
    _small_days(world)
    assert _acts(panel) == buttons and panel.text == shown
    assert await _step(world, "anna", panel)
    after = await _saved(world, "anna")
    assert len(after[0].events) > len(saved[0].events)
    assert after[0].events[:len(saved[0].events)] == saved[0].events
    assert "board 1 of 2" in panel.text or "Board 1 is played" in panel.text


async def test_a_tournament_closing_mid_board(world: World) -> None:
    await world.slash("anna", "toep-admin new-tournament", {"boards": 2, "hours": 1})
    res = await world.slash("bram", "toep tournament")
    panel = (await res.wait_followups(1))[0]
    await _open(world, "bram", panel)
    assert await _step(world, "bram", panel)
    key = _part(panel.buttons()[0], 3)
    saved = await _saved(world, "bram", key)
    await world.fake_clock.advance(3600 + 120)  # it closes, its ranking posted
    await world.fake.wait_for(lambda: len(world.fake.channel_messages(world.channel)) >= 2)
    closing = world.fake.channel_messages(world.channel)[-1]
    assert "bram" not in closing.text and "Nobody finished" in closing.text
    assert await _step(world, "bram", panel)
    assert "That tournament has closed" in panel.text and panel.buttons() == []
    assert await _saved(world, "bram", key) == saved


async def test_nothing_of_the_day_shows_before_ones_own_boards_are_done(world: World) -> None:
    """anna finished; bram, mid-board, reads every place the bot answers him."""
    anna = await _daily(world, "anna")
    await _open(world, "anna", anna)
    await _play_day(world, "anna", anna)
    bram = await _mid_board(world, "bram")
    seen = [bram.text]
    for command in ("toep daily", "toep history", "toep leaderboard", "toep stats"):
        res = await world.slash("bram", command)
        seen += [m.text for m in res.messages]
    seen += [m.text for m in world.fake.channel_messages(world.channel)]
    shown = "\n".join(seen)
    assert "finished 0 of 2" in shown and "Your days of Toep van de dag" in shown  # read them
    assert "anna" not in shown and "ranking" not in shown.lower(), shown
    assert "%" not in shown, shown  # no matchpoints, no averages


async def test_a_whole_day_is_one_quiet_message(world: World) -> None:
    """The feel of a day of 8 boards: one private message, rewritten by each
    click (no follow-up to scroll past, no push notification), and a board's
    panel short enough for a phone."""
    assert world.bot is not None
    world.bot.get_cog("DailyCog").service.boards = 8  # type: ignore[union-attr]
    panel = await _daily(world, "anna")
    clicks, longest = 0, 0
    while "ranking" not in panel.text.lower():
        if not await _step(world, "anna", panel):
            await _open(world, "anna", panel)
        clicks += 1
        longest = max(longest, len(panel.text.splitlines()))
        assert clicks < 1000
    mine = world.fake.ephemeral_messages(world.people["anna"])
    assert [m.id for m in mine] == [panel.id]
    assert len(panel.edits) == 1 + clicks  # /toep daily's answer, then each click once
    assert world.fake.channel_messages(world.channel) == [] and not panel.notified
    assert longest <= 32, longest  # the table and the hand, no wall (the seed varies)


async def test_a_double_click_while_the_computers_think_is_answered(world: World) -> None:
    """The second click of a double click comes while the first's computers
    still think (held here until the second is answered): it is acknowledged
    at once, not after them (Discord gives 3 s), and counts once."""
    panel = await _mid_board(world)
    saved = await _saved(world, "anna")
    assert world.bot is not None
    service: Any = world.bot.get_cog("DailyCog").service  # type: ignore[union-attr]
    thread, thinking, release = service._thread, asyncio.Event(), asyncio.Event()

    async def held(fn: Any, *args: Any, **kwargs: Any) -> Any:
        if getattr(fn, "__name__", "") == "act":
            thinking.set()
            await release.wait()
        return await thread(fn, *args, **kwargs)
    service._thread = held
    card = _acts(panel)[0]
    first = asyncio.create_task(world.fake.click(world.people["anna"], panel, card))
    await thinking.wait()
    second = await world.fake.forge_click(world.people["anna"], panel, card)
    assert second.acknowledged
    release.set()
    assert (await first).acknowledged
    await world.settle()
    after = await _saved(world, "anna")
    assert after != saved and "That moment has passed." in panel.text


async def test_no_day_opens_by_a_look_and_no_post_says_nobody_played(world: World) -> None:
    """A day's post comes when someone finished it: a look at one's history
    opens no day, and a day opened but not finished closes without a word in
    the channel (its seed shows on the next day's panel)."""
    assert world.bot is not None and world.guild is not None
    await world.slash("anna", "toep-admin daily-settings", {"channel": world.channel})
    anna = await _daily(world, "anna")
    await _open(world, "anna", anna)
    await _play_day(world, "anna", anna)
    await world.fake_clock.advance(12 * 3600 + 120)
    await world.fake.wait_for(lambda: len(world.fake.channel_messages(world.channel)) == 1)
    history = await world.slash("anna", "toep history")
    days = (await history.wait_followups(1))[0]
    await world.click("anna", anna, str(anna.button(label="My days")["custom_id"]))
    assert f"{DAY}: " in days.text
    assert await store.get_day(world.bot.db, world.guild.id, "2026-01-06") is None
    bram = await _daily(world, "bram")  # opens the day, plays nothing
    assert "finished 0 of 2" in bram.text
    await world.fake_clock.advance(24 * 3600)
    closed = await store.get_day(world.bot.db, world.guild.id, "2026-01-06")
    assert closed is not None and closed.closed
    assert len(world.fake.channel_messages(world.channel)) == 1
    assert closed.seed in (await _daily(world, "bram")).text
