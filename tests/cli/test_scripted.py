"""The duel's scripted players each push their one habit, and play like
`normal` otherwise; the yardstick plays by its rules of thumb."""

from __future__ import annotations

import pytest

from cli.scripted import ScriptedBot, strong_hand
from cli.seats import DUEL_SEATS, make_seat
from cli.yardstick import YardstickBot
from engine import events as ev
from engine.bots.normal import NormalBot
from engine.game import Phase
from engine.views import seat_view
from tests.engine.helpers import deal, new_game, run

# Seat 0 weak, seat 1 genuine, seat 2 two tens, seat 3 high but one ten.
D = deal("7D 8D JH QD", "JC QC KC AC", "10H 10S 7H 8H", "7S 8S QS 10C")


def test_vuile_was_always_calls_on_every_hand_even_a_strong_one() -> None:
    game = new_game(D)
    for seat in range(4):
        assert ScriptedBot("vw-always").decide(seat_view(game, seat)) == \
            ev.act(ev.VUILE_WAS, seat)


def test_vuile_was_until_strong_keeps_two_nines_or_tens() -> None:
    game = new_game(D)
    bot = ScriptedBot("vw-strong")
    assert strong_hand(seat_view(game, 2)) and not strong_hand(seat_view(game, 3))
    assert bot.decide(seat_view(game, 2)) is None
    assert bot.decide(seat_view(game, 3)) == ev.act(ev.VUILE_WAS, 3)
    assert bot.decide(seat_view(game, 0)) == ev.act(ev.VUILE_WAS, 0)


def test_toep_always_toeps_at_its_first_turn() -> None:
    game = new_game(D)
    run(game, "close")
    assert game.phase is Phase.PLAY and game.turn == 0
    assert ScriptedBot("toep-always").decide(seat_view(game, 0)) == ev.act(ev.TOEP, 0)


def test_never_fold_calls_and_check_all_checks() -> None:
    game = new_game(D)
    run(game, "close", "0 toep")
    view = seat_view(game, 1)
    assert ScriptedBot("never-fold").decide(view) == ev.act(ev.CALL, 1)
    game = new_game(D)
    run(game, "1 vuile_was")
    assert ScriptedBot("check-all").decide(seat_view(game, 2)) == ev.act(ev.CHECK, 2)


def test_outside_its_habit_a_scripted_player_plays_like_normal() -> None:
    game = new_game(D)
    run(game, "close")
    view = seat_view(game, 0)
    for seed in range(6):
        assert ScriptedBot("check-all", seed).decide(view) == NormalBot(seed).decide(view)


def test_the_yardstick_calls_only_a_genuine_vuile_was() -> None:
    game = new_game(D)
    bot = YardstickBot(0)
    assert bot.decide(seat_view(game, 1)) == ev.act(ev.VUILE_WAS, 1)
    assert bot.decide(seat_view(game, 0)) is None


def test_every_duel_seat_is_made_by_its_name() -> None:
    for name in DUEL_SEATS:
        assert make_seat(name, 3).level == name
    with pytest.raises(ValueError, match="unknown"):
        make_seat("cheater")
