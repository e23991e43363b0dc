"""R1-R7: cards, seats, the deal, tricks, who wins a round, who leads."""

from __future__ import annotations

import pytest

from engine.cards import DECK, CardError, Rank, Suit, card_of, parse_card
from engine.errors import IllegalEvent
from engine.events import RoundWon, TrickWon
from engine.game import Phase
from tests.engine.helpers import cards, deal, event, new_game, of_type, run

FOUR = deal("7C 8D 9D AC", "8C 7H 8H 9S", "9C 10D KS JH", "7S 8S 10H QD")


def test_r1_deck_has_32_cards_in_toepen_order() -> None:
    assert len(DECK) == 32 and len({c.text for c in DECK}) == 32
    order = [card_of(r, Suit.HEARTS).text for r in sorted(Rank)]
    assert order == ["JH", "QH", "KH", "AH", "7H", "8H", "9H", "10H"]
    assert [c.text for c in DECK if c.is_low and c.suit is Suit.CLUBS] == ["JC", "QC", "KC", "AC"]
    assert parse_card("10h") is parse_card("10H")
    with pytest.raises(CardError):
        parse_card("6H")
    with pytest.raises(CardError):
        parse_card("1OH")


def test_r2_two_to_six_seats_by_default() -> None:
    with pytest.raises(ValueError, match="V12"):
        new_game(deal("7C 8C 9C 10C"), players=1)
    game = new_game(FOUR)
    assert game.n == 4
    waiting = game.waiting()  # anyone may call vuile was, a bluff included
    assert waiting.seats == (0, 1, 2, 3) and waiting.window


def test_r3_deal_gives_four_cards_and_the_rest_is_stock() -> None:
    game = new_game(FOUR)
    assert [len(h) for h in game.hands] == [4, 4, 4, 4]
    assert len(game.stock) == 16
    assert game.stock[0] == parse_card("JC")  # the next card to draw comes first
    assert game.phase is Phase.WINDOW


def test_r4_must_follow_suit() -> None:
    game = new_game(FOUR)
    run(game, "close", "0 7C")
    with pytest.raises(IllegalEvent) as err:
        game.apply(event("1 7H"))
    assert err.value.rule == "R4" and err.value.params == {"cards": (parse_card("8C"),)}
    assert "8C" not in str(err.value)  # a logged traceback shows no hidden card
    assert game.hands[1] == cards("8C 7H 8H 9S")  # nothing changed


def test_r4_highest_card_of_the_led_suit_wins() -> None:
    game = new_game(FOUR)
    out = run(game, "close", "0 7C", "1 8C", "2 9C", "3 10H")  # 10H is off-suit
    assert of_type(out, TrickWon)[0].seat == 2
    assert game.waiting().seats == (2,)


def test_r4_a_folded_players_card_stays_and_counts() -> None:
    game = new_game(deal("7C 8D 9D AC", "10C 7H 8H 9S", "9C 10D KS JH", "7S 8S 10H QD"))
    out = run(game, "close", "0 7C", "1 10C", "2 toep", "3 call", "0 call", "1 fold",
              "2 9C", "3 7S")
    won = of_type(out, TrickWon)[0]
    assert (won.seat, won.card.text) == (1, "10C")
    # R5: seat 1 folded, so the next player clockwise still in the round leads.
    assert won.leads_next == 2 and game.waiting().seats == (2,)


def _three_for_last_trick() -> list[str]:
    return ["close", "0 10D", "1 7C", "2 7S", "0 9D", "1 8C", "2 8S", "0 8D", "1 9C", "2 9S",
            "0 JH"]


THREE = deal("10D 9D 8D JH", "7C 8C 9C 10C", "7S 8S 9S 10S")


def test_r5_winner_not_in_round_in_the_fourth_trick() -> None:
    game = new_game(THREE)
    out = run(game, *_three_for_last_trick(), "1 toep", "2 call", "0 fold", "1 10C", "2 10S")
    trick = of_type(out, TrickWon)[-1]
    assert (trick.seat, trick.card.text) == (0, "JH")
    won = of_type(out, RoundWon)[0]
    assert (won.seat, won.jack_finish) == (1, False)  # no jack finish for seat 1
    assert game.rounds[0].marks == (1, 0, 2)


def test_r6_round_winner_takes_nothing_others_take_the_stake() -> None:
    game = new_game(FOUR)
    run(game, "close", "0 7C", "1 8C", "2 9C", "3 7S", "2 10D", "3 QD", "0 8D", "1 7H",
        "2 KS", "3 8S", "0 9D", "1 9S", "1 8H", "2 JH", "3 10H", "0 AC")
    assert game.rounds[0].winner == 3 and game.rounds[0].marks == (1, 1, 1, 0)


def test_r6_all_but_one_left_the_round_ends_at_once() -> None:
    game = new_game(THREE)
    out = run(game, "close", "0 toep", "1 fold", "2 fold")
    assert of_type(out, RoundWon)[0].seat == 0
    summary = game.rounds[0]
    assert (summary.stake, summary.marks, summary.leader) == (2, (0, 1, 1), 0)
    assert game.round_number == 2


def test_r7_first_leader_then_clockwise_from_the_last_leader() -> None:
    game = new_game(THREE, first_leader=2)
    run(game, "close")
    assert game.waiting().seats == (2,)
    run(game, "2 toep", "0 fold", "1 fold")
    run(game, "close")
    assert game.waiting().seats == (0,)  # clockwise from seat 2


def test_r7_chosen_leader_not_in_round_next_clockwise_leads() -> None:
    game = new_game(FOUR)
    run(game, "0 forfeit", "close")
    assert game.waiting().seats == (1,)
    run(game, "1 toep", "2 fold", "3 fold")
    assert game.rounds[0].leader == 1  # "whoever led": the seat due when the round ended
    run(game, "close")
    assert game.waiting().seats == (2,)


def test_r7_whoever_led_is_the_seat_that_played_the_first_card() -> None:
    game = new_game(FOUR)
    run(game, "close", "0 7C", "1 8C", "2 9C", "3 7S")
    assert game.phase is Phase.PLAY
    run(game, "2 toep", "3 fold", "0 fold", "1 fold")
    assert game.rounds[0].leader == 0
