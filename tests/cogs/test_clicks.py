"""Clicks too old to be answered are left alone (cogs/clicks.py), and logged
without the card their button carries."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import discord

from cogs.clicks import TOO_LATE, too_late
from cogs.error_path import what_was_clicked

MADE = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


def test_a_click_within_discords_three_seconds_is_answered() -> None:
    for seconds in (0.0, 1.0, 3.0, TOO_LATE):
        assert not too_late(MADE, MADE + timedelta(seconds=seconds))


def test_a_click_past_the_margin_is_left_alone() -> None:
    assert TOO_LATE > 3.0  # Discord's own limit, with a margin for clocks apart
    assert too_late(MADE, MADE + timedelta(seconds=TOO_LATE + 0.01))
    assert too_late(MADE, MADE + timedelta(minutes=5))


def test_the_log_names_the_button_never_its_card() -> None:
    click: Any = SimpleNamespace(command=None, data={"custom_id": "toep:12:play:8H:1f"},
                                 type=discord.InteractionType.component)
    assert what_was_clicked(click) == "the click on 'toep:12:play'"


def test_the_log_shows_a_few_characters_of_a_forged_id() -> None:
    # A forged id is the clicker's own text: the log quotes no more than a little.
    click: Any = SimpleNamespace(command=None, data={"custom_id": "toep:" + "9" * 4000},
                                 type=discord.InteractionType.component)
    assert len(what_was_clicked(click)) < 60
    command: Any = SimpleNamespace(command=None, data={"name": "x" * 4000},
                                   type=discord.InteractionType.application_command)
    assert what_was_clicked(command) == "/" + "x" * 40
