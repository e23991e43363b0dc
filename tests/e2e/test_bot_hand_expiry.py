"""Discord lets the bot edit a hand panel for 15 minutes. Near the end the
panel says when it stops following the game, and then that it did, each
time pointing to "My hand" for a fresh one: it never freezes in silence."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from cogs.i18n import t
from cogs.panels import PANEL_LIFETIME
from tests.e2e.toep_world import World, open_private_table, open_world, start


def _age(world: World, who: str, by: timedelta) -> None:
    """Make `who`'s panel older, as if it had been opened `by` earlier."""
    assert world.bot is not None
    panel = world.bot.presenter.panels[(world.table().id, world.people[who].id)]
    panel.opened -= by


async def _changed(world: World, edits: int) -> None:
    await world.fake.wait_for(lambda: len(world.fake.edit_log) > edits)
    assert world.bot is not None
    await world.bot.presenter.settled()


@pytest.mark.parametrize("lang", ["en", "nl"])
async def test_a_hand_panel_says_before_its_token_runs_out(tmp_path: Path, lang: str) -> None:
    locale = "nl" if lang == "nl" else "en-US"
    async with open_world(tmp_path, ("anna", "bram"), locale=locale) as world:
        await open_private_table(world, guests=("bram",), bots=("easy",))
        await start(world)
        panel = await world.panel("bram")
        assert panel is not None
        soon = t(lang, "hand.expiring", time="\0").split("\0")[0]
        gone = t(lang, "hand.expired")
        assert soon not in panel.text

        _age(world, "bram", PANEL_LIFETIME - timedelta(minutes=2))
        edits = len(world.fake.edit_log)
        await world.answer("anna", "pass")  # the table changes; bram does nothing
        await _changed(world, edits)
        await world.fake.wait_for(lambda: soon in panel.text)
        assert "<t:" in panel.text  # when, in the reader's own time

        _age(world, "bram", timedelta(minutes=3))
        edits = len(world.fake.edit_log)
        await world.fake_clock.advance(11)  # the window closes: the table changes
        await _changed(world, edits)
        await world.fake.wait_for(lambda: gone in panel.text)
        shown = len(panel.edits)
        edits = len(world.fake.edit_log)
        await world.slash("anna", "toep-admin end")  # the table changes once more
        await _changed(world, edits)
        assert len(panel.edits) == shown  # left alone once it said so
