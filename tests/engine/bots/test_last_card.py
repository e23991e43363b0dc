"""In `hard`'s play-outs, a seat whose last card already lies on the table
knows its chance: if the card leads the trick and nobody still to play can
beat it, the round is its, and it calls a toep. Read as no chance at all, it
folded there, so `hard` bluff-toeped into a winning card on the table; a
player who never folds took those rounds."""

from __future__ import annotations

import random

from engine import events as ev
from engine.bots import thumb
from engine.bots.cardints import FULL, ints
from engine.bots.hard import HardBot
from engine.bots.knowledge import sim_from_view
from engine.cards import parse_card
from engine.game import Game
from engine.views import seat_view
from tests.engine.helpers import deal, new_game, run

# Seat 0 takes every trick with its hearts and leads 9H last, with 10H gone:
# no card can beat it. Seats 1 and 2 cannot follow.
HANDS = ("10H 8H 7H 9H", "JS QS KS AS", "JC QC KC 10C")
FIRST_TRICKS = ("0 10H", "1 JS", "2 JC", "0 8H", "1 QS", "2 QC", "0 7H", "1 KS", "2 KC")


def last_trick() -> Game:
    """Seat 0 has led the unbeatable 9H, seat 1 followed; seat 2, with 10C,
    plays last and may toep."""
    game = new_game(deal(*HANDS))
    run(game, "close", *FIRST_TRICKS, "0 9H", "1 AS")
    return game


def mask_of_cards(text: str) -> int:
    """The bit mask of the cards in `text`."""
    mask = 0
    for c in ints([parse_card(t) for t in text.split()]):
        mask |= 1 << c
    return mask


def test_a_winning_card_on_the_table_is_a_sure_win() -> None:
    nine = ints([parse_card("9H")])[0]
    seen = thumb.Seen([], [(0, nine)], 1, FULL & ~mask_of_cards("10H 8H 7H 9H"),
                      1, 1, 2, 0)
    assert thumb.win_chance(seen) == 1.0
    eight = ints([parse_card("8H")])[0]
    beaten = thumb.Seen([], [(0, eight), (1, nine)], 1, FULL, 1, 1, 2, 0)
    assert thumb.win_chance(beaten) == 0.0


def test_the_play_outs_call_a_late_toep_with_a_winning_card_on_the_table() -> None:
    game = last_trick()
    view = seat_view(game, 2)
    hands = {0: [], 1: [], 2: ints(view.hand)}
    sim = sim_from_view(view, hands)
    sim.toep()
    assert sim.answer_seat == 0
    policy = thumb.ThumbPolicy(2)
    calls = sum(policy.call(sim, 0, random.Random(seed)) for seed in range(50))
    assert calls >= 40


def test_hard_does_not_bluff_toep_into_a_winning_card_on_the_table() -> None:
    toeps = 0
    for seed in range(20):
        event = HardBot(seed).decide(seat_view(last_trick(), 2))
        assert event is not None
        toeps += event.do == ev.TOEP
    # A toep here wins only if seat 0 folds its sure winner: rarely worth it.
    assert toeps <= 4
