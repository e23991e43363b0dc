"""`python -m cli.duel`: duplicate deals, intervals over deals, output, arguments."""

from __future__ import annotations

import io
import json
import math
from collections import Counter
from importlib import import_module
from typing import Any

import pytest

from cli import duel_play
from cli.duel import main, summarize
from cli.duel_play import DealResult, DuelSetup, deal_seed, new_game, play_deal, seating
from cli.duel_stats import mean_interval, percentile, wilson_interval
from cli.scripted import HABITS
from cli.seats import make_seat
from engine.bots import LEVELS, Bot, RandomBot
from engine.bots.runner import next_event
from engine.rules import TableRules, TwoLeft


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def available_levels() -> list[str]:
    """Every level whose module exists (the bots are written one by one)."""
    out = []
    for level in LEVELS:
        module = "engine.bots.base" if level == "random" else f"engine.bots.{level}"
        try:
            import_module(module)
        except ImportError:
            continue
        out.append(level)
    return out


# --- duplicate deals -------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 9))
def test_rotation_gives_every_entry_every_seat_once(n: int) -> None:
    entries = [f"e{i}" for i in range(n)]
    rotations = [seating(entries, r) for r in range(n)]
    for rotation in rotations:
        assert sorted(rotation) == sorted(entries)
    for seat in range(n):
        assert sorted(rot[seat] for rot in rotations) == sorted(entries)


def test_every_rotation_of_a_deal_gets_the_same_cards() -> None:
    setup = DuelSetup(("random",) * 4, TableRules(), seed=9)
    games = [new_game(setup, deal_seed(9, 3)) for _ in range(4)]
    first = games[0]
    for game in games[1:]:
        assert game.deal_log[0].hands == first.deal_log[0].hands
        assert game.deal_log[0].stock == first.deal_log[0].stock
        assert game.first_leader == first.first_leader
    other = new_game(setup, deal_seed(9, 4))
    assert other.deal_log[0].hands != first.deal_log[0].hands


def test_play_deal_moves_the_levels_round_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    # Labels stand for levels; every "level" is a random bot that remembers its label.
    made: list[str] = []

    def fake_make_bot(level: str, seed: int = 0) -> Bot:
        made.append(level)
        bot = RandomBot(seed)
        bot.level = level
        return bot

    monkeypatch.setattr(duel_play, "make_seat", fake_make_bot)
    entries = ("a", "b", "b")
    result = play_deal(DuelSetup(entries, TableRules(), seed=2), deal=0)
    n = len(entries)
    assert [made[r * n:(r + 1) * n] for r in range(n)] == [seating(entries, r) for r in range(n)]
    assert result.seat_rounds == Counter({"a": 3, "b": 6})
    assert sum(result.wins.values()) == n  # one round winner per rotation
    assert sum(result.entry_wins.values()) == n
    assert result.entry_marks[0] == result.marks["a"]  # entry 0 is the one "a"
    assert set(result.times) == {"a", "b"}


# --- statistics -----------------------------------------------------------------


def test_round_intervals_are_taken_over_deals_not_rounds() -> None:
    # Level a wins 2, 0 and 1 of its 2 seat-rounds in three deals: samples 1, 0, 0.5.
    deals = [DealResult(seat_rounds=Counter({"a": 2, "b": 2}), wins=Counter({"a": w, "b": 2 - w}),
                        marks=Counter({"a": 2 * (2 - w), "b": 2 * w}), times={"a": [1.0]})
             for w in (2, 0, 1)]
    summary = summarize(("a", "b"), deals, [])
    share = summary["a"].round_share
    assert share is not None and share.low is not None and share.high is not None
    half = 1.96 * 0.5 / math.sqrt(3)  # sd of 1, 0, 0.5 is 0.5
    assert share.value == pytest.approx(0.5)
    assert (share.low, share.high) == (pytest.approx(0.5 - half), pytest.approx(0.5 + half))
    marks = summary["a"].marks_per_round
    assert marks is not None and marks.value == pytest.approx(1.0)
    assert summary["a"].games_won is None
    assert summary["b"].decision_median is None


def test_one_deal_gives_no_interval() -> None:
    interval = mean_interval([0.25])
    assert (interval.value, interval.low, interval.high) == (0.25, None, None)


def test_wilson_interval_known_values() -> None:
    interval = wilson_interval(5, 10)
    assert interval.value == 0.5
    assert interval.low == pytest.approx(0.2366, abs=1e-4)
    assert interval.high == pytest.approx(0.7634, abs=1e-4)
    zero = wilson_interval(0, 20)
    assert zero.low == 0.0 and zero.high is not None and 0 < zero.high < 0.2


def test_percentile() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == pytest.approx(50.5)
    assert percentile(values, 99) == pytest.approx(99.01)
    assert percentile([3.0], 99) == 3.0


# --- the command ------------------------------------------------------------------


def test_json_shape_with_random_bots() -> None:
    code, out, err = run("--seats", "random,random,random", "--rounds", "30", "--games", "3",
                         "--seed", "4", "--json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    assert out.count("\n") == 1
    assert data["rounds"] == 30 and data["games"] == 3
    level = data["levels"]["random"]
    for key in ("round_share", "marks_per_round", "games_won"):
        value, low, high = level[key]
        assert low <= value <= high
    # Three random seats hold every seat: they win every round and every game.
    assert level["round_share"][0] == pytest.approx(1 / 3)
    assert level["games_won"][0] == 1.0
    assert set(level["decision_ms"]) == {"median", "p99"}
    assert 0 <= level["decision_ms"]["median"] <= level["decision_ms"]["p99"]


def test_rounds_are_rounded_up_to_whole_deals() -> None:
    code, out, _ = run("--seats", "random,random,random", "--rounds", "10", "--games", "0",
                       "--json")
    data = json.loads(out)
    assert code == 0 and data["rounds"] == 12 and data["deals"] == 4
    assert data["levels"]["random"]["games_won"] is None


def test_text_output_names_every_level() -> None:
    code, out, _ = run("--seats", "random,random", "--rounds", "20", "--games", "2")
    assert code == 0
    assert "duplicate deals" in out and "Wilson" in out
    assert any(line.startswith("random") for line in out.splitlines())


def test_same_seed_same_figures_with_workers() -> None:
    argv = ("--seats", "random,random,random,random", "--rounds", "40", "--games", "4",
            "--json", "--seed", "5")
    one = json.loads(run(*argv)[1])
    two = json.loads(run(*argv, "--workers", "2")[1])
    for key in ("round_share", "marks_per_round", "games_won"):
        assert one["levels"]["random"][key] == two["levels"]["random"][key]


def test_rules_reach_the_games() -> None:
    code, out, err = run("--seats", "random,random", "--rounds", "10", "--games", "2",
                         "--rules", '{"limit": 5, "dead_man": false}', "--json")
    assert code == 0, err
    assert json.loads(out)["levels"]["random"]["games_won"][0] == 1.0


def test_the_table_reports_marks_and_games_before_rounds() -> None:
    code, out, _ = run("--seats", "normal,easy,easy", "--rounds", "12", "--games", "2")
    assert code == 0
    header = next(line for line in out.splitlines() if line.startswith("player"))
    assert header.index("marks/round") < header.index("games won") < header.index("rounds won")


def test_marks_less_the_others_is_paired_per_deal() -> None:
    code, out, err = run("--seats", "normal,easy,easy", "--rounds", "30", "--games", "0",
                         "--json")
    assert code == 0, err
    levels = json.loads(out)["levels"]
    normal, easy = levels["normal"], levels["easy"]
    assert normal["marks_vs_others"][0] == pytest.approx(
        normal["marks_per_round"][0] - easy["marks_per_round"][0], abs=1e-5)
    assert normal["marks_vs_others"][0] == pytest.approx(-easy["marks_vs_others"][0], abs=1e-5)


def test_a_player_compared_with_itself_gains_exactly_nothing() -> None:
    code, out, err = run("--compare", "normal:normal", "--seats", "easy,easy", "--rounds", "12",
                         "--games", "3", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["seats"] == ["normal", "easy", "easy"] and data["deals"] == 4
    gain = data["b_minus_a"]
    assert gain["marks_per_round"] == [0.0, 0.0, 0.0]
    assert gain["round_share"] == [0.0, 0.0, 0.0]
    assert gain["games_won"] == [0.0, 0.0, 0.0]
    assert data["a"]["marks_per_round"] == data["b"]["marks_per_round"]


def test_compare_gives_b_minus_a_on_the_same_deals() -> None:
    code, out, err = run("--compare", "normal:vw-always", "--seats", "normal,normal,normal",
                         "--rounds", "40", "--games", "0", "--json")
    assert code == 0, err
    data = json.loads(out)
    a, b = data["a"], data["b"]
    assert (a["player"], b["player"]) == ("normal", "vw-always")
    gain = data["b_minus_a"]["marks_per_round"][0]
    assert gain == pytest.approx(b["marks_per_round"][0] - a["marks_per_round"][0], abs=1e-5)
    assert gain != 0.0
    code, text, _ = run("--compare", "normal:vw-always", "--seats", "normal,normal,normal",
                        "--rounds", "8", "--games", "0")
    assert "B - A" in text and "seat 0 as normal, then as vw-always" in text


@pytest.mark.parametrize("level", [*available_levels(), "yardstick", *HABITS])
def test_every_available_level_plays(level: str) -> None:
    code, out, err = run("--seats", f"{level},random", "--rounds", "4", "--games", "1",
                         "--rules", '{"limit": 5}', "--json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data["levels"]) == ({level, "random"})


@pytest.mark.parametrize(("argv", "words"), [
    (["--seats", "random,wizard"], "unknown player"),
    (["--seats", "random", "--compare", "normal"], "A:B"),
    (["--seats", "random", "--compare", "normal:wizard"], "unknown player"),
    (["--seats", "random", "--compare", "normal:easy,"], "A:B"),
    (["--seats", ",".join(["random"] * 8), "--compare", "normal:easy"], "1 to 7"),
    (["--seats", "random"], "2 to 8"),
    (["--seats", ",".join(["random"] * 9)], "2 to 8"),
    (["--seats", "random,random", "--rules", "{limit: 10}"], "not valid JSON"),
    (["--seats", "random,random", "--rules", '{"limit": 99}'], "V1 limit"),
    (["--seats", "random,random", "--rules", '{"colour": 1}'], "unknown option"),
    (["--seats", "random,random,random", "--rules", '{"max_players": 2}'], "max_players"),
    (["--seats", "random,random", "--rounds", "-1"], "negative"),
    (["--seats", "random,random", "--rounds", "0", "--games", "0"], "nothing to play"),
    (["--seats", "random,random", "--rounds", "many"], "invalid int"),
    (["--seats", "random,random", "--workers", "0"], "--workers"),
    ([], "--seats"),
])
def test_bad_arguments_give_one_line_and_exit_2(argv: list[str], words: str) -> None:
    code, out, err = run(*argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("duel: error: ")
    assert words in err


# --- whole games and --compare over them ------------------------------------------------


def _first_deals(entries: tuple[str, ...], seed: int) -> dict[int, list[Any]]:
    """A whole game of `entries`: the hands of the first deal of each round."""
    setup = DuelSetup(entries, TableRules(limit=10), seed=seed)
    game = duel_play.whole_game(setup, seed)
    bots = {s: make_seat(level, s) for s, level in enumerate(entries)}
    out: dict[int, list[Any]] = {}
    while not game.over:
        if game.deal_in_round == 1 and game.round_no not in out:
            out[game.round_no] = game.deal_log[-1].hands
        game.apply(next_event(game, bots))
    return out


def test_whole_games_deal_each_round_the_same_cards_whatever_came_before() -> None:
    # vw-always redeals on every call: by deal count the two games part at once.
    calls = _first_deals(("vw-always", "normal", "normal"), 4)
    plain = _first_deals(("normal", "normal", "normal"), 4)
    # Compared while the same seats are in the game (a seat out is dealt nothing).
    both = [r for r in set(calls) & set(plain)
            if [h is None for h in calls[r]] == [h is None for h in plain[r]]]
    assert len(both) >= 3
    assert all(calls[r] == plain[r] for r in both)
    assert _first_deals(("normal",) * 3, 5)[1] != plain[1]


def test_a_whole_game_counts_each_entry_s_rounds_wins_and_marks() -> None:
    # Without the super toep, whoever goes out does so by the marks counted.
    rules = TableRules(limit=6, two_left=TwoLeft.NORMAL)
    setup = DuelSetup(("normal", "easy", "easy"), rules, seed=2)
    for number in range(3):
        result = duel_play.play_game(setup, number)
        rounds = max(result.entry_rounds.values())
        assert sum(result.entry_wins.values()) <= rounds
        assert all(1 <= result.entry_rounds[e] <= rounds for e in range(3))
        assert result.winner_entry is not None
        losers = [e for e in range(3) if e != result.winner_entry]
        assert all(result.entry_marks[e] >= 6 for e in losers)  # each went out
        assert result.entry_marks[result.winner_entry] < 6 or result.entry_rounds[
            result.winner_entry] == rounds


def test_compare_over_whole_games_gains_nothing_against_itself() -> None:
    code, out, err = run("--compare", "normal:normal", "--seats", "easy,easy", "--rounds", "0",
                         "--games", "4", "--rules", '{"limit": 6}', "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["b_minus_a"]["game_marks_per_round"] == [0.0, 0.0, 0.0]
    assert data["b_minus_a"]["game_round_share"] == [0.0, 0.0, 0.0]
    assert data["a"]["marks_per_round"] is None  # no first rounds asked for


def test_several_bs_share_one_play_of_a() -> None:
    code, out, err = run("--compare", "normal:vw-always,toep-always", "--seats", "normal,normal",
                         "--rounds", "6", "--games", "2", "--rules", '{"limit": 6}', "--json")
    assert code == 0, err
    first, second = json.loads(out)["comparisons"]
    assert first["a"] == second["a"]
    assert (first["b"]["player"], second["b"]["player"]) == ("vw-always", "toep-always")
    code, text, _ = run("--compare", "normal:vw-always,toep-always", "--seats", "normal,normal",
                        "--rounds", "3", "--games", "1", "--rules", '{"limit": 6}')
    assert text.count("whole games (the others see seat 0's record") == 2
    assert "B toep-always" in text and "B vw-always" in text
