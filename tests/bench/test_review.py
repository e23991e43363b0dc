"""bench/review.py's planted blunders: a sure winner is told from a likely one,
and the planted fold is found and called a blunder."""

from __future__ import annotations

from bench.review import kind_of, planted_figures
from bench.review_games import Planter, sure_winner
from engine import events as ev
from engine.review_judge import judge
from engine.review_moments import Decision
from engine.views import seat_view
from tests.engine.helpers import deal, new_game, run


def test_the_best_heart_left_is_a_sure_winner() -> None:
    game = new_game(deal("8D 9D 10D 10H", "JD QD KD 7C"))
    run(game, "close", "0 8D", "1 JD", "0 9D", "1 QD", "0 10D", "1 KD", "0 10H", "1 toep")
    view = seat_view(game, 0)
    assert sure_winner(view)
    assert Planter(0).decide(view) == ev.act(ev.FOLD, 0)


def test_a_card_an_unseen_card_may_beat_is_not_sure() -> None:
    # 9H leads the last trick; 10H lies unseen (in the stock, or in seat 1's hand).
    game = new_game(deal("8D 9D 10D 9H", "JD QD KD 7C"))
    run(game, "close", "0 8D", "1 JD", "0 9D", "1 QD", "0 10D", "1 KD", "0 9H", "1 toep")
    assert not sure_winner(seat_view(game, 0))


def test_planted_blunders_are_found_and_caught() -> None:
    figures = planted_figures(1, samples=4)
    assert figures["planted"] >= 1
    assert figures["caught"] == 1.0


def test_every_kind_of_decision_has_its_name_in_the_figures() -> None:
    game = new_game(deal("JH QS KD AC", "7D 8D 9D 10D"))
    pass_ = Decision(0, ev.act(ev.CLOSE_WINDOW), seat_view(game, 0))
    assert kind_of(judge(pass_, 0, 4)) == "vuile was or pass"
    run(game, "0 vuile_was")
    check = Decision(1, ev.act(ev.CHECK, 1), seat_view(game, 1))
    assert kind_of(judge(check, 0, 4)) == "check or believe"
