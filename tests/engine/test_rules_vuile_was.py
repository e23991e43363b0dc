"""R12: vuile was: calling, checking or believing, new cards, bluffs, redeals."""

from __future__ import annotations

import pytest

from engine.errors import IllegalEvent
from engine.events import PlayerOut, Redealt, Reshuffled, VuileWasOutcome
from engine.game import Phase
from engine.views import public_view, seat_view
from tests.engine.helpers import cards, deal, event, new_game, of_type, run

V = deal("7D 8D 9D 10D", "JC QC KC AC", "7H 8H 9H 10H", "7S 8S 9S 10S")
OTHER = deal("JD QD KD AD", "7C 8C 9C 10C", "JH QH KH AH", "JS QS KS AS")


def test_r12_believed_caller_takes_four_new_cards_nobody_learns() -> None:
    game = new_game(V)
    out = run(game, "1 vuile_was", "2 believe", "3 believe", "0 believe")
    assert of_type(out, VuileWasOutcome) == [VuileWasOutcome(1, "new_cards", None, ())]
    assert game.hands[1] == cards("7C 8C 9C 10C")  # the caller draws first ...
    assert game.discards == cards("JC QC KC AC")  # ... then lays the old hand down
    assert game.phase is Phase.WINDOW  # the window opens again, the caller included
    assert game.can(event("1 vuile_was"))


def test_r12_checks_go_in_turn_clockwise_from_the_caller() -> None:
    game = new_game(V)
    run(game, "1 vuile_was")
    waiting = game.waiting()
    assert waiting.seats == (2,) and waiting.window
    with pytest.raises(IllegalEvent, match="R12"):
        game.apply(event("3 check"))
    with pytest.raises(IllegalEvent, match="R12"):
        game.apply(event("0 vuile_was"))  # one call at a time


def test_r12_checked_and_genuine_checkers_take_a_mark_only_they_see_the_cards() -> None:
    game = new_game(V)
    out = run(game, "1 vuile_was", "2 check", "3 believe", "0 check")
    assert of_type(out, VuileWasOutcome) == [VuileWasOutcome(1, "new_cards", True, (2, 0))]
    assert game.marks == [1, 0, 1, 0]
    assert game.hands[1] == cards("7C 8C 9C 10C")
    assert seat_view(game, 0).laid_down[0].cards == tuple(cards("JC QC KC AC"))
    assert seat_view(game, 2).laid_down
    assert seat_view(game, 3).laid_down == ()
    assert public_view(game).open_hands == ()


def test_r12_checked_and_a_bluff_caller_takes_a_mark_plays_open_and_is_barred() -> None:
    game = new_game(V)
    out = run(game, "0 vuile_was", "1 believe", "2 check", "3 believe")
    assert of_type(out, VuileWasOutcome)[0].outcome == "caught"
    assert game.marks == [1, 0, 0, 0]
    assert game.hands[0] == cards("7D 8D 9D 10D")  # keeps the cards
    assert public_view(game).open_hands == ((0, tuple(cards("7D 8D 9D 10D"))),)
    with pytest.raises(IllegalEvent, match="R12"):
        game.apply(event("0 vuile_was"))
    assert game.can(event("1 vuile_was"))


def test_r12_redeal_after_the_row_is_complete() -> None:
    game = new_game(V, OTHER, redeal_after=2)
    run(game, "1 vuile_was", "2 believe", "3 believe", "0 believe")
    out = run(game, "1 vuile_was", "2 believe", "3 believe", "0 believe")
    assert of_type(out, Redealt) and of_type(out, VuileWasOutcome)[0].outcome == "redeal"
    assert game.hands[0] == cards("JD QD KD AD") and len(game.deal_log) == 2
    assert game.row == 0 and game.phase is Phase.WINDOW and game.marks == [0, 0, 0, 0]


def test_r12_a_caught_bluff_ends_the_row() -> None:
    game = new_game(V, OTHER, redeal_after=2)
    run(game, "1 vuile_was", "2 believe", "3 believe", "0 believe")
    run(game, "0 vuile_was", "1 check", "2 believe", "3 believe")  # caught
    assert game.row == 0
    run(game, "1 vuile_was", "2 believe", "3 believe", "0 believe")
    assert len(game.deal_log) == 1  # the row restarted: no redeal yet


SIX = deal("7D 8D 9D 10D", "JC QC KC AC", "7H 8H 9H 10H", "7S 8S 9S 10S", "JD QD KD AD",
           "JH QH KH AH", stock="7C 8C 9C 10C JS QS KS AS",
           reshuffles=["10D 9D 8D 7D 10C 9C 8C 7C"])


def test_r12_too_few_cards_the_discards_go_under_the_stock() -> None:
    game = new_game(SIX)
    believe = ["1 believe", "2 believe", "3 believe", "4 believe", "5 believe"]
    run(game, "0 vuile_was", *believe, "0 vuile_was", *believe)
    assert game.stock == [] and len(game.discards) == 8
    out = run(game, "0 vuile_was", *believe)
    assert of_type(out, Reshuffled) == [Reshuffled(8)]
    assert game.hands[0] == cards("10D 9D 8D 7D")  # the order the record fixed
    assert game.stock == cards("10C 9C 8C 7C")
    assert game.discards == cards("JS QS KS AS")


def test_r12_refused_when_stock_and_discards_hold_too_few_cards() -> None:
    hands = ["7D 8D 9D 10D", "JC QC KC AC", "7H 8H 9H 10H", "7S 8S 9S 10S", "JD QD KD AD",
             "JH QH KH AH", "7C 8C 9C 10C", "JS QS KS AS"]
    game = new_game(deal(*hands, stock=""), max_players=8)
    assert game.phase is Phase.WINDOW  # the window opens all the same
    with pytest.raises(IllegalEvent, match="R12") as err:
        game.apply(event("1 vuile_was"))
    assert err.value.key == "vuile_was_no_cards"
    # R12: everyone is still waited for; nobody may call (a public fact here).
    assert game.waiting().seats == tuple(range(8))
    assert not any(game.legal_events(s) for s in range(8))
    run(game, "close")
    assert game.phase is Phase.PLAY


def test_r12_caller_forfeits_before_the_answers_the_call_lapses() -> None:
    game = new_game(V)
    out = run(game, "1 vuile_was", "2 check", "1 forfeit")
    assert of_type(out, VuileWasOutcome) == [VuileWasOutcome(1, "lapsed", None, ())]
    assert game.marks == [0, 0, 0, 0] and game.phase is Phase.WINDOW and game.row == 0


def test_r12_a_checker_who_forfeits_is_no_checker_none_left_means_believed() -> None:
    game = new_game(V)
    out = run(game, "0 vuile_was", "1 check", "1 forfeit", "2 believe", "3 believe")
    outcome = of_type(out, VuileWasOutcome)[0]
    assert (outcome.outcome, outcome.checkers) == ("new_cards", ())
    assert game.marks[0] == 0 and game.hands[0] == cards("7C 8C 9C 10C")


def test_r12_a_check_that_reaches_the_limit_puts_the_checker_out() -> None:
    game = new_game(V, limit=5)
    game.marks[:] = [0, 0, 4, 0]  # as if earlier rounds had given these marks
    out = run(game, "1 vuile_was", "2 check", "3 believe", "0 believe")
    assert PlayerOut(2, "limit") in out
    assert not game.in_round[2] and game.out[2] and game.hands[2] == []
    run(game, "close")
    assert game.waiting().seats == (0,)


def test_r12_marks_for_checks_stay_through_a_redeal_and_the_bluffer_stays_barred() -> None:
    game = new_game(V, OTHER, redeal_after=2)
    run(game, "1 vuile_was", "2 check", "3 believe", "0 believe")  # genuine: seat 2 +1
    run(game, "0 vuile_was", "1 check", "2 believe", "3 believe")  # caught: seat 0 +1
    run(game, "2 vuile_was", "3 believe", "0 believe", "1 believe")
    run(game, "1 vuile_was", "2 believe", "3 believe", "0 believe")  # completes the row
    assert len(game.deal_log) == 2 and game.marks == [1, 0, 1, 0]
    assert not game.can(event("0 vuile_was"))


def test_r12_a_checker_sees_the_laid_down_cards_also_when_the_call_brings_a_redeal() -> None:
    game = new_game(V, OTHER, redeal_after=2)
    run(game, "2 vuile_was", "3 believe", "0 believe", "1 believe")
    run(game, "1 vuile_was", "2 believe", "3 check", "0 believe")  # genuine, completes the row
    assert len(game.deal_log) == 2
    assert seat_view(game, 3).laid_down[0].cards == tuple(cards("JC QC KC AC"))
    assert seat_view(game, 0).laid_down == ()
