"""`python -m engine.replay RECORD.json`: replay a game record, print the result.

Exit 0 with one JSON object on stdout; or exit 2 with nothing on stdout and
one line on stderr, `event N: ...` or `record: ...` (docs/records.md).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import TypeVar

from engine.record import ReplayError, replay_json, result

T = TypeVar("T")

USAGE = "usage: python -m engine.replay RECORD.json   (- reads standard input)"


def read_json(path: str) -> object:
    """A file's JSON (`-`: standard input); ReplayError `record:` if it cannot be read."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except (OSError, UnicodeDecodeError) as err:
        raise ReplayError(None, f"cannot read {path}: {err}") from None
    try:
        return json.loads(text)
    except ValueError as err:
        raise ReplayError(None, f"not valid JSON: {err}") from None


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr)
        return 0 if args and args[0] in ("-h", "--help") else 2
    return answer(args[0], lambda data: result(replay_json(data)))


def answer(path: str, work: Callable[[object], T],
           show: Callable[[T], str] = json.dumps) -> int:
    """Print `work`'s answer for the record at `path` (`show` makes it text,
    JSON by default) and return 0; or print its one `record:`/`event N:` line
    on stderr and return 2."""
    try:
        out = show(work(read_json(path)))
    except ReplayError as err:
        print(err.line().replace("\n", " "), file=sys.stderr)
        return 2
    except RecursionError:
        print("record: the JSON is nested too deeply", file=sys.stderr)
        return 2
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
