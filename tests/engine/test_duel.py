"""`python -m engine.duel` runs the duel tool (cli/duel.py) as a program."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_module(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine.duel", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)


def test_help_names_the_duel_options() -> None:
    done = run_module("--help")
    assert done.returncode == 0, done.stderr
    assert "--seats" in done.stdout and "--compare" in done.stdout


def test_a_tiny_duel_prints_its_figures_as_json() -> None:
    done = run_module("--seats", "random,random", "--rounds", "2", "--games", "1", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["seats"] == ["random", "random"]
    assert figures["games"] == 1


def test_bad_arguments_exit_2_with_one_line() -> None:
    done = run_module("--seats", "nobody,random")
    assert done.returncode == 2
    assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1
