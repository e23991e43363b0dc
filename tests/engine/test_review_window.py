"""Vuile was calls and passes judged: the pass is a choice where the seat
could call, a genuine call is worth its new hand, a bluff pays its mark when
the table checks, and the others' hands and the stock never reach the review."""

from __future__ import annotations

import random

import pytest

from engine import events as ev
from engine.bots.doubt import DETER
from engine.cards import DECK
from engine.chance import RecordChance
from engine.game import Game
from engine.review_judge import Judgement, judge
from engine.review_moments import Decision, could_call
from engine.review_window import check_rate
from engine.rules import TableRules
from engine.views import seat_view
from tests.engine.bots.helpers import deal_entry, twin_deals
from tests.engine.helpers import deal, new_game, run

CALL = ev.act(ev.VUILE_WAS, 0)
PASS = ev.act(ev.CLOSE_WINDOW)
SAMPLES = 40


def _judge(game: Game, chosen: ev.Event, seed: int = 0) -> Judgement:
    return judge(Decision(len(game.events), chosen, seat_view(game, 0)), seed, SAMPLES)


def test_a_genuine_hand_is_worth_calling() -> None:
    game = new_game(deal("JH QS KD AC", "9C 10C 8D 7H", "9D 10D 9H 10H"))
    j = _judge(game, PASS)
    assert not j.exact and j.se > 0.0
    assert set(j.marks) == {CALL, PASS} and j.best == CALL
    assert j.marks[CALL] < j.marks[PASS]
    assert _judge(game, CALL).verdict == "ok"


def test_a_bluff_pays_its_mark_when_the_table_checks() -> None:
    game = new_game(deal("JH QS KD 7C", "9C 10C 8D 7H", "9D 10D 9H 10H"))
    j = _judge(game, CALL)
    # Checked (at the deterrent rate, with no calls seen yet) it costs a mark and
    # the round with the hand held; else the round with a new hand (never below 0 here).
    assert j.marks[CALL] >= DETER * (1.0 + j.marks[PASS]) - 1e-9
    assert j.best == PASS and j.lost > 0.0


def test_the_table_check_rate_counts_the_answered_calls() -> None:
    game = new_game(deal("7C 8C 9C AC", "7D 8D 9D 10D", "JH QH KH AH"))
    assert check_rate(seat_view(game, 0)) == pytest.approx(DETER)
    run(game, "0 vuile_was", "1 check", "2 believe", "2 vuile_was", "0 believe", "1 believe")
    view = seat_view(game, 1)
    assert could_call(view)
    assert check_rate(view) == pytest.approx((1 + 2 * DETER) / 4)


def test_a_seat_that_may_not_call_has_no_choice() -> None:
    game = new_game(deal("7C 8C 9C AC", "7D 8D 9D 10D", "JH QH KH AH"))
    run(game, "0 vuile_was", "1 check", "2 believe")  # caught: barred this round
    assert not could_call(seat_view(game, 0)) and could_call(seat_view(game, 1))


@pytest.mark.parametrize("seed", range(3))
def test_other_hands_and_the_stock_are_not_in_the_review(seed: int) -> None:
    a, b = twin_deals(seed, 3, {})
    assert a != b
    judged = []
    for entry in (a, b):
        game = Game(TableRules(), ["p0", "p1", "p2"], RecordChance([entry], random.Random(seed)))
        assert could_call(seat_view(game, 0))
        judged.append((_judge(game, PASS, seed), _judge(game, CALL, seed)))
    assert judged[0] == judged[1]


def test_the_same_seed_gives_the_same_judgement() -> None:
    entry = deal_entry([DECK[0:4], DECK[8:12], DECK[16:20]], DECK[20:] + DECK[4:8] + DECK[12:16])
    games = [Game(TableRules(), ["p0", "p1", "p2"], RecordChance([entry], random.Random(1)))
             for _ in range(2)]
    assert _judge(games[0], PASS, 3) == _judge(games[1], PASS, 3)
