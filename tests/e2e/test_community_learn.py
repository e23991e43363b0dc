"""`/toep learn` end to end: a practice game in an ephemeral panel, with a
hint on each decision and each rule explained once; no table, no rating."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from data import stats
from tables.clock import SystemClock
from tests.e2e.fake_discord.models import Message
from tests.e2e.toep_world import World, open_world, original

# What the test answers: the hint's move is not visible as a button id, so a
# careful order as the table tests use.
ORDER = ("pass", "call", "play_in", "super_no", "believe", "play")


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with open_world(tmp_path, ("anna", "bram"), clock=SystemClock()) as opened:
        yield opened


def _verb(button: dict[str, Any]) -> str:
    return str(button["custom_id"]).split(":")[2]


def _edited(panel: Message, before: int) -> Callable[[], bool]:
    return lambda: len(panel.edits) > before


async def _decide(world: World, who: str, panel: Message, locale: str | None = None) -> str:
    """Click the panel's first enabled answer by ORDER; the verb clicked."""
    enabled = [b for b in panel.buttons() if not b.get("disabled")]
    for verb in ORDER:
        for button in enabled:
            if _verb(button) == verb:
                before = len(panel.edits)
                await world.fake.click(world.people[who], panel, button["custom_id"],
                                       locale=locale)
                await world.fake.wait_for(_edited(panel, before))
                return verb
    raise AssertionError(f"no answer on the panel: {[b['custom_id'] for b in enabled]}")


async def test_a_practice_game_with_hints_to_the_end(world: World) -> None:
    res = await world.slash("anna", "toep learn")
    panel = original(res)
    assert res.ephemeral
    assert "Welcome to Toepen" in panel.text and "restart" in panel.text
    assert world.fake.channel_messages(world.channel) == []  # no table in the channel
    assert all(b["custom_id"].startswith("toeplearn:") for b in panel.buttons())
    hints = rules = 0
    seen_rules: set[str] = set()
    for _ in range(400):
        if "game over" in panel.text.lower():
            break
        hints += "Hint:" in panel.text
        for line in panel.text.splitlines():
            if line.startswith("**") and ":**" in line:
                assert line not in seen_rules, f"explained twice: {line}"
                seen_rules.add(line)
                rules += 1
        await _decide(world, "anna", panel)
    else:
        raise AssertionError("the practice game did not end")
    assert hints >= 10 and rules >= 2
    assert "Tricks:" in "\n".join(seen_rules)
    assert panel.button(label="New practice game")
    # never rated, never stored
    assert world.bot is not None and world.guild is not None
    found = await stats.player_stats(world.bot.db, world.guild.id, world.people["anna"].id)
    assert found is None
    assert list(world.bot.manager) == []

    await world.fake.click(world.people["anna"], panel, label="New practice game")
    await world.fake.wait_for(lambda: "Welcome to Toepen" in panel.text)


async def test_learn_in_dutch_and_after_the_game_is_gone(world: World) -> None:
    res = await world.slash("bram", "toep learn", locale="nl")
    panel = original(res)
    assert "Welkom bij toepen" in panel.text and "Tip:" in panel.text
    assert "Oefenpotje" in panel.text
    for _ in range(3):
        await _decide(world, "bram", panel, "nl")
    assert "Tip:" in panel.text and "Oefenpotje" in panel.text
    # a new /toep learn replaces the game: the old panel says so
    await world.slash("bram", "toep learn", locale="nl")
    button = next(b for b in panel.buttons() if not b.get("disabled"))
    gone = await world.fake.click(world.people["bram"], panel, button["custom_id"],
                                  locale="nl")
    assert "er niet meer" in original(gone).text
    # stop
    res = await world.slash("bram", "toep learn")
    stop = original(res).button(label="Stop")
    await world.fake.click(world.people["bram"], original(res), stop["custom_id"])
    await world.fake.wait_for(lambda: "stopped" in original(res).text)
