"""Checks and beliefs judged: their marks at once in closed form, a second
check and a check that risks going out judged by them, a first check and an
early belief sound, and the caller's hidden hand never in the review."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import events as ev
from engine.bots.doubt import call_bluff_chance
from engine.bots.search import OUT_PENALTY
from engine.game import Game
from engine.review_judge import Judgement, judge
from engine.review_moments import Decision
from engine.review_verdict import by_loss
from engine.views import SeatView, seat_view
from tests.engine.helpers import deal, event, new_game, run

BLUFF = "7C 8C 9C AC"
GENUINE = "JC QC KC AS"


def _called(caller_hand: str, *answers: str) -> Game:
    """Seat 0 calls vuile was with `caller_hand`; seats 1-3 answer in turn."""
    game = new_game(deal(caller_hand, "7D 8D 9D 10D", "7H 8H 9H 10H", "JD QD KD AD"))
    run(game, "0 vuile_was", *answers)
    return game


def _judge(view: SeatView, chosen: str) -> Judgement:
    return judge(Decision(view.public.event_count, event(chosen), view), 0)


def _with_marks(view: SeatView, marks: tuple[int, ...]) -> SeatView:
    return replace(view, public=replace(view.public, marks=marks))


def _genuine(view: SeatView) -> float:
    return 1.0 - call_bluff_chance(view, with_record=True)


def test_a_second_check_only_costs() -> None:
    view = seat_view(_called(BLUFF, "1 check"), 2)
    j = _judge(view, "2 check")
    g = _genuine(view)
    assert j.exact and j.se == 0.0 and 0.0 < g < 1.0
    assert j.marks == {ev.act(ev.CHECK, 2): pytest.approx(g), ev.act(ev.BELIEVE, 2): 0.0}
    assert j.best == ev.act(ev.BELIEVE, 2) and j.lost == pytest.approx(g)
    assert j.verdict == by_loss(g, 0.0)


def test_a_check_that_risks_going_out_is_judged_by_its_marks() -> None:
    view = _with_marks(seat_view(_called(BLUFF), 1), (3, 14, 0, 0))
    j = _judge(view, "1 check")
    g = _genuine(view)
    assert j.marks[ev.act(ev.CHECK, 1)] == pytest.approx(g * (1 + OUT_PENALTY))
    assert j.lost >= 0.5 and j.verdict == by_loss(j.lost, 0.0) != "ok"
    # The same check with a mark to spare is the deterrent the sound players keep.
    calm = _judge(seat_view(_called(BLUFF), 1), "1 check")
    assert calm.lost == pytest.approx(g) and calm.verdict == "ok"


def test_a_belief_is_judged_only_as_the_last_word() -> None:
    # Two players: a caught bluff would put the caller out and win the game.
    game = new_game(deal(BLUFF, "7D 8D 9D 10D"))
    run(game, "0 vuile_was")
    view = _with_marks(seat_view(game, 1), (14, 0))
    last = _judge(view, "1 believe")
    g = _genuine(view)
    check = g - (1.0 - g) * OUT_PENALTY
    assert check < -0.5 and last.marks[ev.act(ev.CHECK, 1)] == pytest.approx(check)
    assert last.lost == pytest.approx(-check) and last.verdict == by_loss(-check, 0.0) != "ok"
    # With seats still to answer after it, they may yet check: the belief is not judged.
    early = _judge(_with_marks(seat_view(_called(BLUFF), 1), (14, 0, 0, 0)), "1 believe")
    assert early.verdict == "ok"


@pytest.mark.parametrize("answers", [(), ("1 check",), ("1 believe", "2 believe")])
def test_the_callers_hidden_hand_is_not_in_the_review(answers: tuple[str, ...]) -> None:
    seat = len(answers) + 1
    views = [seat_view(_called(hand, *answers), seat) for hand in (BLUFF, GENUINE)]
    assert views[0] == views[1]
    for chosen in ("check", "believe"):
        assert (_judge(views[0], f"{seat} {chosen}")
                == _judge(views[1], f"{seat} {chosen}"))
