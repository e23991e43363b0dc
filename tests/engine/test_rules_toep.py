"""R8-R11: toep, call or fold, the small players ranking, the jack finish."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.errors import IllegalEvent
from engine.events import Called, MarksTaken, RoundWon
from engine.game import Phase
from tests.engine.helpers import deal, event, new_game, of_type, run

FOUR = deal("7C 8D 9D AC", "8C 7H 8H 9S", "9C 10D KS JH", "7S 8S 10H QD")
THREE = deal("10D 9D 8D JH", "7C 8C 9C 10C", "7S 8S 9S 10S")


def test_r8_toep_raises_the_stake_before_your_card() -> None:
    game = new_game(FOUR)
    run(game, "close", "0 toep")
    assert game.stake == 2 and game.phase is Phase.TOEP_ANSWER


def test_r8_not_twice_in_a_row_until_someone_else_toeps() -> None:
    game = new_game(THREE)
    run(game, "close", "0 toep", "1 call", "2 call", "0 10D")
    assert ev.act(ev.TOEP, 1) in game.legal_events(1)
    run(game, "1 7C", "2 7S", "0 9D")
    with pytest.raises(IllegalEvent, match="R8"):
        game.apply(ev.act(ev.TOEP, 0))
    run(game, "1 toep", "2 call", "0 call", "1 8C", "2 8S")
    run(game, "0 toep", "1 call", "2 call")  # someone else toeped: seat 0 may again
    assert game.stake == 4


def test_r8_toep_allowed_in_the_fourth_trick() -> None:
    game = new_game(THREE)
    run(game, "close", "0 10D", "1 7C", "2 7S", "0 9D", "1 8C", "2 8S", "0 8D", "1 9C",
        "2 9S", "0 toep", "1 call", "2 call", "0 JH", "1 10C", "2 10S")
    assert game.rounds[0].stake == 2 and game.rounds[0].marks == (0, 4, 4)  # jack finish


def test_r9_answers_go_clockwise_from_the_toeper_then_the_toeper_plays() -> None:
    game = new_game(FOUR)
    run(game, "close", "0 7C", "1 8C", "2 toep")
    assert game.waiting().seats == (3,)
    with pytest.raises(IllegalEvent, match="R9"):
        game.apply(event("0 call"))
    run(game, "3 call")
    assert game.waiting().seats == (0,)
    run(game, "0 call", "1 call")
    assert game.waiting().seats == (2,) and game.phase is Phase.PLAY


def test_r9_fold_takes_the_stake_before_this_toep() -> None:
    game = new_game(FOUR)
    out = run(game, "close", "0 7C", "1 8C", "2 toep", "3 call", "0 call", "1 call",
              "2 9C", "3 7S", "2 10D", "3 toep", "0 fold")
    taken = of_type(out, MarksTaken)
    assert (taken[-1].seat, taken[-1].marks, taken[-1].reason) == (0, 2, "fold")
    assert not game.in_round[0] and game.stake == 3


def test_r9_nobody_called_the_toeper_wins_at_once() -> None:
    game = new_game(FOUR)
    out = run(game, "close", "0 7C", "1 toep", "2 fold", "3 fold", "0 fold")
    won = of_type(out, RoundWon)[0]
    assert (won.seat, won.stake) == (1, 2)
    assert game.rounds[0].marks == (1, 0, 1, 1)


def test_r9_toeper_forfeits_others_still_answer_then_next_unplayed_plays() -> None:
    game = new_game(FOUR)
    run(game, "close", "0 7C", "1 8C", "2 toep", "3 call", "2 forfeit")
    assert game.waiting().seats == (0,)
    run(game, "0 call", "1 call")
    assert game.waiting().seats == (3,) and game.phase is Phase.PLAY


def test_r10_two_folds_then_the_next_toep_is_called_for_you() -> None:
    game = new_game(THREE)
    run(game, "close", "0 toep", "1 fold", "2 call", "0 10D", "2 7S")
    assert game.fold_count[1] == 1
    game.fold_count[1] = 2  # as if seat 1 had folded once more, earlier in the game
    out = run(game, "0 9D", "2 toep")
    assert of_type(out, Called) == []  # seat 1 is out of this round: not asked
    game2 = new_game(THREE)
    game2.fold_count[1] = 2
    run(game2, "close")
    out = run(game2, "0 toep")
    assert of_type(out, Called) == [Called(1, True)]
    assert game2.waiting().seats == (2,) and game2.fold_count[1] == 0
    assert ev.act(ev.FOLD, 1) not in game2.legal_events(1)


def test_r10_call_or_fold_from_a_forced_seat_is_refused() -> None:
    game = new_game(FOUR)
    game.fold_count[0] = 2
    run(game, "close", "0 7C", "1 8C", "2 toep")
    with pytest.raises(IllegalEvent) as err:
        game.apply(event("0 fold"))
    assert err.value.rule == "R10"
    out = run(game, "3 call")
    assert Called(0, True) in out
    assert game.waiting().seats == (1,)


def test_r10_off_and_threshold_options() -> None:
    game = new_game(FOUR, small_players=None)
    game.fold_count[3] = 5
    run(game, "close", "0 toep")
    assert game.waiting().seats == (1,)
    run(game, "1 call", "2 call")
    assert game.waiting().seats == (3,)  # never forced when the option is off
    game = new_game(FOUR, small_players=1)
    run(game, "close", "0 toep", "1 fold", "2 call", "3 call", "0 7C", "2 9C", "3 7S")
    assert game.fold_count[1] == 1


def test_r11_jack_finish_doubles_and_folded_pay_nothing_more() -> None:
    game = new_game(FOUR)
    run(game, "close", "0 7C", "1 8C", "2 toep", "3 fold", "0 call", "1 call", "2 9C",
        "2 10D", "0 toep", "1 fold", "2 call", "0 8D", "2 KS", "0 9D", "2 JH", "0 AC")
    summary = game.rounds[0]
    assert summary.jack_finish and summary.stake == 3
    assert summary.marks == (6, 2, 0, 1)


def test_r11_a_jack_in_an_earlier_trick_does_nothing() -> None:
    game = new_game(deal("JC 7D 8D 9D", "QD 8S 9S 10S", "KD 7H 8H 9H"))
    out = run(game, "close", "0 JC", "1 QD", "2 KD")
    assert game.tricks[0].winner == 0 and not of_type(out, RoundWon)
