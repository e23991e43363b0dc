"""A serial toeper (one who toeps in every round, whatever it holds) is read
from the public record and called by `hard`; an ordinary toeper is not."""

from __future__ import annotations

import random
from collections.abc import Collection

import pytest

from engine import events as ev
from engine.bots.habits import Habit, early_toeps, habits, serial_toeper
from engine.bots.hard import HardBot, toeper_serial
from engine.bots.hints import HINT_TEXTS, hint
from engine.cards import DECK, parse_card
from engine.game import Game, Phase
from engine.views import seat_view
from tests.engine.helpers import new_game

ROUNDS = 6
# Seat 1's hand in the last round: about even against a hand that says
# nothing, a fold against a toeper whose toeps follow its cards.
EVEN = "AD 9S AC JH"


def _deals(last_hand: str, seed: int = 3) -> list[dict[str, object]]:
    rng = random.Random(seed)
    out: list[dict[str, object]] = []
    for r in range(ROUNDS):
        deck = list(DECK)
        rng.shuffle(deck)
        if r == ROUNDS - 1:
            mine = [parse_card(text) for text in last_hand.split()]
            deck = [c for c in deck if c not in mine]
            hands = [deck[:4], mine]
            deck = deck[4:]
        else:
            hands = [deck[:4], deck[4:8]]
            deck = deck[8:]
        out.append({"hands": [[c.text for c in h] for h in hands],
                    "stock": [c.text for c in deck]})
    return out


def _step(game: Game, toeps: bool) -> None:
    """Seat 0 toeps at its turn when `toeps`; seat 1 folds to every toep;
    else each plays its first legal card."""
    if game.phase is Phase.WINDOW:
        game.apply(ev.act(ev.CLOSE_WINDOW))
        return
    toep = [e for e in seat_view(game, 0).legal if e.do == ev.TOEP]
    if toeps and toep:
        game.apply(toep[0])
        return
    for seat in (0, 1):
        legal = seat_view(game, seat).legal
        if legal:
            fold = [e for e in legal if e.do == ev.FOLD]
            game.apply(fold[0] if fold else next(e for e in legal if e.do == ev.PLAY))
            return


def last_toep(toep_rounds: Collection[int], last_hand: str = EVEN) -> Game:
    """Two players, ROUNDS rounds: seat 0 toeps in the rounds of `toep_rounds`
    (0-based) and at its first turn of the last one, where seat 1 answers."""
    game = new_game(*_deals(last_hand), small_players=None, limit=30, dead_man=False)
    for _ in range(2000):
        last = game.round_no == ROUNDS
        _step(game, last or game.round_no - 1 in toep_rounds)
        if last and game.phase is Phase.TOEP_ANSWER:
            return game
    raise AssertionError("the last toep never came")


def test_early_toeps_mark_a_seat_fast_and_a_round_without_one_clears_it() -> None:
    stranger = serial_toeper(Habit())
    assert stranger == pytest.approx(0.2)
    assert 0.75 < serial_toeper(Habit(early_toeps=1, toep_chances=1)) < 0.9
    assert serial_toeper(Habit(early_toeps=2, toep_chances=2)) > 0.95
    assert serial_toeper(Habit(early_toeps=1, toep_chances=3)) < 0.05
    assert serial_toeper(Habit(early_toeps=1, toep_chances=3)) < stranger
    assert serial_toeper(Habit(early_toeps=3, toep_chances=10)) < 0.001


def test_the_record_counts_rounds_with_a_toep_before_the_first_card() -> None:
    view = seat_view(last_toep(range(ROUNDS)), 1)
    record = habits(view)[0]
    assert (record.rounds, record.early_toeps, record.toep_chances) == (ROUNDS,) * 3
    assert habits(view)[1].early_toeps == 0
    assert toeper_serial(view) > 0.9
    assert toeper_serial(seat_view(last_toep({2}), 1)) < 0.01


@pytest.mark.parametrize("seed", range(4))
def test_hard_calls_a_serial_toeper_and_folds_the_same_hand_to_an_ordinary_one(
        seed: int) -> None:
    serial = seat_view(last_toep(range(ROUNDS)), 1)
    ordinary = seat_view(last_toep({2}), 1)
    assert HardBot(seed).decide(serial) == ev.act(ev.CALL, 1)
    assert HardBot(seed).decide(ordinary) == ev.act(ev.FOLD, 1)


def test_the_hint_says_why_it_calls_a_serial_toeper() -> None:
    h = hint(seat_view(last_toep(range(ROUNDS)), 1))
    assert h.event == ev.act(ev.CALL, 1) and h.key == "call_serial_toeper"
    assert h.params == {"seat": "0"} and "seat 0 toeps" in h.text()
    assert "call_serial_toeper" in HINT_TEXTS
    assert hint(seat_view(last_toep({2}), 1)).key == "fold_bad_odds"


def test_only_a_toep_before_the_seat_s_first_card_counts_and_never_in_a_dead_man_s_round(
        ) -> None:
    c = [parse_card(t) for t in ("7H", "8H", "9H", "10H", "7S", "8S")]
    close = ev.act(ev.CLOSE_WINDOW)
    history = [
        close, ev.play(1, c[0]), ev.act(ev.TOEP, 0), ev.act(ev.CALL, 1), ev.play(0, c[1]),
        ev.act(ev.TOEP, 1),  # seat 1 has played: not early
        close, ev.play(0, c[2]), ev.play(1, c[3]),  # a quiet round for both
        ev.act(ev.PLAY_IN, 0), close, ev.act(ev.TOEP, 0), ev.play(0, c[4]),  # dead man's
        close, ev.act(ev.TOEP, 1),  # the present round, as far as it went
    ]
    early, chances = early_toeps(history, 2)
    assert early == [1, 1]
    assert chances == [2, 3]


def first_round_toep(last_hand: str, seed: int = 7) -> Game:
    """Four players, a fresh game: seat 0 toeps before its first card, seats
    1 and 2 fold, and seat 3 (holding `last_hand`) is the last to answer."""
    mine = last_hand.split()
    deck = [c for c in DECK if c.text not in mine]
    random.Random(seed).shuffle(deck)
    hands = [[c.text for c in deck[i * 4:(i + 1) * 4]] for i in range(3)] + [mine]
    game = new_game({"hands": hands, "stock": [c.text for c in deck[12:]]}, dead_man=False)
    while game.phase is Phase.WINDOW:
        game.apply(ev.act(ev.CLOSE_WINDOW))
    for step in (ev.act(ev.TOEP, 0), ev.act(ev.FOLD, 1), ev.act(ev.FOLD, 2)):
        game.apply(step)
    return game


@pytest.mark.parametrize("seed", range(4))
def test_hard_calls_a_first_early_toep_with_a_fair_hand_and_folds_a_poor_one(
        seed: int) -> None:
    # Two 7s and two kings: a fold against a toep that follows the cards, but
    # an early toep in a fresh game is as likely a habit, and folding it
    # hands the toeper the round.
    fair = seat_view(first_round_toep("KD KH 7H 7D"), 3)
    assert toeper_serial(fair) > 0.75
    assert HardBot(seed).decide(fair) == ev.act(ev.CALL, 3)
    poor = seat_view(first_round_toep("JH QH JS QS"), 3)
    assert HardBot(seed).decide(poor) == ev.act(ev.FOLD, 3)
