"""Play on its own: what an act, a pass, a forfeit and a clock that ran out
hand the table to commit, and what they refuse (nothing committed then)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import pytest

from data import bans
from data.db import Database
from data.group_commit import LogWriter
from engine import events as ev
from engine.chance import SeededChance
from engine.events import Event
from engine.game import Game, Phase
from engine.rules import TableRules
from tables.clock import FakeClock
from tables.errors import Refusal
from tables.journal import Journal
from tables.play import Play
from tables.snapshot import SeatInfo

SEATS = [SeatInfo(0, 100, None, "Anna"), SeatInfo(1, 101, None, "Bram"),
         SeatInfo(2, None, "normal", "Bot 1")]


class FakeTable:
    """Commits straight to the game: no database."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.committed: list[tuple[list[Event], bans.Forfeit | None]] = []
        self.shown = 0

    async def commit(self, events: Sequence[Event],
                     forfeit: bans.Forfeit | None = None) -> None:
        self.committed.append((list(events), forfeit))
        for event in events:
            self.journal.in_play().apply(event)

    async def show(self) -> None:
        self.shown += 1


def _play(counted: bool = True) -> tuple[Play, FakeTable, Game]:
    journal = Journal(7, 1, cast(Database, None), cast(LogWriter, None), keep=8)
    # Seat 0 (a person) leads the first trick.
    game = journal.game = Game(TableRules(), [s.name for s in SEATS], SeededChance(0))
    table = FakeTable(journal)
    play = Play(table, journal, guild_id=10, clock=FakeClock())
    play.begin(SEATS, forfeits_count=counted)
    return play, table, game


def _to_play(game: Game) -> int:
    game.apply(ev.act(ev.CLOSE_WINDOW))
    assert game.phase is Phase.PLAY
    return game.waiting().seats[0]


async def test_an_illegal_act_is_refused_and_nothing_is_committed() -> None:
    play, table, game = _play()
    seat = _to_play(game)
    other = (seat + 1) % 3
    with pytest.raises(Refusal):
        await play.act(other, ev.PLAY, game.hands[other][0])  # not their turn
    assert table.committed == []
    card = game.legal_events(seat)[0].card
    assert card is not None
    await play.act(seat, ev.PLAY, card)
    assert table.committed == [([ev.play(seat, card)], None)]


async def test_a_window_closes_once_everyone_it_waits_for_passed() -> None:
    play, table, game = _play()
    waiting = game.waiting().seats
    for seat in waiting[:-1]:
        await play.act(seat, "pass", None)
    assert play.passed == set(waiting[:-1]) and table.shown == len(waiting) - 1
    await play.computer_move([waiting[-1]])
    assert table.committed == [([ev.act(ev.CLOSE_WINDOW)], None)]
    with pytest.raises(Refusal, match="nothing_to_pass"):
        await play.act(game.waiting().seats[0], "pass", None)


async def test_a_pass_is_final_no_vuile_was_after_it() -> None:
    """R17: passing answered the window; the others may still call."""
    play, table, game = _play()
    first, second = game.waiting().seats[:2]
    await play.act(first, "pass", None)
    with pytest.raises(Refusal, match="window_passed"):
        await play.act(first, ev.VUILE_WAS, None)
    assert table.committed == []
    await play.act(second, ev.VUILE_WAS, None)
    assert table.committed == [([ev.act(ev.VUILE_WAS, second)], None)]


@pytest.mark.parametrize("counted", [True, False])
async def test_a_forfeit_counts_toward_a_ban_only_where_r19_says(counted: bool) -> None:
    play, table, _ = _play(counted)
    await play.forfeit(0, "walkout")
    events, forfeit = table.committed[0]
    assert events == [ev.act(ev.FORFEIT, 0)]
    assert (forfeit is not None) is counted
    assert forfeit is None or (forfeit.user_id, forfeit.kind) == (100, "walkout")
    with pytest.raises(Refusal, match="already_out"):
        await play.forfeit(0, "walkout")


async def test_time_out_silences_a_window_and_forfeits_people_on_a_turn() -> None:
    play, table, game = _play()
    await play.time_out()
    assert table.committed[0] == ([ev.act(ev.CLOSE_WINDOW)], None)
    assert game.waiting().seats == (0,)
    await play.time_out()
    events, forfeit = table.committed[1]
    assert events == [ev.act(ev.FORFEIT, 0)]
    assert forfeit is not None and (forfeit.user_id, forfeit.kind) == (100, "timeout")
