"""What a seat knows: a player who does not follow shows it lacks the suit led."""

from __future__ import annotations

from engine.bots.cardints import suit
from engine.bots.knowledge import know
from engine.cards import parse_card
from engine.views import seat_view
from tests.engine.helpers import deal, new_game, run


def test_a_seat_that_does_not_follow_lacks_the_suit_led() -> None:
    game = new_game(deal("JH QH KH AH", "8S 9S 10S 10D", "JC QC KC AC", "7H 8D 9D 7S"))
    run(game, "close", "0 JH", "1 10D", "2 JC", "3 7H")
    voids = know(seat_view(game, 0)).voids
    hearts = 1 << suit(parse_card("JH").index)
    assert voids == {1: hearts, 2: hearts}
