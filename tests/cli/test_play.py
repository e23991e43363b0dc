"""`python -m cli.play`: the terminal game, played through its input and output."""

from __future__ import annotations

import io
import json
import random
from importlib import import_module
from pathlib import Path

import pytest

from cli.play import main
from cli.play_human import HumanPlayer, WalkOut, menu
from engine import events as ev
from engine.chance import RandomChance
from engine.game import Game, Phase
from engine.record import replay_json, result
from engine.rules import TableRules
from engine.views import seat_view

PROMPT = "\n> "


def play(stdin: str, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--pause", "0", *argv], stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def computer_levels() -> list[str]:
    """random, and easy once its module exists."""
    levels = ["random"]
    try:
        import_module("engine.bots.easy")
    except ImportError:
        return levels
    return [*levels, "easy"]


# --- whole games --------------------------------------------------------------------


@pytest.mark.parametrize("level", computer_levels())
@pytest.mark.parametrize(("players", "seed"), [(4, 3), (2, 11), (3, 5)])
def test_always_option_1_plays_a_whole_game(level: str, players: int, seed: int) -> None:
    code, out, err = play("1\n" * 20_000, "--level", level, "--players", str(players),
                          "--seed", str(seed))
    assert code == 0, err
    assert "Game over." in out
    assert "walked out" not in out
    last = out.splitlines()[-1]
    assert "wins" in last or "You win" in last
    assert "Traceback" not in out and err == ""


def test_eight_players_and_house_rules() -> None:
    code, out, err = play("1\n" * 20_000, "--players", "8", "--level", "random", "--seed", "2",
                          "--limit", "8", "--dead-man", "off", "--small-players", "off")
    assert code == 0, err
    assert "Out at 8 marks" in out and "Game over." in out
    assert "Dead man's round" not in out


def test_the_record_replays_to_the_same_result(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, _, err = play("1\n" * 20_000, "--level", "random", "--seed", "8",
                        "--record", str(path))
    assert code == 0, err
    record = json.loads(path.read_text())
    game = replay_json(record)
    assert game.over
    assert result(game)["winner"] is not None


# --- the first question is the vuile was window, and the human is asked first -------


def test_window_shows_hand_slates_and_menu() -> None:
    _, out, _ = play("", "--level", "random", "--seed", "1", "--name", "Sanne")
    assert "Your hand: " in out
    assert "Slates (out at 15, on the edge at 14):" in out
    assert "1) vuile was   enter) pass" in out
    assert "Sanne" in out


def test_bad_input_gets_a_message_and_a_new_prompt() -> None:
    _, out, _ = play("abc\n99\n0\n7C\n", "--level", "random", "--seed", "1")
    assert "'abc' is not a choice. Type 1, or press enter to stay silent." in out
    assert "99 is not on the menu." in out
    assert "0 is not on the menu." in out
    # A move off the menu is put to the engine, which names the rule.
    assert "Not allowed: you cannot play a card now: the vuile was window is open (R4)." in out
    assert out.count(PROMPT) == 5  # four refused answers, then end of input


def test_vuile_was_typed_in_the_window() -> None:
    _, out, _ = play("vuile was\n", "--level", "random", "--seed", "1", "--name", "Sanne")
    assert "Sanne calls VUILE WAS!" in out


def test_enter_in_the_window_is_silence() -> None:
    _, out, _ = play("\n", "--level", "random", "--seed", "1", "--name", "Sanne")
    assert "Sanne calls" not in out
    assert "is not a choice" not in out


def test_end_of_input_walks_out_cleanly() -> None:
    code, out, err = play("", "--level", "random", "--seed", "1")
    assert code == 0 and err == ""
    assert "Player walks out of the game (forfeit)." in out
    assert "You walked out: that counts as a forfeit (R16)." in out


def test_quit_walks_out() -> None:
    code, out, _ = play("quit\n1\n1\n", "--level", "random", "--seed", "1")
    assert code == 0
    assert "You walked out" in out
    assert out.count(PROMPT) == 1


def test_empty_line_on_a_turn_is_not_silence() -> None:
    # Pass the window, then answer every turn with an empty line first.
    code, out, _ = play("\n" + "\n1\n" * 500, "--level", "random", "--players", "2",
                        "--seed", "4")
    assert code == 0
    assert "Type a number from 1 to" in out or "Type 1." in out


# --- the human as a player of the runner --------------------------------------------


def two_player_check() -> Game:
    """Seat 1 calls vuile was; seat 0 (the human) must check or believe."""
    game = Game(TableRules(), ["me", "cpu"], RandomChance(random.Random(1)))
    game.apply(ev.act(ev.VUILE_WAS, 1))
    assert game.phase is Phase.CHECK and game.waiting().seats == (0,)
    return game


def ask(game: Game, lines: str) -> tuple[ev.Event | None, str]:
    out = io.StringIO()
    human = HumanPlayer(game.players, io.StringIO(lines), out, game.verify)
    return human.decide(seat_view(game, 0)), out.getvalue()


def test_check_window_enter_believes_and_menu_offers_both() -> None:
    game = two_player_check()
    assert [e.do for e in menu(seat_view(game, 0))] == [ev.CHECK, ev.BELIEVE]
    event, out = ask(game, "\n")
    assert event is None
    assert "cpu calls vuile was. Check" in out and "enter) believe" in out
    assert ask(game, "check\n")[0] == ev.act(ev.CHECK, 0)
    assert ask(game, "2\n")[0] == ev.act(ev.BELIEVE, 0)


def test_words_off_the_menu_are_refused_with_the_rule() -> None:
    game = two_player_check()
    event, out = ask(game, "toep\nhelp\n1\n")
    assert event == ev.act(ev.CHECK, 0)
    assert "Not allowed: you cannot toep now: a vuile was call is being answered (R8)." in out
    assert "'quit' (or end of input) walks out" in out


def test_end_of_input_raises_walk_out() -> None:
    with pytest.raises(WalkOut):
        ask(two_player_check(), "")


def random_game_until(phase: Phase, rules: TableRules) -> Game:
    """A game of random legal events, stopped where seat 0 is asked in `phase`."""
    for seed in range(300):
        rng = random.Random(seed)
        game = Game(rules, ["me", "a", "b"], RandomChance(random.Random(seed)))
        while not game.over:
            if game.phase is phase and 0 in game.waiting().seats:
                return game
            legal = game.legal_events()
            game.apply(legal[rng.randrange(len(legal))])
    raise AssertionError(f"no random game reached {phase}")


def test_super_toep_question_enter_says_no() -> None:
    game = random_game_until(Phase.SUPER_QUESTION, TableRules(limit=5))
    assert [e.do for e in menu(seat_view(game, 0))] == [ev.SUPER_YES, ev.SUPER_NO]
    event, out = ask(game, "\n")
    assert event is None
    assert "Play a super toep" in out and "1) yes, super toep   2) no   enter) no" in out
    assert ask(game, "1\n")[0] == ev.act(ev.SUPER_YES, 0)


def test_dead_mans_choice_is_a_turn() -> None:
    game = random_game_until(Phase.DEAD_MAN_CHOICE, TableRules(limit=5))
    event, out = ask(game, "\nsit out\n")
    assert event == ev.act(ev.SIT_OUT, 0)
    assert "1) play in   2) sit out (1 mark)" in out
    assert "enter)" not in out and "Type a number from 1 to 2." in out


# --- arguments ----------------------------------------------------------------------


@pytest.mark.parametrize(("argv", "words"), [
    (["--players", "9"], "2 to 8"),
    (["--players", "1"], "2 to 8"),
    (["--level", "wizard"], "unknown level"),
    (["--levels", "random,random", "--players", "4"], "needs 3 --levels"),
    (["--limit", "99"], "V1 limit"),
    (["--dead-man", "maybe"], "--dead-man must be on or off"),
    (["--two-left", "sometimes"], "V11 two_left"),
    (["--rules", "[]"], "JSON object"),
    (["--rules", "{"], "not valid JSON"),
    (["--players", "8", "--max-players", "6"], "max_players"),
    (["--pause", "-1"], "--pause"),
])
def test_bad_arguments_give_one_line_and_exit_2(argv: list[str], words: str) -> None:
    code, out, err = play("", "--level", "random", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("play: error: ")
    assert words in err


def test_a_window_with_no_call_to_make_asks_nothing() -> None:
    """Eight players leave no stock: nobody can call, so the person is not asked."""
    rules = TableRules(max_players=8)
    game = Game(rules, [f"P{i}" for i in range(8)], RandomChance(random.Random(1)))
    assert game.phase is Phase.WINDOW and 0 in game.waiting().seats
    out = io.StringIO()
    human = HumanPlayer(game.players, io.StringIO(""), out, game.verify)
    assert human.decide(seat_view(game, 0)) is None  # no input read: no walk-out
    assert "cannot call vuile was now" in out.getvalue()
