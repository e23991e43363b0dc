"""A calling station (a player who calls every toep, whatever it holds) is
read from the public record, and `hard` stops bluff-toeping into it: a bluff
cannot make it fold, while its value toeps still come."""

from __future__ import annotations

import random

import pytest

from engine import events as ev
from engine.bots.habits import Habit, calling_station, habits
from engine.bots.hard import station_in_round, toep_chance
from engine.cards import DECK
from engine.game import Game, Phase
from engine.views import seat_view
from tests.engine.helpers import new_game

ROUNDS = 8


def _deals(seed: int = 5) -> list[dict[str, object]]:
    rng = random.Random(seed)
    out: list[dict[str, object]] = []
    for _ in range(ROUNDS + 1):
        deck = list(DECK)
        rng.shuffle(deck)
        out.append({"hands": [[c.text for c in deck[:4]], [c.text for c in deck[4:8]]],
                    "stock": [c.text for c in deck[8:]]})
    return out


def _step(game: Game, folds_in: int) -> None:
    """Seat 0 toeps at its turn once a round; seat 1 calls, but folds in round
    `folds_in`; else each plays its first legal card."""
    if game.phase is Phase.WINDOW:
        game.apply(ev.act(ev.CLOSE_WINDOW))
        return
    for seat in (0, 1):
        legal = seat_view(game, seat).legal
        want = ev.TOEP if seat == 0 else (ev.FOLD if game.round_no == folds_in else ev.CALL)
        chosen = [e for e in legal if e.do == want]
        if chosen and (seat == 1 or game.stake == 1):
            game.apply(chosen[0])
            return
        plays = [e for e in legal if e.do == ev.PLAY]
        if plays:
            game.apply(plays[0])
            return


def after_rounds(folds_in: int = -1) -> Game:
    """Two players, ROUNDS rounds of seat 0 toeping and seat 1 answering;
    then seat 0's first turn of the next round."""
    game = new_game(*_deals(), small_players=None, limit=30, dead_man=False)
    for _ in range(3000):
        if game.round_no == ROUNDS + 1 and game.phase is Phase.PLAY and \
                seat_view(game, 0).legal:
            return game
        _step(game, folds_in)
    raise AssertionError("the last round never came")


def test_calls_in_every_answer_mark_a_station_and_one_fold_outweighs_five_calls() -> None:
    stranger = calling_station(Habit())
    assert stranger == pytest.approx(0.05)
    assert calling_station(Habit(toep_calls=3)) < 0.25
    assert calling_station(Habit(toep_calls=8)) > 0.7
    assert calling_station(Habit(toep_calls=5, toep_folds=1)) < stranger


def test_the_record_counts_calls_and_folds_to_toeps() -> None:
    view = seat_view(after_rounds(), 0)
    record = habits(view)[1]
    assert record.toep_calls >= ROUNDS - 1 and record.toep_folds == 0
    assert habits(view)[0].toep_calls == 0
    assert station_in_round(view) > 0.7
    folded = seat_view(after_rounds(folds_in=3), 0)
    assert habits(folded)[1].toep_folds == 1
    assert station_in_round(folded) < 0.1


def test_against_a_station_only_toeps_that_pay_are_made() -> None:
    station = station_in_round(seat_view(after_rounds(), 0))
    for gain in (-0.5, -0.1):
        assert toep_chance(gain, station) < 0.3 * toep_chance(gain)
        assert toep_chance(gain, 1.0) == 0.0
    for gain in (0.1, 0.5):
        assert toep_chance(gain, station) == toep_chance(gain)
