"""tools.check_record: the example records of docs/examples give what they
say, and a record that does not is reported (so `make examples` can fail)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tools.check_record import check, compare, main

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.json"))
REPLAY = [sys.executable, "-m", "engine.replay"]
WORKED = ROOT / "docs" / "examples" / "worked-example.json"


def test_there_are_examples_and_each_says_what_it_must_give() -> None:
    assert len(EXAMPLES) >= 5
    for path in EXAMPLES:
        record = json.loads(path.read_text(encoding="utf-8"))
        assert ("expect" in record) != ("expect_error" in record), path.name
        assert record.get("comment"), f"{path.name} explains itself in a comment"


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_each_example_replays_to_its_expectation(path: Path) -> None:
    assert check(REPLAY, str(path), timeout=60) == []


def _record_with(tmp_path: Path, **changes: Any) -> Path:
    record = json.loads(WORKED.read_text(encoding="utf-8"))
    record.update(changes)
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def test_a_wrong_expectation_is_reported_with_where_it_differs(tmp_path: Path) -> None:
    path = _record_with(tmp_path, expect={"marks": [6, 2, 0, 2], "round": 2})
    problems = check(REPLAY, str(path), timeout=60)
    assert problems == ["marks[3]: expected 2, got 1"]


def test_an_error_that_does_not_come_is_reported(tmp_path: Path) -> None:
    path = _record_with(tmp_path, expect_error={"event": 3, "contains": "R4"})
    problems = check(REPLAY, str(path), timeout=60)
    assert "expected exit 2, got 0" in problems


def test_main_exits_1_when_any_record_fails(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    bad = _record_with(tmp_path, expect={"winner": 2})
    assert main([str(WORKED), str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL {bad}" in out and "1 ok, 1 failed" in out
    assert main([str(WORKED)]) == 0
    assert capsys.readouterr().out == "ok\n"


@pytest.mark.parametrize(("expect", "stdout", "problem"), [
    ({"winner": 0}, '{"winner": false}', "winner: expected 0, got false"),
    ({"out": [True]}, '{"out": [1]}', "out[0]: expected true, got 1"),
    ({"rounds": [{"stake": 2}]}, '{"rounds": []}', "rounds: expected"),
    ({"rounds": [{"stake": 2}]}, '{"rounds": [{"winner": 1}]}', "rounds[0].stake: missing"),
    ({"round": 1}, '{"marks": []}', "round: missing from the output"),
    ({"round": 1}, "[1]", "stdout is not a JSON object"),
])
def test_compare_is_exact_on_the_keys_it_is_given(expect: dict[str, Any], stdout: str,
                                                  problem: str) -> None:
    problems = compare({"expect": expect}, 0, stdout, "")
    assert len(problems) == 1 and problems[0].startswith(problem), problems


@pytest.mark.parametrize(("want", "code", "stdout", "stderr", "problem"), [
    ({"event": 2}, 2, "", "event 3: R4: no\n", "expected stderr to start with 'event 2:'"),
    ({"event": "record"}, 2, "", "event 0: x\n", "expected stderr to start with 'record:'"),
    ({"contains": "R4"}, 2, "", "event 0: R8\n", "expected stderr to contain 'R4'"),
    ({"contains_any": ["V2", "R8"]}, 2, "", "event 0: R4\n", "expected stderr to contain one"),
    ({}, 2, "{}", "event 0: x\n", "expected nothing on stdout"),
    ({}, 2, "", "event 0: x\nevent 1: y\n", "expected one line on stderr, got 2"),
    ({}, 1, "", "event 0: x\n", "expected exit 2, got 1"),
])
def test_compare_checks_every_part_of_an_expected_error(
        want: dict[str, Any], code: int, stdout: str, stderr: str, problem: str) -> None:
    problems = compare({"expect_error": want}, code, stdout, stderr)
    assert len(problems) == 1 and problems[0].startswith(problem), problems
