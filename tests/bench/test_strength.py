"""bench/strength.py at a tiny size: its figures are the duel's own, and the
document it writes has every table, every player and no gap."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from bench import strength
from bench.strength import Sizes, measure
from bench.strength_doc import document, saved, text_report
from cli.duel import main as duel_main

SIZES = Sizes(rounds=4, games=1, workers=1, seed=3)
PLAYERS = ("easy", "normal", "yardstick")  # the quick ones; the document's shape is the same
HABITS = ("vw-always", "never-fold")


@pytest.fixture(scope="module")
def figures() -> dict[str, Any]:
    return measure(SIZES, lambda _: None, PLAYERS, HABITS)


def untimed(run: dict[str, Any]) -> dict[str, Any]:
    """A duel's JSON but its decision times, which differ from run to run."""
    levels = {name: {k: v for k, v in figures.items() if k != "decision_ms"}
              for name, figures in run["levels"].items()}
    return {**run, "levels": levels}


def duel_json(*argv: str) -> dict[str, Any]:
    out = io.StringIO()
    assert duel_main([*argv, "--rounds", "4", "--games", "1", "--seed", "3", "--json"],
                     stdout=out) == 0
    parsed: dict[str, Any] = json.loads(out.getvalue())
    return parsed


def test_a_heads_up_table_is_the_duel_s_figures(figures: dict[str, Any]) -> None:
    want = duel_json("--seats", "easy,yardstick")
    (got,) = [r for r in figures["heads_up"] if r["seats"] == ["easy", "yardstick"]]
    assert untimed(got) == untimed(want)


def test_a_one_against_three_table_is_the_duel_s_figures(figures: dict[str, Any]) -> None:
    want = duel_json("--seats", "normal,easy,easy,easy")
    (got,) = [r for r in figures["one_vs_three"] if r["seats"] == ["normal", "easy", "easy",
                                                                   "easy"]]
    assert untimed(got) == untimed(want)


def test_the_exploiters_are_the_duel_s_paired_comparisons(figures: dict[str, Any]) -> None:
    want = duel_json("--compare", "normal:" + ",".join(HABITS), "--seats", "normal,normal,normal")
    (got,) = [b for b in figures["exploiters"] if b["level"] == "normal"]
    assert got["comparisons"] == want["comparisons"]


def test_every_pair_both_ways_and_every_level_s_exploiters(figures: dict[str, Any]) -> None:
    assert len(figures["heads_up"]) == 3  # pairs of three players
    lone = {r["seats"][0] + ":" + r["seats"][1] for r in figures["one_vs_three"]}
    assert lone == {f"{a}:{b}" for a in PLAYERS for b in PLAYERS if a != b}
    assert [b["level"] for b in figures["exploiters"]] == ["easy", "normal"]
    for block in figures["exploiters"]:
        assert [c["b"]["player"] for c in block["comparisons"]] == list(HABITS)


def test_the_document_has_every_table_filled_in(figures: dict[str, Any]) -> None:
    doc = document(figures)
    for heading in ("# How strong the computer players are", "## Heads-up: two players",
                    "## One against three: four players", "## Exploiters",
                    "## The hard player's guesses",
                    "## What the figures mean", "## Limits"):
        assert heading in doc.splitlines()
    assert "--rounds 4 --games 1 --seed 3 --workers 1 --write docs/strength.md" in doc
    assert "The yardstick is our own" in doc
    assert "This was a small run" in doc
    assert "This was a small run" not in document({**figures, "rounds": 2400, "games": 400})
    assert "None" not in doc and "nan" not in doc
    rows = [line for line in doc.splitlines() if line.startswith("| **")]
    # Four tables of the players, three of the habits (against easy and normal).
    assert len(rows) == 4 * len(PLAYERS) + 3 * len(HABITS)
    for line in rows[:4 * len(PLAYERS)]:
        assert line.count("|") == len(PLAYERS) + 2
    for line in rows[4 * len(PLAYERS):]:
        assert line.count("|") == 2 + 2
    for level in ("easy", "normal"):
        assert any(line.startswith(f"- Against `{level}`") for line in doc.splitlines())


def test_what_weighing_buys_hard_is_the_duel_s_comparison(figures: dict[str, Any]) -> None:
    want = duel_json("--compare", "hard-uniform:hard", "--seats", "yardstick")
    (got,) = [w for w in figures["weighing"] if w["seats"] == ["hard-uniform", "yardstick"]]
    assert got["comparisons"] == [{k: v for k, v in want.items()
                                   if k in ("a", "b", "b_minus_a")}]
    assert [w["seats"] for w in figures["weighing"]] == [
        ["hard-uniform", "yardstick"], ["hard-uniform", *["yardstick"] * 3],
        ["hard-signals", *["yardstick"] * 3], ["hard-signals", *["normal"] * 3]]
    parts = figures["weighing"][2]["comparisons"]
    assert [c["b"]["player"] for c in parts] == list(strength.PARTS)
    doc = document(figures)
    for part in strength.PARTS:
        assert f"| `{part}` | " in doc


def test_a_cell_shows_the_duel_s_value_and_interval(figures: dict[str, Any]) -> None:
    (run,) = [r for r in figures["heads_up"] if r["seats"] == ["easy", "yardstick"]]
    value, low, high = run["levels"]["easy"]["marks_per_round"]
    row = next(line for line in document(figures).splitlines()
               if line.startswith("| **easy** |"))
    assert f"{value:.2f} [{low:.2f}, {high:.2f}]" in row


def test_a_habit_s_saving_is_the_duel_s_b_minus_a_turned_round() -> None:
    assert saved([0.25, 0.1, 0.4]) == "-0.25 [-0.40, -0.10]"
    assert saved([-0.05, -0.09, -0.01]) == "+0.05 [+0.01, +0.09]"
    assert saved(None) == "-"


def test_the_printed_report_names_its_sizes(figures: dict[str, Any]) -> None:
    text = text_report(figures)
    assert "4 rounds and 1 games per table, seed 3, 1 worker process" in text


def test_write_makes_the_document_and_json_prints_one_object(
        tmp_path: Any, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    small = {"players": PLAYERS[:2], "habits": HABITS[:1]}

    def quick(sizes: Sizes, progress: Any) -> dict[str, Any]:
        return measure(sizes, progress, small["players"], small["habits"], weigh=False)
    monkeypatch.setattr(strength, "measure", quick)
    target = tmp_path / "strength.md"
    assert strength.main(["--rounds", "2", "--games", "1", "--json",
                          "--write", str(target)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["rounds"] == 2 and printed["players"] == ["easy", "normal"]
    assert target.read_text(encoding="utf-8") == document(printed)


@pytest.mark.parametrize("argv", [["--rounds", "0"], ["--games", "0"], ["--workers", "0"]])
def test_bad_sizes_are_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        strength.main(argv)
    assert exit_.value.code == 2
