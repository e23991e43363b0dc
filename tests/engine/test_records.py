"""Game records: the golden records, writing and reading back, and
`python -m engine.replay` on valid, malformed and illegal input (docs/records.md)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from engine.record import play_random_game, replay_json, result, to_record
from engine.replay import main
from engine.rules import TableRules
from tools.check_record import compare

RECORDS = sorted((Path(__file__).parent.parent / "records").glob("*.json"))
ROOT = Path(__file__).parent.parent.parent


def _run(record: object) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([_write(record)])
    return code, out.getvalue(), err.getvalue()


_TMP: list[Path] = []


def _write(record: object) -> str:
    path = _TMP[0] / f"r{len(list(_TMP[0].iterdir()))}.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    return str(path)


@pytest.fixture(autouse=True)
def _tmp(tmp_path: Path) -> None:
    _TMP[:] = [tmp_path]


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_golden_records_give_their_expectation(path: Path) -> None:
    record = json.loads(path.read_text())
    code, out, err = _run(record)
    assert compare(record, code, out, err) == []
    assert "expect_error" in record or err == ""


def test_the_command_line_prints_json_and_exit_codes() -> None:
    good = subprocess.run([sys.executable, "-m", "engine.replay", str(RECORDS[0])],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    assert good.returncode == 0 and json.loads(good.stdout)["round"] >= 1
    bad = subprocess.run([sys.executable, "-m", "engine.replay", "/nonexistent.json"],
                         capture_output=True, text=True, cwd=ROOT, check=False)
    assert bad.returncode == 2 and bad.stdout == "" and bad.stderr.startswith("record:")


BASE: dict[str, Any] = {
    "format": "toep-replay/1",
    "players": ["a", "b", "c"],
    "first_leader": 0,
    "deals": [{"hands": [["10D", "9D", "8D", "JH"], ["7C", "8C", "9C", "10C"],
                         ["7S", "8S", "9S", "10S"]],
               "stock": ["JC", "QC", "KC", "AC", "JD", "QD", "KD", "AD", "7H", "8H", "9H", "10H",
                         "QH", "KH", "AH", "JS", "QS", "KS", "AS", "7D"]}],
    "events": [{"do": "close_window"}, {"seat": 0, "do": "play", "card": "10D"}],
}


def _with(**changes: Any) -> dict[str, Any]:
    return {**BASE, **changes}


def _deal_with_twice() -> list[dict[str, Any]]:
    deal = json.loads(json.dumps(BASE["deals"][0]))
    deal["stock"][-1] = "10D"
    return [deal]


@pytest.mark.parametrize(("record", "start", "contains"), [
    ("{not json", "record:", "JSON"),
    ("[1, 2]", "record:", "object"),
    (_with(format="toep-replay/2"), "record:", "format"),
    (_with(rules={"limit": 99}), "record:", "V1"),
    (_with(rules={"trumps": 1}), "record:", "unknown option"),
    (_with(players=["solo"]), "record:", "V12"),
    (_with(players=["a", 2]), "record:", "players"),
    (_with(first_leader=3), "record:", "first_leader"),
    (_with(seed="x"), "record:", "seed"),
    (_with(deals={}), "record:", "deals"),
    (_with(deals=_deal_with_twice()), "record:", "deals[0] holds 10D twice"),
    (_with(view=1), "record:", "view"),
    (_with(events=[{"do": "dance"}]), "event 0:", "unknown event"),
    (_with(events=[{"do": "vuile_was"}]), "event 0:", "seat"),
    (_with(events=[{"seat": 7, "do": "vuile_was"}]), "event 0:", "no seat 7"),
    (_with(events=[{"do": "close_window"}, {"seat": 0, "do": "play", "card": "11H"}]),
     "event 1:", "not a card"),
    (_with(events=[{"do": "close_window"}, {"seat": 0, "do": "play", "card": "7C"}]),
     "event 1:", "R4"),
    (_with(events=[{"do": "close_window"}, {"seat": 1, "do": "play", "card": "7C"}]),
     "event 1:", "seat 1 is not on turn (R4): waiting for seat 0"),
    (_with(events=[{"seat": 0, "do": "play", "card": "10D"}]), "event 0:", "window"),
    (_with(events=[{"do": "close_window"}, {"do": "close_window"}]), "event 1:", "R12"),
    (_with(events=[{"do": "close_window"}, {"seat": 0, "do": "toep"}, {"seat": 1, "do": "fold"},
                   {"seat": 2, "do": "fold"}, {"seat": 9, "do": "fold"}]), "event 4:", "seat 9"),
])
def test_malformed_and_illegal_records_exit_2_with_one_line(
        record: object, start: str, contains: str) -> None:
    code, out, err = _run(record)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert err.startswith(start) and contains in err, err


def test_a_bad_later_deal_is_reported_at_the_event_that_led_to_it() -> None:
    bad = {"hands": [["7C"], ["8C"], ["9C"]], "stock": []}
    record = _with(deals=[BASE["deals"][0], bad],
                   events=[{"do": "close_window"}, {"seat": 0, "do": "toep"},
                           {"seat": 1, "do": "fold"}, {"seat": 2, "do": "fold"}])
    code, _, err = _run(record)
    assert code == 2 and err.startswith("event 3: deals[1]")


def test_events_after_the_game_is_over_are_refused() -> None:
    record = _with(players=["a", "b"], rules={"limit": 5}, deals=[],
                   events=[{"seat": 0, "do": "forfeit"}, {"do": "close_window"}])
    code, _, err = _run(record)
    assert code == 2 and err.startswith("event 1:") and "over" in err


@pytest.mark.parametrize("seed", range(12))
def test_written_records_replay_to_the_same_state_in_any_seed(seed: int) -> None:
    rules = TableRules(max_players=8, limit=5 + seed, seven_counts=seed % 2 == 0)
    game = play_random_game([f"p{i}" for i in range(2 + seed % 7)], rules, seed)
    record = to_record(game, seed)
    again = replay_json(json.loads(json.dumps(record)))
    assert result(again) == result(game)
    assert again.deal_log == game.deal_log and again.events == game.events
    record["seed"] = seed + 1000  # every chance outcome is in the record
    assert result(replay_json(record)) == result(game)
