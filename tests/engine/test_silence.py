"""R17: what silence means in each window, defined once (engine/silence.py)."""

from __future__ import annotations

from engine import events as ev
from engine.game import Phase
from engine.silence import everyone_silent, silent_answer
from tests.engine.helpers import deal, new_game, run


def test_r17_silence_in_the_vuile_was_moment_is_a_pass_and_all_silent_closes_it() -> None:
    game = new_game(deal("7C 8C 9C 10C", "7D 8D 9D 10D", "7H 8H 9H 10H"))
    assert game.phase is Phase.WINDOW
    assert all(silent_answer(game, seat) is None for seat in range(3))
    assert everyone_silent(game) == ev.act(ev.CLOSE_WINDOW)


def test_r17_silence_of_the_seat_asked_to_check_is_believe() -> None:
    game = new_game(deal("JC QC KC AC", "7D 8D 9D 10D", "7H 8H 9H 10H"))
    run(game, "0 vuile_was")
    assert game.phase is Phase.CHECK
    asked = game.waiting().seats[0]
    assert silent_answer(game, asked) == ev.act(ev.BELIEVE, asked)
    assert silent_answer(game, 0) is None  # the caller is not asked
    assert everyone_silent(game) == ev.act(ev.BELIEVE, asked)


def test_r17_silence_in_the_super_toep_question_is_no() -> None:
    game = new_game(deal("7C 8C 9C 10C", "7D 8D 9D 10D", "7H 8H 9H 10H"), two_left="ask")
    run(game, "2 forfeit")
    while game.phase is not Phase.SUPER_QUESTION:
        legal = game.legal_events(None)
        game.apply(next((e for e in legal if e.do != ev.VUILE_WAS), legal[0]))
    first = game.waiting().seats[0]
    assert silent_answer(game, first) == ev.act(ev.SUPER_NO, first)
    assert everyone_silent(game) == ev.act(ev.SUPER_NO, first)
    assert silent_answer(game, 2) is None  # out of the game: not asked
