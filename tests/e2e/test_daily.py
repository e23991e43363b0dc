"""Toep van de dag end to end: two members play the same day's boards, the
one who finishes first sees the results, the other nothing until done; a
restart loses nothing; the day closes in the server's time zone with its
ranking and seed in the admins' channel, and the seed regenerates the boards."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from cogs.render_text import card_label
from data import daily as store
from engine.board_play import record_is_board
from engine.boards import board
from engine.cards import parse_card
from engine.record import replay_json
from tests.e2e.fake_discord.models import Message
from tests.e2e.toep_world import World, open_world, original

BOARDS = 2
# A careful player's answers, as the table tests use: the same order for both
# members, so their choices, and so their games, are the same.
ORDER = ("pass", "believe", "call", "play")


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with open_world(tmp_path, ("anna", "bram")) as opened:
        _small_days(opened)
        yield opened


def _small_days(world: World) -> None:
    """Days of two boards and a par of one run, so the tests stay short."""
    assert world.bot is not None
    # The extension's own module (the bot loads it afresh), so by name.
    cog: Any = world.bot.get_cog("DailyCog")
    assert cog is not None
    cog.service.boards, cog.service.par_runs = BOARDS, 1


def _part(button: dict[str, Any], index: int) -> str:
    return str(button["custom_id"]).split(":")[index]


async def _daily(world: World, who: str, locale: str = "en-US") -> Message:
    res = await world.slash(who, "toep daily", locale=locale)
    assert res.ephemeral
    return (await res.wait_followups(1))[0]


async def _open(world: World, who: str, panel: Message) -> None:
    button = next(b for b in panel.buttons() if _part(b, 2) == "open")
    await world.click(who, panel, str(button["custom_id"]))


def _hand(panel: Message) -> list[str]:
    return sorted(str(b["label"]) for b in panel.buttons()
                  if _part(b, 2) == "act" and _part(b, 5) == "play")


async def _step(world: World, who: str, panel: Message) -> bool:
    """One answer on a board in play; False when the panel asks none."""
    acts = [b for b in panel.buttons() if _part(b, 2) == "act" and not b.get("disabled")]
    for verb in ORDER:
        for button in acts:
            if _part(button, 5) == verb:
                await world.click(who, panel, str(button["custom_id"]))
                return True
    return False


async def _play_day(world: World, who: str, panel: Message, stop_after: int | None = None
                    ) -> None:
    """Play every board on the panel (or only `stop_after` answers)."""
    answers = 0
    for _ in range(400):
        if "ranking" in panel.text.lower():
            return
        if await _step(world, who, panel):
            answers += 1
            if stop_after is not None and answers >= stop_after:
                return
            continue
        await _open(world, who, panel)
    raise AssertionError(f"the day's boards did not end: {panel.text} {panel.buttons()}")


async def test_two_members_get_the_same_boards_and_see_nothing_early(world: World) -> None:
    anna = await _daily(world, "anna")
    bram = await _daily(world, "bram")
    assert "finished 0 of 2 boards" in anna.text and "SHA-256" in anna.text
    shown = next(line for line in anna.text.splitlines() if "SHA-256" in line)
    assert shown in bram.text  # one day, one commitment for the server
    await _open(world, "anna", anna)
    await _open(world, "bram", bram)
    assert _hand(anna) and _hand(anna) == _hand(bram)  # the same board, the same cards
    assert "board 1 of 2" in anna.text

    await _play_day(world, "anna", anna)
    assert "The ranking so far** (1 finished" in anna.text
    assert "1. anna: 50%" in anna.text and "days in a row: 1 (best 1)" in anna.text
    # bram, halfway, sees nothing of anna's day
    again = await _daily(world, "bram")
    assert "finished 0 of 2" in again.text
    assert "anna" not in again.text and "ranking" not in again.text.lower()
    assert "anna" not in bram.text

    await _play_day(world, "bram", bram)
    # the same choices at the same boards: the same games, a tie
    assert "1. anna: 50%" in bram.text and "1. bram: 50%" in bram.text
    assert "2 finished" in bram.text
    # two finishers are few: the par is worked out once, and shows on Refresh
    assert world.bot is not None and world.guild is not None
    db, guild = world.bot.db, world.guild.id

    async def par_ready() -> bool:
        day = await store.get_day(db, guild, "2026-01-05")  # the fake clock's day, UTC
        return day is not None and day.par is not None

    for _ in range(200):
        if await par_ready():
            break
        await asyncio.sleep(0.05)
    await _open(world, "bram", bram)
    assert bram.text.count("against the par") == BOARDS


async def test_a_restart_loses_nothing(world: World) -> None:
    anna = await _daily(world, "anna")
    await _open(world, "anna", anna)
    await _play_day(world, "anna", anna, stop_after=2)
    before = [b["custom_id"] for b in anna.buttons()]
    await world.stop()
    await world.start()
    _small_days(world)
    again = await _daily(world, "anna")
    assert "finished 0 of 2" in again.text
    assert any(_part(b, 2) == "open" for b in again.buttons())
    await _open(world, "anna", again)
    assert [b["custom_id"] for b in again.buttons()] == before
    await _play_day(world, "anna", again)
    assert "1 finished" in again.text
    # /toep history lists the day too
    history = await world.slash("anna", "toep history")
    days = (await history.wait_followups(1))[0]
    assert "Your days of Toep van de dag" in days.text and "today: 2 finished so far" in days.text
    # in Dutch, and bram sees nothing of anna's finished day
    dutch = await _daily(world, "bram", locale="nl")
    assert "Je hebt 0 van de 2 spellen gespeeld" in dutch.text and "anna" not in dutch.text
    assert dutch.button(label="Speel spel 1")


async def test_the_day_closes_in_the_servers_time_zone_and_publishes_its_seed(
        world: World) -> None:
    assert world.bot is not None
    bad = await world.slash("anna", "toep-admin daily-settings", {"time_zone": "Mars/Olympus"})
    assert bad.message is not None and "not a time zone" in bad.message.text
    res = await world.slash("anna", "toep-admin daily-settings",
                            {"time_zone": "europe/amsterdam", "channel": world.channel})
    assert "Europe/Amsterdam" in (res.message.text if res.message else "")
    # a server that opened /toep-admin to a member without Manage Server
    world.fake.grant_command(world.guild, "toep-admin", world.people["bram"])
    refused = await world.slash("bram", "toep-admin daily-settings", {"no_channel": True})
    assert "Only members who may manage" in (refused.message.text if refused.message else "")

    anna = await _daily(world, "anna")
    commitment = next(part for part in anna.text.split("`") if len(part) == 64)
    await _open(world, "anna", anna)
    first_hand = _hand(anna)
    await _play_day(world, "anna", anna)
    assert world.fake.channel_messages(world.channel) == []

    # 12:00 UTC on the fake clock: Amsterdam's midnight is 11 hours away
    await world.fake_clock.advance(10 * 3600)
    assert world.fake.channel_messages(world.channel) == []
    await world.fake_clock.advance(3600 + 120)
    await world.fake.wait_for(lambda: world.fake.channel_messages(world.channel) != [])
    closing = world.fake.channel_messages(world.channel)[0]
    assert "is closed" in closing.text and "1. anna: 50%" in closing.text
    assert closing.notified == set() or not closing.notified
    seed = closing.text.split("--seed ")[1].split()[0]
    assert hashlib.sha256(seed.encode()).hexdigest() == commitment
    b = board(seed, 0)
    hands = b.deck(0)["hands"]
    assert isinstance(hands, list)
    assert first_hand == sorted(card_label(parse_card(c), "en") for c in hands[b.seat])

    # My days: the closed day's records replay and are the board's
    days_res = await world.click("anna", anna, str(next(
        x for x in anna.buttons() if _part(x, 2) == "days")["custom_id"]))
    days = original(days_res)
    assert days.ephemeral and "2/2" not in days.text
    records_button = next(x for x in days.buttons() if _part(x, 2) == "records")
    got = await world.click("anna", days, str(records_button["custom_id"]))
    file_message = (await got.wait_followups(1))[0]
    payload = json.loads(file_message.attachments[0].data)
    assert payload["seed"] == seed and len(payload["records"]) == BOARDS
    for number, record in enumerate(payload["records"]):
        assert replay_json(record).over
        assert record_is_board(board(seed, number), record)
    # the next day is a new one, with a new commitment
    tomorrow = await _daily(world, "anna")
    assert f"today's seed: `{commitment}`" not in tomorrow.text
    assert "today's seed: `" in tomorrow.text and "finished 0 of 2" in tomorrow.text
    assert seed in tomorrow.text  # the last closed day's seed, for anyone to check


async def _tournament(world: World, who: str) -> Message:
    res = await world.slash(who, "toep tournament")
    assert res.ephemeral
    return (await res.wait_followups(1))[0]


async def test_a_tournament_on_the_same_boards_for_every_entrant(world: World) -> None:
    assert world.bot is not None and world.guild is not None
    none = await world.slash("anna", "toep tournament")
    assert none.message is not None and "No tournament is open" in none.message.text
    world.fake.grant_command(world.guild, "toep-admin", world.people["bram"])
    refused = await world.slash("bram", "toep-admin new-tournament", {"boards": 2})
    assert refused.message is not None and "Only members who may manage" in refused.message.text

    opened = await world.slash("anna", "toep-admin new-tournament", {"boards": 2, "hours": 1})
    announcement = original(opened)
    assert not opened.ephemeral and "A tournament is open: 2 boards" in announcement.text
    assert announcement.notified == set() or not announcement.notified
    commitment = next(part for part in announcement.text.split("`") if len(part) == 64)
    again = await world.slash("anna", "toep-admin new-tournament", {"boards": 3})
    assert again.message is not None and "open already" in again.message.text

    anna = await _tournament(world, "anna")
    bram = await _tournament(world, "bram")
    assert commitment in anna.text and "finished 0 of 2" in anna.text
    await _open(world, "anna", anna)
    await _open(world, "bram", bram)
    assert _hand(anna) == _hand(bram) and "Tournament · board 1 of 2" in anna.text
    await _play_day(world, "anna", anna)
    assert "1. anna: 50%" in anna.text and "days in a row" not in anna.text  # no streak, no rating
    assert "anna" not in (await _tournament(world, "bram")).text
    await _play_day(world, "bram", bram)
    assert "2 finished" in bram.text

    await world.fake_clock.advance(3600 + 120)
    await world.fake.wait_for(lambda: len(world.fake.channel_messages(world.channel)) >= 2)
    closing = world.fake.channel_messages(world.channel)[-1]
    assert "The tournament is closed" in closing.text
    assert "anna: 50%" in closing.text and "bram: 50%" in closing.text
    seed = closing.text.split("--seed ")[1].split()[0]
    assert hashlib.sha256(seed.encode()).hexdigest() == commitment
    assert f"--count 2 --commitment {commitment}" in closing.text
    player = await store.get_player(world.bot.db, world.guild.id, world.people["anna"].id)
    assert player.days == 0 and player.rating == 1500.0
    # its buttons now say it has closed; a day of the server is another thing
    await _open(world, "anna", anna)
    assert "That tournament has closed" in anna.text
    assert "finished 0 of 2" in (await _daily(world, "anna")).text
