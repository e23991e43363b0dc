"""Reviewing a whole game: the decisions found, twin records reviewed alike,
the same seed giving the same review, and the command line."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import events as ev
from engine.bots.search import OUT_PENALTY
from engine.record import ReplayError, parse_event
from engine.review import FORMAT, main, review_json, review_record
from engine.review_moments import decisions
from engine.review_verdict import VERDICTS
from engine.seat_view_record import seat_view_record
from tests.engine.review_games import finished, twin, with_calls

SAMPLES = 6


def test_every_decision_has_each_legal_choice_weighed() -> None:
    record = finished(1)
    judged = review_record(record, [0], seed=0, samples=SAMPLES)
    assert judged
    for j in judged:
        event = parse_event(record["events"][j.index], 3)
        assert event == j.chosen and j.seat == 0
        assert len(j.marks) > 1 and j.chosen in j.marks and j.best in j.marks
        assert j.lost == pytest.approx(j.marks[j.chosen] - min(j.marks.values()))
        assert j.verdict in VERDICTS
        assert j.chosen.do != ev.FORFEIT
    # Silence in the vuile was moment is a pass, judged where the moment closed.
    passes = [j for j in judged if j.chosen.do == ev.CLOSE_WINDOW]
    assert passes and all(set(j.marks) == {ev.act(ev.VUILE_WAS, 0), j.chosen} for j in passes)


def test_twin_records_get_the_same_review() -> None:
    for seed in range(4):
        record, seat = finished(seed), seed % 3
        other = twin(record, seat)
        assert other is not None
        assert other["deals"] != record["deals"]
        judged = review_record(record, [seat], 5, SAMPLES)
        assert any(j.chosen.do == ev.CLOSE_WINDOW for j in judged)
        assert review_record(other, [seat], 5, SAMPLES) == judged


def test_the_same_seed_gives_the_same_review() -> None:
    record = finished(2)
    every = review_record(record, None, 11, SAMPLES)
    first = review_json(every)
    assert first == review_json(review_record(record, None, 11, SAMPLES))
    assert {d["seat"] for d in first["decisions"]} == {0, 1, 2}
    # A seat reviewed alone gets the review it gets among all.
    assert review_record(record, [1], 11, SAMPLES) == [j for j in every if j.seat == 1]


def test_a_game_in_progress_is_not_reviewed() -> None:
    record = finished(3)
    record["events"] = record["events"][:-1]
    with pytest.raises(ReplayError, match="not finished"):
        review_record(record, [0], 0, SAMPLES)


def test_a_seat_not_at_the_table_is_refused() -> None:
    with pytest.raises(ReplayError, match="no seat 3"):
        review_record(finished(1), [3], 0, SAMPLES)


def test_the_command_prints_the_review(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished(1)))
    assert main([str(path), "--seat", "1", "--seed", "4", "--samples", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["format"] == FORMAT
    assert out["decisions"] and all(d["seat"] == 1 for d in out["decisions"])
    first = out["decisions"][0]
    assert set(first) >= {"event", "seat", "chosen", "best", "marks", "marks_lost", "se",
                          "exact", "verdict"}
    assert first["chosen"] == finished(1)["events"][first["event"]]


def test_without_json_the_command_prints_a_summary(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished(1)))
    assert main([str(path), "--samples", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    summaries = [line for line in lines if line.startswith("seat ")]
    assert [line.split(":")[0] for line in summaries] == ["seat 0", "seat 1", "seat 2"]
    judged = review_record(finished(1), None, 0, 5)
    flagged = [j for j in judged if j.verdict != "ok"]
    assert len(lines) == 3 + len(flagged)
    for j in flagged:
        assert any(line.startswith(f"  event {j.index}, ") and line.endswith(j.verdict)
                   for line in lines)


@pytest.mark.parametrize(("args", "line"), [
    (["--seat", "7"], "record: there is no seat 7"),
    (["--samples", "0"], "record: --samples must be at least 1"),
])
def test_the_command_refuses_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       args: list[str], line: str) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished(1)))
    assert main([str(path), *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(line)


def test_the_command_refuses_a_seat_view(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "view.json"
    path.write_text(json.dumps(seat_view_record(finished(1), 0)))
    assert main([str(path)]) == 2
    assert capsys.readouterr().err.startswith("record: this is a seat's view")


def test_the_review_is_the_same_in_any_process(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished(4)))
    outs = set()
    for hash_seed in ("1", "2"):
        run = subprocess.run([sys.executable, "-m", "engine.review", str(path), "--seat", "0",
                              "--samples", "4", "--json"], capture_output=True, text=True,
                             check=True, env={"PYTHONHASHSEED": hash_seed, "PATH": ""},
                             cwd=Path(__file__).resolve().parents[2])
        outs.add(run.stdout)
    assert len(outs) == 1 and json.loads(outs.pop())["decisions"]


def _super_toep() -> dict[str, Any]:
    # Round 1 is an ordinary round; round 2 the super toep that decides the game.
    path = Path(__file__).resolve().parents[2] / "docs" / "examples" / "super-toep.json"
    record: dict[str, Any] = json.loads(path.read_text())
    return record


def test_the_cards_of_a_super_toep_are_judged_for_the_game() -> None:
    judged = review_record(_super_toep(), None, 0, SAMPLES)
    answers = [j for j in judged if j.chosen.do in (ev.SUPER_YES, ev.SUPER_NO)]
    cards = [j for j in judged if j.round == 2 and j not in answers]
    assert {j.round for j in judged} == {1, 2} and cards
    assert all(j.chosen.do == ev.PLAY for j in cards)
    # Both were asked first: each answer is judged, by the game's chances.
    assert {j.seat for j in answers} == {0, 2}
    assert all(set(j.marks) == {ev.act(ev.SUPER_YES, j.seat), ev.act(ev.SUPER_NO, j.seat)}
               for j in answers)
    # Its last trick decides the game: a card's marks lie between winning and losing it.
    assert all(-OUT_PENALTY <= m <= OUT_PENALTY for j in cards + answers
               for m in j.marks.values())


@pytest.mark.parametrize("seat", [0, 2])
def test_twin_super_toeps_get_the_same_review(seat: int) -> None:
    """The other's last card, unseen until it is played, swapped with a stock
    card: every decision before it is reviewed alike."""
    record = _super_toep()
    other_seat = 2 - seat
    events = record["events"]
    last = max(i for i, e in enumerate(events) if e.get("seat") == other_seat
               and e.get("do") == ev.PLAY)
    twins = []
    for card in record["deals"][1]["stock"]:
        trial = copy.deepcopy(record)
        deal = trial["deals"][1]
        hand = deal["hands"][other_seat]
        held = events[last]["card"]
        hand[hand.index(held)] = card
        deal["stock"][deal["stock"].index(card)] = held
        trial["events"][last]["card"] = card
        try:
            list(decisions(trial, [seat]))
        except ReplayError:
            continue
        twins.append(trial)
    assert twins
    before = [j for j in review_record(record, [seat], 2, SAMPLES) if j.index < last]
    assert before and any(j.round == 2 for j in before)
    for trial in twins[:2]:
        assert [j for j in review_record(trial, [seat], 2, SAMPLES) if j.index < last] == before


def test_twin_records_with_calls_and_checks_get_the_same_review() -> None:
    kinds: set[str] = set()
    for seed in range(3):
        record = with_calls(seed)
        for seat in range(3):
            other = twin(record, seat)
            assert other is not None and other["deals"] != record["deals"]
            judged = review_record(record, [seat], 1, SAMPLES)
            kinds |= {j.chosen.do for j in judged}
            assert review_record(other, [seat], 1, SAMPLES) == judged
    assert {ev.VUILE_WAS, ev.CLOSE_WINDOW, ev.CHECK, ev.BELIEVE} <= kinds
