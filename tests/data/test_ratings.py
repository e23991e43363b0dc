from __future__ import annotations

import pytest

from data.ratings import DEFAULT_RATING, Rating, rate


def test_winner_rises_loser_falls() -> None:
    winner, loser = rate([DEFAULT_RATING, DEFAULT_RATING], [1, 2])
    assert winner.mu > DEFAULT_RATING.mu > loser.mu
    assert winner.sigma < DEFAULT_RATING.sigma and loser.sigma < DEFAULT_RATING.sigma


def test_places_order_the_changes() -> None:
    after = rate([DEFAULT_RATING] * 4, [1, 2, 3, 4])
    assert after[0].mu > after[1].mu > after[2].mu > after[3].mu


def test_ties_move_equally() -> None:
    after = rate([DEFAULT_RATING] * 3, [1, 2, 2])
    assert after[1] == after[2]


def test_upset_moves_more_than_expected_result() -> None:
    strong, weak = Rating(35.0, 3.0), Rating(15.0, 3.0)
    expected = rate([strong, weak], [1, 2])
    upset = rate([strong, weak], [2, 1])
    assert upset[1].mu - weak.mu > expected[0].mu - strong.mu > 0


def test_ordinal() -> None:
    assert Rating(30.0, 2.0).ordinal == pytest.approx(24.0)
    assert DEFAULT_RATING.ordinal == pytest.approx(0.0)
