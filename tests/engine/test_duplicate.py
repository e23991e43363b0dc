"""Matchpoints, the day's ranking, the par and the telling board."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.boards import board
from engine.duplicate import against_par, matchpoints, percentage, ranking
from engine.par import par_scores
from engine.telling import parting, telling_board


def test_a_point_per_player_beaten_and_half_per_tie() -> None:
    mp = matchpoints({"a": 3, "b": -1, "c": -1, "d": 6})
    assert mp == {"d": 100.0, "a": pytest.approx(200 / 3), "b": pytest.approx(50 / 3),
                  "c": pytest.approx(50 / 3)}
    assert matchpoints({"alone": 4}) == {"alone": 50.0}
    assert percentage(2, []) == 50.0 and percentage(2, [1, 2, 3, 5]) == 37.5


def test_the_day_ranks_by_the_average_and_equal_averages_share_a_place() -> None:
    rows = ranking({"a": [3, -1], "b": [-1, 3], "c": [-4, -4], "d": [6, 6]})
    assert [(r.place, r.who) for r in rows] == [(1, "d"), (2, "a"), (2, "b"), (4, "c")]
    assert rows[0].average == 100.0 and rows[-1].average == 0.0
    assert rows[1].boards == (pytest.approx(200 / 3), pytest.approx(100 / 3))
    assert ranking({}) == []
    with pytest.raises(ValueError):
        ranking({"a": [1], "b": [1, 2]})


def test_a_par_is_the_board_played_by_hard_players_and_scores_against_it() -> None:
    b = board("par", 0)
    par = par_scores(b, runs=2)
    assert len(par) == 2 and par == par_scores(b, runs=2)
    assert against_par(max(par) + 1, par) == 100.0
    assert against_par(min(par) - 1, par) == 0.0


def test_the_telling_board_is_where_the_best_stood_furthest_out() -> None:
    assert telling_board([{"a": 1, "b": 1, "c": 1}, {"a": 9, "b": 1, "c": 1},
                          {"a": 4}]) == 1
    assert telling_board([{"a": 1}]) is None


def test_where_the_best_parted_from_the_usual_path() -> None:
    close = ev.act(ev.CLOSE_WINDOW)
    toep, fold, call = ev.act(ev.TOEP, 0), ev.act(ev.FOLD, 1), ev.act(ev.CALL, 1)
    best = [close, toep, fold]
    others = [[close, toep, call], [close, toep, call], [close, toep, fold], [close]]
    found = parting(best, others)
    assert found is not None
    assert (found.index, found.best, found.usual, found.usual_count, found.alike) == (
        2, fold, call, 2, 3)
    assert parting(best, [best, best]) is None
