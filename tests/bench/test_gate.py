"""bench/gate.py times what its names say: a panel's and the table's button
pass the gate, the forged one is refused, and it prints one JSON object."""

from __future__ import annotations

import json

import pytest

from bench.gate import cases, main
from cogs.gate import Refused
from cogs.ids import ButtonId


def test_each_case_is_what_it_is_named() -> None:
    work = cases()
    assert isinstance(work["gate_panel_button"](), ButtonId)
    assert isinstance(work["gate_table_button"](), ButtonId)
    assert isinstance(work["gate_forged_refused"](), Refused)


def test_json_is_one_object_of_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--runs", "3", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["runs"] == 3
    assert all(r["median_us"] > 0 for r in figures["results"].values())
