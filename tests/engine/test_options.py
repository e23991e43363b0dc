"""V1-V14: table options, their defaults, ranges, and what each changes."""

from __future__ import annotations

import pytest

from engine.errors import IllegalEvent, RecordError
from engine.events import TrickWon
from engine.record import load_record
from engine.rules import SPECS, NextLeader, RulesError, TableRules, TwoLeft
from tests.engine.helpers import deal, event, new_game, of_type, run

FOUR = deal("7C 8D 9D AC", "10C 7H 8H 9S", "9C 10D KS JH", "7S 8S 10H QD")
THREE = deal("10D 9D 8D JH", "7C 8C 9C 10C", "7S 8S 9S 10S")


def test_defaults_give_the_r_rules() -> None:
    rules = TableRules()
    assert (rules.limit, rules.max_stake, rules.folded_card_wins, rules.no_toep_past_limit) == (
        15, None, True, False)
    assert rules.next_leader is NextLeader.AFTER_LEADER and rules.rounds is None
    assert (rules.seven_counts, rules.redeal_after, rules.dead_man, rules.small_players) == (
        False, 5, True, 2)
    assert rules.two_left is TwoLeft.ASK
    assert (rules.max_players, rules.clock, rules.window) == (6, 20, 10)
    assert [spec.vid for spec in SPECS.values()] == [f"V{i}" for i in range(1, 15)]


@pytest.mark.parametrize(("name", "value", "expected"), [
    ("limit", 31, "V1 limit must be 5-30, got 31"),
    ("limit", 4, "V1 limit must be 5-30"),
    ("max_stake", 1, "V2 max_stake must be null or 2-10"),
    ("rounds", 101, "V6 rounds must be null or 1-100"),
    ("redeal_after", 6, "V8 redeal_after must be 2-5"),
    ("small_players", 0, "V10 small_players must be null or 1-5"),
    ("max_players", 9, "V12 max_players must be 2-8"),
    ("clock", 5, "V13 clock must be 10-60"),
    ("window", 31, "V14 window must be 5-30"),
    ("next_leader", "left", "V5 next_leader must be"),
    ("two_left", "maybe", "V11 two_left must be"),
    ("dead_man", 1, "V9 dead_man must be true or false"),
    ("limit", True, "V1 limit must be a whole number"),
    ("limit", "15", "V1 limit must be a whole number"),
    ("limit", None, "V1 limit must be a whole number 5-30, got null"),
])
def test_out_of_range_options_are_refused_naming_option_and_range(
        name: str, value: object, expected: str) -> None:
    with pytest.raises(RulesError, match=expected.replace("(", r"\(")):
        TableRules.from_json({name: value})


def test_unknown_option_is_refused() -> None:
    with pytest.raises(RulesError, match="unknown option 'trumps'"):
        TableRules.from_json({"trumps": True})


def test_options_round_trip_through_json() -> None:
    rules = TableRules.from_json({"limit": 10, "max_stake": 5, "next_leader": "winner",
                                  "two_left": "super_toep", "small_players": None})
    assert TableRules.from_json(rules.to_json()) == rules


def test_v2_max_stake() -> None:
    game = new_game(THREE, max_stake=2)
    run(game, "close", "0 toep", "1 call", "2 call", "0 10D")
    with pytest.raises(IllegalEvent) as err:
        game.apply(event("1 toep"))
    assert err.value.rule == "V2"


def test_v3_a_folded_players_card_cannot_win() -> None:
    game = new_game(FOUR, folded_card_wins=False)
    out = run(game, "close", "0 7C", "1 10C", "2 toep", "3 call", "0 call", "1 fold",
              "2 9C", "3 7S")
    assert of_type(out, TrickWon)[0].seat == 2  # 10C folded; 9C is the best left


def test_v3_a_forfeited_players_card_still_counts() -> None:
    game = new_game(FOUR, folded_card_wins=False)
    out = run(game, "close", "0 7C", "1 10C", "1 forfeit", "2 9C", "3 7S")
    won = of_type(out, TrickWon)[0]
    assert (won.seat, won.leads_next) == (1, 2)


def test_v3_only_folded_cards_of_the_led_suit_then_the_best_decides() -> None:
    game = new_game(deal("10C 8D 9D AC", "JH 7H 8H 9S", "KS 10D QS JS"),
                    folded_card_wins=False)
    out = run(game, "close", "0 10C", "1 toep", "2 call", "0 fold", "1 JH", "2 KS")
    won = of_type(out, TrickWon)[0]
    assert (won.seat, won.leads_next) == (0, 1)  # R5: seat 0 folded


def test_v4_no_toep_that_could_put_you_past_the_limit() -> None:
    game = new_game(THREE, limit=5, no_toep_past_limit=True)
    game.marks[0] = 4
    run(game, "close")
    with pytest.raises(IllegalEvent) as err:
        game.apply(event("0 toep"))
    assert err.value.rule == "V4"
    game.marks[0] = 3
    run(game, "0 toep")  # 3 + 2 = 5 is not more than the limit


def _second_round_leader(next_leader: str) -> int:
    game = new_game(THREE, next_leader=next_leader)
    run(game, "close", "0 10D", "1 toep", "2 fold", "0 fold")  # led by 0, won by 1
    run(game, "close")
    return game.waiting().seats[0]


def test_v5_first_leader_from_round_two() -> None:
    assert _second_round_leader("after_leader") == 1
    assert _second_round_leader("after_winner") == 2
    assert _second_round_leader("winner") == 1


def test_v6_fixed_number_of_rounds_fewest_marks_wins() -> None:
    game = new_game(THREE, rounds=2)
    run(game, "close", "0 toep", "1 fold", "2 fold")
    assert not game.over
    run(game, "close", "1 toep", "2 fold", "0 call")
    while not game.over:
        game.apply(game.legal_events()[0])
    assert len(game.rounds) == 2 and game.winner is not None
    fewest = min(game.marks)
    assert game.marks[game.winner] == fewest


def test_v7_three_low_cards_and_a_seven_are_genuine() -> None:
    hands = ("7D 8D 9D 10D", "JC QC KC 7H", "8H 9H 10H AH", "7S 8S 9S 10S")
    for seven_counts, outcome in ((True, "new_cards"), (False, "caught")):
        game = new_game(deal(*hands), seven_counts=seven_counts)
        out = run(game, "1 vuile_was", "2 check", "3 believe", "0 believe")
        assert [h.outcome for h in out if hasattr(h, "outcome")] == [outcome]


def test_v9_no_dead_mans_round() -> None:
    game = new_game(THREE, limit=5, dead_man=False)
    game.marks[:] = [0, 0, 3]
    run(game, "close", "0 toep", "1 fold", "2 fold")
    assert game.marks[2] == 4 and game.kind == "normal"


def test_v12_up_to_eight_players_and_records_with_more_are_refused() -> None:
    seven = {"format": "toep-replay/1", "players": [f"p{i}" for i in range(7)]}
    with pytest.raises(RecordError, match="V12"):
        load_record(seven)
    load_record({**seven, "rules": {"max_players": 7}})
    hands = ["7D 8D 9D 10D", "JC QC KC AC", "7H 8H 9H 10H", "7S 8S 9S 10S", "JD QD KD AD",
             "JH QH KH AH", "7C 8C 9C 10C", "JS QS KS AS"]
    game = new_game(deal(*hands, stock=""), max_players=8)
    assert game.n == 8 and game.stock == []
