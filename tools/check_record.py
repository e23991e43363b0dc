"""Check game records against `python -m engine.replay` (docs/records.md).

    python -m tools.check_record docs/examples/*.json [--cmd 'python -m engine.replay']

Each record is replayed by the replay command, run in the current directory
with the record's path as its last argument, and what it gives is compared
with the record's own expectation:

- `"expect": {...}`: exit status 0 and one JSON object on stdout. Only the
  keys in `expect` are compared; an object inside is compared on its expected
  keys (a `rounds` entry may list just some fields), a list must have the
  same length and match item by item, and true/false never equal 1/0.
- `"expect_error": {"event": N, "contains": "R4", "contains_any": [...]}`:
  exit status 2, nothing on stdout, one line on stderr that starts with
  `event N:` (or `record:` when N is the string "record"), contains the
  `contains` text and at least one of `contains_any` (each optional).
- neither: exit status 0 and a JSON object on stdout.

One record: prints `ok` or the differences. Several: one line each and a
summary. Exit status 0 when every record matched, 1 otherwise, 2 for bad
arguments.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shlex
import subprocess
import sys
from collections.abc import Mapping, Sequence
from typing import Any

log = logging.getLogger(__name__)

MAX_DIFFERENCES = 6  # enough to see what went wrong, short enough to read


def short(value: object, size: int = 120) -> str:
    """`value` as JSON, cut to `size` characters."""
    text = json.dumps(value)
    return text if len(text) <= size else text[:size - 3] + "..."


def differences(expected: object, got: object, path: str, out: list[str]) -> None:
    """Add to `out` how `got` differs from the expected (subset) value."""
    if len(out) >= MAX_DIFFERENCES:
        return
    if isinstance(expected, Mapping):
        if not isinstance(got, Mapping):
            out.append(f"{path}: expected an object, got {short(got)}")
            return
        for key, value in expected.items():
            if key not in got:
                out.append(f"{path}.{key}: missing (expected {short(value)})")
            else:
                differences(value, got[key], f"{path}.{key}", out)
        return
    if isinstance(expected, list):
        if not isinstance(got, list) or len(got) != len(expected):
            out.append(f"{path}: expected {short(expected)}, got {short(got)}")
            return
        for i, (want, have) in enumerate(zip(expected, got, strict=True)):
            differences(want, have, f"{path}[{i}]", out)
        return
    if not _same(expected, got):
        out.append(f"{path}: expected {short(expected)}, got {short(got)}")


def _same(expected: object, got: object) -> bool:
    # In Python True == 1; in a record they are different answers.
    if isinstance(expected, bool) or isinstance(got, bool):
        return type(expected) is type(got) and expected == got
    return bool(expected == got)


def compare(record: Mapping[str, Any], returncode: int, stdout: str, stderr: str) -> list[str]:
    """How one run (exit status, stdout, stderr) differs from the record's
    expectation; empty when it matches."""
    if "expect_error" in record:
        return _compare_error(record["expect_error"], returncode, stdout, stderr)
    if returncode != 0:
        return [f"expected exit 0, got {returncode}; stderr: {short(stderr.strip(), 200)}"]
    try:
        got = json.loads(stdout)
    except ValueError:
        return [f"stdout is not JSON: {short(stdout.strip())}"]
    if not isinstance(got, dict):
        return ["stdout is not a JSON object"]
    expected = record.get("expect")
    if expected is None:
        return []
    if not isinstance(expected, Mapping):
        return ["the record's expect must be an object"]
    out: list[str] = []
    for key, value in expected.items():
        if key not in got:
            out.append(f"{key}: missing from the output")
        else:
            differences(value, got[key], key, out)
    return out


def _compare_error(want: object, returncode: int, stdout: str, stderr: str) -> list[str]:
    if not isinstance(want, Mapping):
        return ["the record's expect_error must be an object"]
    problems = []
    if returncode != 2:
        problems.append(f"expected exit 2, got {returncode}")
    if stdout.strip():
        problems.append(f"expected nothing on stdout, got {short(stdout.strip())}")
    lines = [line for line in stderr.splitlines() if line.strip()]
    if len(lines) != 1:
        problems.append(f"expected one line on stderr, got {len(lines)}: "
                        f"{short(stderr.strip())}")
    line = lines[0] if lines else ""
    event = want.get("event")
    if event is not None:
        prefix = "record:" if event == "record" else f"event {event}:"
        if not line.startswith(prefix):
            problems.append(f"expected stderr to start with {prefix!r}, got {short(line)}")
    contains = want.get("contains")
    if contains and contains not in line:
        problems.append(f"expected stderr to contain {contains!r}, got {short(line)}")
    any_of = want.get("contains_any")
    if any_of and not any(text in line for text in any_of):
        problems.append(f"expected stderr to contain one of {any_of!r}, got {short(line)}")
    return problems


def check(command: Sequence[str], path: str, timeout: float) -> list[str]:
    """Replay one record with `command`; the differences from its expectation."""
    try:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
    except (OSError, ValueError) as err:
        return [f"cannot read the record: {err}"]
    if not isinstance(record, dict):
        return ["the record is not a JSON object"]
    try:
        run = subprocess.run([*command, os.path.abspath(path)], capture_output=True, text=True,
                             timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return [f"no answer within {timeout} seconds"]
    except OSError as err:
        return [f"cannot run {' '.join(command)}: {err}"]
    return compare(record, run.returncode, run.stdout, run.stderr)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tools.check_record",
        description="Replay toep-replay/1 records and compare the result with each "
                    "record's expect or expect_error (docs/records.md).")
    parser.add_argument("records", nargs="+", metavar="RECORD.json")
    parser.add_argument("--cmd", default=None,
                        help="the replay command, run in the current directory "
                             "(default: this Python with -m engine.replay)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds allowed per record (default 60)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    command = shlex.split(args.cmd) if args.cmd else [sys.executable, "-m", "engine.replay"]
    records: list[str] = args.records
    failed = 0
    for path in records:
        problems = check(command, path, args.timeout)
        failed += bool(problems)
        if len(records) == 1:
            print("\n".join(problems) if problems else "ok")
            continue
        print(f"{'FAIL' if problems else 'ok  '} {path}")
        for problem in problems:
            print(f"     {problem}")
    if len(records) > 1:
        print(f"{len(records) - failed} ok, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
