"""R13-R17: the dead man's round, out, two players left, forfeits, windows.

Some tests start "as if earlier rounds had given these marks" by setting the
slates before the first event; the engine reads marks only as rounds end.
"""

from __future__ import annotations

import pytest

from engine.errors import IllegalEvent
from engine.events import GameWon, PlayedIn, PlayerOut
from engine.game import Game, Phase
from tests.engine.helpers import deal, event, new_game, run

THREE = deal("10D 9D 8D JH", "7C 8C 9C 10C", "7S 8S 9S 10S")
DEAD = deal("7C 8C 9C JC", "10D 10S 10H 9D", "7D 7S 7H 8D")


def _edge_game(marks: list[int], second: dict[str, object] = DEAD,
               **options: object) -> Game:
    """Round 1 of three players at limit 5: seat 0 toeps, 1 and 2 fold; round
    2 is dealt `second`."""
    game = new_game(THREE, second, limit=5, **options)  # type: ignore[arg-type]
    game.marks[:] = marks
    run(game, "close", "0 toep", "1 fold", "2 fold")
    return game


def test_r13_dead_mans_round_after_reaching_the_edge() -> None:
    game = _edge_game([0, 0, 3])
    assert game.marks == [0, 1, 4] and game.kind == "dead_man" and game.stake == 2
    assert game.phase is Phase.DEAD_MAN_CHOICE and game.waiting().seats == (0, 1)
    assert not game.waiting().window
    with pytest.raises(IllegalEvent, match="R13"):
        game.apply(event("2 sit_out"))  # a dead man always plays
    run(game, "1 sit_out", "0 play_in")
    assert game.marks == [0, 2, 4] and game.phase is Phase.WINDOW
    run(game, "close")
    assert game.waiting().seats == (2,)  # the dead man leads
    with pytest.raises(IllegalEvent, match="R13"):
        game.apply(event("2 toep"))


def test_r13_everyone_sits_out_the_lone_dead_man_wins_at_once() -> None:
    game = _edge_game([0, 0, 3])
    run(game, "0 sit_out", "1 sit_out")
    summary = game.rounds[1]
    assert (summary.kind, summary.winner, summary.leader, summary.stake) == ("dead_man", 2, 2, 2)
    assert summary.marks == (1, 1, 0)
    assert game.round_number == 3 and game.kind == "normal"  # on the edge, but had it


def test_r13_lose_it_and_you_are_out() -> None:
    game = _edge_game([0, 0, 3], two_left="normal")
    run(game, "0 sit_out", "1 play_in", "close", "2 7D", "1 10D", "1 10S", "2 7S", "1 10H",
        "2 7H", "1 9D", "2 8D")
    assert game.out[2] and game.marks == [1, 1, 6] and game.rounds[1].winner == 1


def test_r13_jack_finish_everyone_who_played_takes_four() -> None:
    jack = deal("7C 8C 9C 10C", "7D 8D 9D 10D", "JH KS QS AS")
    game = _edge_game([0, 0, 3], jack)
    run(game, "0 play_in", "1 sit_out", "close", "2 KS", "0 7C", "2 QS", "0 8C", "2 AS",
        "0 9C", "2 JH", "0 10C")
    assert game.rounds[1].jack_finish and game.rounds[1].marks == (4, 1, 0)


def test_r13_no_choice_for_whom_one_mark_reaches_the_limit() -> None:
    game = new_game(THREE, DEAD, limit=5)
    game.marks[:] = [0, 3, 3]
    game.had_dead_man[1] = True  # seat 1 had its dead man's round earlier
    out = run(game, "close", "0 toep", "1 fold", "2 fold")
    assert game.dead_men == (2,) and PlayedIn(1, True) in out
    assert game.waiting().seats == (0,)
    with pytest.raises(IllegalEvent, match="R13"):
        game.apply(event("1 sit_out"))


def test_r13_shared_dead_mans_round_chance_picks_the_leader() -> None:
    shared = deal("7C 8C 9C JC", "10D 10S 10H 9D", "7D 7S 7H 8D", leader=2)
    game = new_game(THREE, shared, limit=5)
    game.marks[:] = [0, 3, 3]
    run(game, "close", "0 toep", "1 fold", "2 fold")
    assert game.dead_men == (1, 2) and game.due_leader == 2
    assert game.deal_log[1].leader == 2
    run(game, "0 play_in", "close")
    assert game.waiting().seats == (2,)


def test_r13_only_a_genuine_vuile_was_and_nobody_checks() -> None:
    lows = deal("7C 8C 9C 10C", "JD QD KD AD", "7S 8S 9S 10S")
    game = _edge_game([0, 0, 3], lows)
    run(game, "0 play_in", "1 play_in")
    with pytest.raises(IllegalEvent, match="R13"):
        game.apply(event("0 vuile_was"))
    run(game, "1 vuile_was")
    assert game.phase is Phase.WINDOW and game.row == 1 and game.marks == [0, 1, 4]


def test_r13_jump_past_the_edge_out_at_once_no_dead_mans_round() -> None:
    game = new_game(THREE, limit=5)
    game.marks[:] = [0, 0, 3]
    out = run(game, "close", "0 toep", "1 call", "2 call", "0 10D", "1 toep", "2 fold")
    assert PlayerOut(2, "limit") in out and game.out[2]


def test_r13_lone_dead_man_forfeits_the_round_stays_a_dead_mans_round() -> None:
    game = _edge_game([0, 0, 3])
    run(game, "2 forfeit", "0 play_in", "1 play_in", "close")
    assert game.kind == "dead_man" and game.waiting().seats == (0,)
    with pytest.raises(IllegalEvent, match="R13"):
        game.apply(event("0 toep"))


def test_r14_out_at_the_limit_last_player_wins() -> None:
    game = new_game(deal("7C 8C 9C JC", "10D 10S 10H 9D"), first_leader=1, limit=5)
    game.marks[:] = [4, 0]
    out = run(game, "close", "1 toep", "0 fold")
    assert GameWon(1) in out and game.over and game.winner == 1
    assert game.out == [True, False] and game.round_number == 1
    with pytest.raises(IllegalEvent, match="R14"):
        game.apply(event("close"))


def test_r14_tie_break_round_winner_then_clockwise_from_the_leader() -> None:
    game = new_game(THREE, rounds=1)
    game.marks[:] = [2, 0, 0]
    run(game, "close", "0 toep", "1 fold", "2 fold")
    # marks 2, 1, 1: seats 1 and 2 tie; the round's winner (0) is not among
    # them, so the first of them clockwise from the leader (0) wins.
    assert game.winner == 1 and game.out == [True, False, True]


SUPER = deal("7C 8C 9C 10C JD QD KD AD", "7D 8D 9D 10D JC QC KC AC", None)
TWO = deal("7C 8C 9C JC", "10D 10S 10H 9D", None)


def _two_left(second: dict[str, object] = SUPER, **options: object) -> Game:
    """Seat 2 goes out in round 1 of three players, leaving two."""
    game = new_game(THREE, second, limit=5, **options)  # type: ignore[arg-type]
    game.marks[:] = [0, 0, 4]
    run(game, "close", "0 toep", "1 fold", "2 fold")
    return game


def test_r15_two_left_both_asked_two_yes_is_a_super_toep() -> None:
    game = _two_left()
    assert game.phase is Phase.SUPER_QUESTION and game.round_number == 2
    assert game.waiting().seats == (0, 1) and game.waiting().window
    run(game, "1 super_yes")
    with pytest.raises(IllegalEvent, match="R15"):
        game.apply(event("1 super_no"))
    run(game, "0 super_yes")
    assert game.kind == "super_toep" and [len(h) for h in game.hands] == [8, 8, 0]
    with pytest.raises(IllegalEvent, match="R15"):
        game.apply(event("1 vuile_was"))  # 4 low of 8 is no vuile was here
    run(game, "close")
    with pytest.raises(IllegalEvent, match="R15"):
        game.apply(event("1 toep"))
    run(game, "1 JC", "0 7C", "0 8C", "1 QC", "0 9C", "1 KC", "0 10C", "1 AC", "0 JD",
        "1 7D", "1 8D", "0 QD", "1 9D", "0 KD", "1 10D", "0 AD")
    assert game.over and game.winner == 1  # seat 1 won the 8th trick
    summary = game.rounds[-1]
    assert (summary.kind, summary.stake, summary.marks) == ("super_toep", 1, (0, 0, 0))
    assert game.marks == [0, 1, 5]  # the loser takes no marks


def test_r15_the_first_no_ends_the_question() -> None:
    game = _two_left(TWO)
    run(game, "0 super_no")
    assert game.kind == "normal" and game.phase is Phase.WINDOW
    assert len(game.hands[0]) == 4


def test_r15_options_normal_and_super_toep_ask_nothing() -> None:
    assert _two_left(TWO, two_left="normal").kind == "normal"
    assert _two_left(two_left="super_toep").kind == "super_toep"


def test_r15_not_at_a_table_that_starts_with_two() -> None:
    game = new_game(deal("7C 8C 9C JC", "10D 10S 10H 9D"))
    run(game, "close", "0 toep", "1 fold")
    assert game.phase is Phase.WINDOW and game.round_number == 2


def test_r15_super_toep_replaces_a_due_dead_mans_round() -> None:
    game = _edge_game([0, 3, 4], SUPER)
    assert game.out[2] and game.phase is Phase.SUPER_QUESTION
    run(game, "0 super_yes", "1 super_yes")
    assert game.kind == "super_toep" and not game.had_dead_man[1]
    no = _edge_game([0, 3, 4], TWO)
    run(no, "1 super_no")
    assert no.kind == "dead_man" and no.dead_men == (1,)


def test_r16_forfeit_mid_trick_the_card_stays_marks_stop_counting() -> None:
    game = new_game(deal("7C 8D 9D AC", "10C 7H 8H 9S", "9C 10D KS JH", "7S 8S 10H QD"))
    run(game, "close", "0 7C", "1 10C", "1 forfeit")
    assert game.table[1] == (1, game.table[1][1]) and game.forfeited[1]
    run(game, "2 9C", "3 7S")
    assert game.tricks[0].winner == 1  # the forfeited card still counts; R5 for the lead
    assert game.waiting().seats == (2,)
    run(game, "2 toep", "3 fold", "0 fold")
    assert game.marks[1] == 0 and game.rounds[0].marks == (1, 0, 0, 1)


def test_r16_forfeit_in_a_window_and_the_last_one_left_wins() -> None:
    game = new_game(THREE)
    run(game, "2 vuile_was", "1 forfeit")
    assert game.phase is Phase.CHECK and game.waiting().seats == (0,)
    out = run(game, "0 forfeit")
    assert GameWon(2) in out and game.winner == 2 and game.forfeited == [True, True, False]
    assert game.rounds[0].winner == 2


def test_r16_forfeit_during_the_super_toep_question() -> None:
    game = _two_left()
    run(game, "0 forfeit")
    assert game.winner == 1 and game.round_number == 1


def test_r17_windows_are_not_turns() -> None:
    game = new_game(THREE)
    assert game.waiting().window  # the vuile was moment
    run(game, "0 vuile_was")
    assert game.waiting().window  # check or believe
    run(game, "1 believe", "2 believe", "close")
    assert not game.waiting().window  # a turn
    run(game, "0 toep")
    assert not game.waiting().window  # call or fold


def test_r16_a_forfeited_seat_can_do_nothing_more() -> None:
    game = new_game(THREE)
    run(game, "1 forfeit")
    with pytest.raises(IllegalEvent, match="R16"):
        game.apply(event("1 vuile_was"))
