"""Clock and window paths at a live table: the super toep question (R15, R17),
a dead man's choice on a running turn clock (R13, R16), a caller who forfeits
in the check window (R12), the window time (V14), a window nobody can use
that stays open all the same (V12 with 8 players), and R18 when one of two people goes out."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest

from data import bans
from engine import events as ev
from engine.game import Game, Phase
from engine.rules import TableRules
from engine.state import NORMAL, SUPER_TOEP
from tables.clock import FakeClock
from tables.errors import Refusal
from tables.manager import TableManager
from tables.table import Table
from tests.tables.conftest import Recorder, new_table, person_acts


def _game(table: Table) -> Game:
    assert table.game is not None
    return table.game


def _user(table: Table, seat: int) -> int:
    user = table.seats[seat].user_id
    assert user is not None
    return user


async def _play_until(table: Table, done: Callable[[Game], bool], limit: int = 2000) -> None:
    """People pass every window and play a card (or call, or play in) on every
    turn, never toep, until `done`; computer players play as they like."""
    for _ in range(limit):
        await table.settled()
        game = _game(table)
        if done(game):
            return
        assert not game.over, "the game ended first"
        assert await person_acts(table), f"stuck: {game.phase} waiting for {game.waiting()}"
    raise AssertionError("never got there")


def _asked(game: Game) -> bool:
    return game.phase is Phase.SUPER_QUESTION


# --- the super toep question (R15, R17) ---------------------------------------------------


async def test_r15_super_toep_question_silence_is_no_and_nobody_forfeits(
        manager: TableManager, clock: FakeClock) -> None:
    table = await new_table(manager, humans=3, bots=[])
    game = _game(table)
    await table.walk_out(3)  # seat 2 goes out: two are left
    await _play_until(table, _asked)
    assert game.waiting().seats == (0, 1) and game.waiting().window
    assert table.deadline is not None
    assert table.deadline - clock.now() == timedelta(seconds=10)  # V14, not the turn clock
    await table.act(1, ev.SUPER_YES, stamp=table.stamp)
    assert game.phase is Phase.SUPER_QUESTION and game.waiting().seats == (1,)
    await clock.advance(9.5)  # a fresh window for the one still asked
    assert game.phase is Phase.SUPER_QUESTION
    await clock.advance(1)
    assert game.events[-1] == ev.act(ev.SUPER_NO, 1)  # silence is no
    assert game.kind == NORMAL and game.phase is Phase.WINDOW
    assert game.forfeited == [False, False, True]


async def test_r15_two_yes_give_a_super_toep(manager: TableManager) -> None:
    table = await new_table(manager, humans=3, bots=[])
    game = _game(table)
    await table.walk_out(2)  # seat 1 goes out
    await _play_until(table, _asked)
    assert set(game.waiting().seats) == {0, 2}
    await table.act(3, ev.SUPER_YES, stamp=table.stamp)  # either order
    await table.act(1, ev.SUPER_YES, stamp=table.stamp)
    assert game.kind == SUPER_TOEP
    assert len(game.hands[0]) == len(game.hands[2]) == 8 and game.hands[1] == []


async def test_r15_answers_in_any_order_count_on_the_buttons_first_shown(
        manager: TableManager) -> None:
    table = await new_table(manager, humans=3, bots=[])
    game = _game(table)
    before = table.stamp
    await table.walk_out(2)
    await _play_until(table, _asked)
    shown = table.stamp  # both panels got the question with this stamp
    await table.act(3, ev.SUPER_YES, stamp=shown)
    await table.act(1, ev.SUPER_YES, stamp=shown)  # not "that moment has passed"
    assert game.kind == SUPER_TOEP
    with pytest.raises(Refusal, match="moment_passed"):
        await table.act(1, ev.PLAY, game.hands[0][0], stamp=before)


async def test_r15_a_computer_answers_the_question_at_once(
        manager: TableManager, clock: FakeClock) -> None:
    table = await new_table(manager, humans=2, bots=["normal"])
    game = _game(table)
    started = clock.now()
    await table.walk_out(2)  # the person at seat 1 goes out; the host and a computer left
    await _play_until(table, lambda g: _asked(g) or g.round_number >= 2)
    answers = [e for e in game.events if e.do in (ev.SUPER_YES, ev.SUPER_NO)]
    if _asked(game):  # the computer said yes: only the host is still asked
        assert answers == [ev.act(ev.SUPER_YES, 2)] and game.waiting().seats == (0,)
        await table.act(1, ev.SUPER_YES, stamp=table.stamp)
        assert game.kind == SUPER_TOEP
    else:  # the computer said no, and the first no ends the question
        assert answers == [ev.act(ev.SUPER_NO, 2)] and game.kind == NORMAL
    assert clock.now() == started and not game.forfeited[0]  # no time passed


# --- the dead man's round (R13) on a turn clock (R16) --------------------------------------


async def test_r13_r16_dead_mans_choice_runs_out_and_forfeits(
        manager: TableManager, clock: FakeClock) -> None:
    table = await new_table(manager, humans=3, bots=[])
    game = _game(table)
    game.marks[0] = game.rules.edge  # seat 0 is on the edge when this round ends
    await _play_until(table, lambda g: g.phase is Phase.PLAY and g.turn == 0)
    await table.act(1, ev.TOEP, stamp=table.stamp)
    await table.act(_user(table, game.toep_turn), ev.FOLD, stamp=table.stamp)
    await table.act(_user(table, game.toep_turn), ev.FOLD, stamp=table.stamp)
    # Seat 0 won the round alone (R6) and stays on the edge: its dead man's round.
    assert game.dead_men == (0,) and game.phase is Phase.DEAD_MAN_CHOICE
    assert game.waiting().seats == (1, 2) and not game.waiting().window
    assert table.deadline is not None
    assert table.deadline - clock.now() == timedelta(seconds=20)  # a turn: the public clock
    await table.act(2, ev.PLAY_IN, stamp=table.stamp)
    await clock.advance(19.5)  # seat 2's choice has its own fresh clock
    assert not game.forfeited[2]
    await clock.advance(1)
    assert game.forfeited == [False, False, True]
    assert ev.act(ev.FORFEIT, 2) in game.events[-2:]  # (then a window nobody can use closes)
    forfeits = await bans.forfeits_in_window(manager.deps.db, 10, 3, clock.now())
    assert [f.kind for f in forfeits] == ["timeout"]


async def test_r13_dead_mans_choices_count_in_any_order_on_the_buttons_first_shown(
        manager: TableManager) -> None:
    table = await new_table(manager, humans=3, bots=[])
    game = _game(table)
    game.marks[0] = game.rules.edge
    await _play_until(table, lambda g: g.phase is Phase.PLAY and g.turn == 0)
    await table.act(1, ev.TOEP, stamp=table.stamp)
    stale = table.stamp
    await table.act(_user(table, game.toep_turn), ev.FOLD, stamp=table.stamp)
    await table.act(_user(table, game.toep_turn), ev.FOLD, stamp=table.stamp)
    assert game.phase is Phase.DEAD_MAN_CHOICE
    shown = table.stamp
    with pytest.raises(Refusal, match="moment_passed"):
        await table.act(2, ev.PLAY_IN, stamp=stale)
    await table.act(3, ev.SIT_OUT, stamp=shown)
    await table.act(2, ev.PLAY_IN, stamp=shown)  # not "that moment has passed"
    assert [e.do for e in game.events[-2:]] == [ev.SIT_OUT, ev.PLAY_IN]
    assert game.phase is not Phase.DEAD_MAN_CHOICE


# --- vuile was: the caller forfeits in the check window (R12) --------------------------------


async def test_r12_caller_walks_out_during_the_check_and_the_call_lapses(
        manager: TableManager, clock: FakeClock, recorder: Recorder) -> None:
    table = await new_table(manager, humans=3, bots=[])
    game = _game(table)
    await table.act(2, ev.VUILE_WAS, stamp=table.stamp)
    await table.act(3, ev.CHECK, stamp=table.stamp)
    assert game.phase is Phase.CHECK and game.waiting().seats == (0,)
    hands = [list(h) for h in game.hands]
    await clock.advance(4)
    await table.walk_out(2)
    assert game.forfeited == [False, True, False] and game.phase is Phase.WINDOW
    assert any(isinstance(h, ev.VuileWasOutcome) and h.outcome == "lapsed"
               for h in recorder.happenings)
    assert game.marks == [0, 0, 0]  # no marks for the checker, no new cards
    assert game.hands[0] == hands[0] and game.hands[2] == hands[2]
    assert game.waiting().seats == (0, 2)  # the window opens again, the caller gone
    assert table.deadline is not None
    assert table.deadline - clock.now() == timedelta(seconds=10)
    await clock.advance(10)
    assert game.phase is Phase.PLAY and game.forfeited == [False, True, False]


# --- the window time (V14) -------------------------------------------------------------------


async def test_v14_a_private_tables_window_time(manager: TableManager, clock: FakeClock) -> None:
    table = await new_table(manager, public=False, humans=2, bots=[],
                            rules=TableRules(window=25))
    game = _game(table)
    start = clock.now()
    assert table.deadline == start + timedelta(seconds=25)  # the vuile was window
    await table.act(1, ev.VUILE_WAS, stamp=table.stamp)
    assert table.deadline == start + timedelta(seconds=25)  # each check or believe
    await clock.advance(24.5)
    assert game.phase is Phase.CHECK
    await clock.advance(1)
    assert game.events[-1] == ev.act(ev.BELIEVE, 1) and game.phase is Phase.WINDOW
    assert table.deadline == start + timedelta(seconds=50)  # the window opens again
    await clock.advance(24)
    assert game.phase is Phase.WINDOW
    await clock.advance(1)
    assert game.phase is Phase.PLAY and not any(game.forfeited)


# --- a window nobody can use (V12: 8 players, no stock) ---------------------------------------


async def test_v12_with_eight_players_the_window_stays_open_for_its_time(
        manager: TableManager, clock: FakeClock) -> None:
    """R12: the window opens in every round, also when nobody can call, and
    closes only when its time is up or all have passed."""
    table = await new_table(manager, humans=8, bots=[], rules=TableRules(max_players=8))
    game = _game(table)
    assert game.stock == [] and not any(game.legal_events(s) for s in range(8))
    started = clock.now()
    assert game.events == [] and game.phase is Phase.WINDOW
    assert game.waiting().seats == tuple(range(8))
    assert table.deadline == started + timedelta(seconds=table.rules.window)
    await clock.advance(table.rules.window - 1)
    assert game.phase is Phase.WINDOW
    await clock.advance(1)
    assert game.events == [ev.act(ev.CLOSE_WINDOW)] and game.phase is Phase.PLAY
    assert table.deadline is not None
    assert table.deadline - clock.now() == timedelta(seconds=20)  # the first turn's clock
    await _play_until(table, lambda g: g.round_number >= 2 and g.phase is Phase.PLAY)
    assert game.events[-1] == ev.act(ev.CLOSE_WINDOW)  # all passed, in the next round
    assert table.deadline is not None and not game.waiting().window


# --- R18 when one of two people goes out -----------------------------------------------------


async def test_r18_the_lone_person_left_with_computers_has_no_clock(
        manager: TableManager, clock: FakeClock) -> None:
    table = await new_table(manager, humans=2, bots=["normal"])
    game = _game(table)

    def a_persons_turn(g: Game) -> bool:
        waiting = g.waiting()
        return not waiting.window and any(s in (0, 1) for s in waiting.seats)

    await _play_until(table, a_persons_turn)
    on_turn = game.waiting().seats[0]
    other = 1 - on_turn
    assert table.deadline is not None  # two people: the turn clock runs
    await table.walk_out(_user(table, other))
    assert game.forfeited[other] and table.deadline is None  # R18: it stops at once
    snap = table.snapshot()
    assert snap.clock is not None and snap.clock.deadline is None
    await clock.advance(5 * 60)
    assert not game.forfeited[on_turn]
    await _play_until(table, lambda g: g.round_number >= 2 and a_persons_turn(g))
    assert table.deadline is None and not game.forfeited[on_turn]
