"""What people read during an outage and after a lost channel: a clock that
waits instead of a countdown that would lie; a panel that says why the game
ended, with nothing left to click."""

from __future__ import annotations

import dataclasses
import random

from cogs.i18n import t
from cogs.render import hand_panel, table_message
from engine.chance import SeededChance
from engine.game import Game
from engine.rules import TableRules
from engine.views import seat_view
from tables.snapshot import Clock, Status, TableSnapshot
from tests.cogs.helpers import NOW, seats_for, snapshot
from tests.cogs.limits import check_limits


def _moment() -> tuple[Game, TableSnapshot]:

    game = Game(TableRules(), ["P0", "P1"], SeededChance(5))
    snap = snapshot(game, game.opening, random.Random(1))
    return game, dataclasses.replace(snap, seats=seats_for(2))


def test_a_paused_clock_shows_no_countdown() -> None:
    game, snap = _moment()
    waiting = game.waiting()
    paused = dataclasses.replace(snap, clock=Clock(waiting.seats, None, waiting.window, True))
    for lang in ("en", "nl"):
        shown = table_message(paused, lang, NOW)
        check_limits(shown)
        text = shown.embed.description if shown.embed else ""
        assert t(lang, "clock.paused") in (text or "") and "<t:" not in (text or "")
        panel = hand_panel(paused, seat_view(game, 0), lang, NOW)
        assert panel.embed is not None and t(lang, "clock.paused") in (panel.embed.description
                                                                      or "")


def test_a_panel_of_a_lost_table_says_why_and_offers_nothing() -> None:
    game, snap = _moment()
    for reason in ("channel_gone", "no_permission", "save_failed"):
        ended = dataclasses.replace(snap, status=Status.ENDED, end_reason=reason)
        for lang in ("en", "nl"):
            panel = hand_panel(ended, seat_view(game, 0), lang, NOW)
            assert panel.embed is not None and panel.view is None
            assert t(lang, f"table.ended.{reason}") in (panel.embed.description or "")
            table = table_message(ended, lang, NOW)
            assert table.embed is not None
            assert t(lang, f"table.ended.{reason}") in (table.embed.description or "")
