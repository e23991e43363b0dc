"""Checking vuile was callers: the table's deterrent rate, a caller's record
read from the public view, and a frequent caller checked at once."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.bots import doubt, habits
from engine.bots.habits import Habit, bluff_chance, loose_toeper
from engine.bots.hints import hint
from engine.game import Game, Phase
from engine.views import seat_view
from tests.engine.bots.helpers import bot_of
from tests.engine.helpers import deal, new_game, run

# Seat 1 starts with a genuine hand; seat 2 holds no low card.
V = deal("7D 8D 9D 10D", "JC QC KC AC", "7H 8H 9H 10H", "7S 8S 9S 10S")


def _second_call() -> Game:
    """Seat 1 called, was believed, took new cards and calls again; seat 2 answers."""
    game = new_game(V)
    run(game, "1 vuile_was", "2 believe", "3 believe", "0 believe", "1 vuile_was")
    assert game.phase is Phase.CHECK and game.call_turn == 2
    return game


def test_the_record_counts_calls_and_hands_from_the_public_history() -> None:
    view = seat_view(_second_call(), 2)
    record = habits.habits(view)[1]
    # The call being answered is judged, not counted; its hand is the second.
    assert (record.calls, record.hands, record.caught, record.genuine) == (1, 1, 0, 0)
    assert habits.habits(view)[3] == Habit()


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_normal_and_hard_check_a_frequent_caller(level: str) -> None:
    view = seat_view(_second_call(), 2)
    for seed in range(8):
        assert bot_of(level, seed).decide(view) == ev.act(ev.CHECK, 2)


def test_a_stranger_is_checked_at_the_deterrent_rate_only() -> None:
    view = seat_view(_second_call(), 2)
    share = doubt.check_chance(view, with_record=False)  # how easy judges every caller
    assert share == pytest.approx(1 - (1 - doubt.DETER) ** (1 / 3))
    assert doubt.check_chance(view, with_record=True) == 1.0


def test_the_hint_names_the_frequent_caller() -> None:
    h = hint(seat_view(_second_call(), 2))
    assert h.event == ev.act(ev.CHECK, 2) and h.key == "check_frequent_caller"


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_after_one_check_the_others_believe(level: str) -> None:
    game = _second_call()
    run(game, "2 check")
    view = seat_view(game, 3)
    for seed in range(8):
        assert bot_of(level, seed).decide(view) is None


def test_a_call_is_likelier_a_bluff_the_more_often_its_caller_calls() -> None:
    g = 0.05
    quiet = bluff_chance(Habit(hands=20), g)
    stranger = bluff_chance(Habit(), g)
    frequent = bluff_chance(Habit(hands=3, calls=3), g)
    assert quiet < stranger < doubt.SURE <= frequent
    assert frequent > 0.9


def test_caught_bluffs_raise_and_genuine_calls_lower_the_doubt() -> None:
    g = 0.05
    base = Habit(hands=6, calls=2)
    assert bluff_chance(Habit(hands=6, calls=2, caught=1), g) > bluff_chance(base, g)
    assert bluff_chance(Habit(hands=6, calls=2, genuine=2), g) < bluff_chance(base, g)


def test_a_toeper_who_toeps_every_round_is_loose_one_who_toeps_by_its_cards_not() -> None:
    assert loose_toeper(Habit(rounds=10, toeps=3)) == 0.0
    assert loose_toeper(Habit(rounds=10, toeps=10)) > 0.4
    assert loose_toeper(Habit(rounds=20, toeps=20)) > loose_toeper(Habit(rounds=10, toeps=10))
