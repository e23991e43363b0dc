"""How strong the computer players are: the table in docs/strength.md.

    .venv/bin/python -m bench.strength --rounds 2400 --games 400 --workers 2 \\
        --write docs/strength.md

Every figure comes from the duel's own code (`cli.duel`, `cli.duel_compare`),
on duplicate deals (rounds) and whole games, all from `--seed`:

- heads-up: each pair of `easy`, `normal`, `hard` and `yardstick` at a table
  of two, both players' marks per round and share of games won;
- one against three: each of them alone at a table of four against three of
  another, both ways, the lone seat's marks per round and share of games;
- exploiters: `--compare LEVEL:HABIT,...` against three seats of the level,
  for every scripted habit (`cli.scripted`), the marks per round the habit
  saves (first rounds of fresh games, and whole games), with paired intervals;
- what weighing its guesses buys `hard`: `--compare hard-uniform:hard`
  against one yardstick and against three, and what each part of that
  evidence adds to toeps, calls and cards (see `cli.seats`).

It prints the figures and how long it took; `--json` prints one JSON object
instead; `--write FILE` also writes the finished document (see
`bench/strength_doc.py`). About +-0.05 marks per round takes some 2,400
rounds per table and 400 games; that is hours on one core, so use `--workers`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.strength_doc import FULL_GAMES, FULL_ROUNDS, document, text_report
from cli.cli_args import table_rules
from cli.duel import DuelArgs, run, to_json
from cli.duel_compare import compare_all, comparison_json
from cli.duel_play import DuelSetup
from cli.scripted import HABITS

LEVELS = ("easy", "normal", "hard")
PLAYERS = (*LEVELS, "yardstick")
DEFAULT_ROUNDS = FULL_ROUNDS
DEFAULT_GAMES = FULL_GAMES


@dataclass(frozen=True)
class Sizes:
    rounds: int
    games: int
    workers: int
    seed: int


Progress = Callable[[str], None]


def duel(entries: Sequence[str], sizes: Sizes) -> dict[str, object]:
    """One duel (`python -m cli.duel --seats ...`), as its JSON object."""
    setup = DuelSetup(tuple(entries), table_rules("{}", {}, len(entries)), sizes.seed)
    args = DuelArgs(setup, sizes.rounds, sizes.games, True, sizes.workers)
    return to_json(args, run(args))


def exploits(level: str, habits: Sequence[str], sizes: Sizes) -> dict[str, object]:
    """`python -m cli.duel --compare LEVEL:HABIT,... --seats LEVEL,LEVEL,LEVEL`."""
    entries = (level, level, level, level)
    setup = DuelSetup(entries, table_rules("{}", {}, 4), sizes.seed)
    deals = -(-sizes.rounds // 4)
    results = compare_all(setup, tuple(habits), deals, sizes.games, sizes.workers)
    return {"level": level, "seats": list(entries),
            "comparisons": [comparison_json(r) for r in results]}


PARTS = ("hard-folds", "hard-passes", "hard-window", "hard-all")


def paired(a: str, bs: Sequence[str], others: Sequence[str], sizes: Sizes,
           games: int) -> dict[str, object]:
    """`python -m cli.duel --compare A:B,... --seats OTHERS`, as JSON."""
    entries = (a, *others)
    setup = DuelSetup(entries, table_rules("{}", {}, len(entries)), sizes.seed)
    deals = -(-sizes.rounds // len(entries))
    results = compare_all(setup, tuple(bs), deals, games, sizes.workers)
    return {"seats": list(entries), "comparisons": [comparison_json(r) for r in results]}


def weighing(sizes: Sizes) -> list[dict[str, object]]:
    """What weighing the guesses by the others' actions buys `hard`:
    `--compare hard-uniform:hard` against one yardstick and against three;
    then each part of the evidence on top of toeps, calls and cards,
    `--compare hard-signals:hard-folds,...` against three yardsticks and
    three normal players, on first rounds (see `cli.seats`)."""
    out = [paired("hard-uniform", ("hard",), others, sizes, sizes.games)
           for others in (("yardstick",), ("yardstick",) * 3)]
    out += [paired("hard-signals", PARTS, (other,) * 3, sizes, 0)
            for other in ("yardstick", "normal")]
    return out


def pairs(players: Sequence[str]) -> list[tuple[str, str]]:
    return [(a, b) for i, a in enumerate(players) for b in players[i + 1:]]


def measure(sizes: Sizes, progress: Progress, players: Sequence[str] = PLAYERS,
            habits: Sequence[str] = tuple(HABITS), weigh: bool = True) -> dict[str, object]:
    """Every table of the document, with the sizes and the time it took
    (fewer `players` and `habits` for a quick look; the document has all)."""
    start = time.perf_counter()
    levels = [p for p in players if p in LEVELS]
    heads_up = []
    for a, b in pairs(players):
        progress(f"heads-up {a} - {b}")
        heads_up.append(duel((a, b), sizes))
    one_vs_three = []
    for a, b in pairs(players):
        for lone, other in ((a, b), (b, a)):
            progress(f"one {lone} against three {other}")
            one_vs_three.append(duel((lone, other, other, other), sizes))
    exploited = []
    for level in levels:
        progress(f"exploiters against three {level}")
        exploited.append(exploits(level, habits, sizes))
    if weigh:
        progress("hard against hard-uniform")
    weighed = weighing(sizes) if weigh else []
    return {"players": list(players), "levels": levels, "rounds": sizes.rounds,
            "games": sizes.games, "seed": sizes.seed, "workers": sizes.workers,
            "commit": commit(), "date": today(),
            "seconds": round(time.perf_counter() - start, 1),
            "heads_up": heads_up, "one_vs_three": one_vs_three, "exploiters": exploited,
            "weighing": weighed}


def commit() -> str:
    """The commit measured (with "+changes" when the tree differs from it)."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, check=True,
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=root, check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+changes" if dirty.strip() else "")


def today() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bench.strength", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS,
                   help=f"rounds per table, duplicate deals x seats (default {DEFAULT_ROUNDS})")
    p.add_argument("--games", type=int, default=DEFAULT_GAMES,
                   help=f"whole games per table (default {DEFAULT_GAMES})")
    p.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    p.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--write", metavar="FILE", default=None,
                   help="write the document (docs/strength.md) to FILE")
    return p


def parse_sizes(argv: Sequence[str]) -> tuple[Sizes, argparse.Namespace]:
    p = _parser()
    ns = p.parse_args(list(argv))
    if ns.rounds < 1 or ns.games < 1:
        p.error("--rounds and --games must be at least 1: every table needs both")
    if ns.workers < 1:
        p.error("--workers must be at least 1")
    return Sizes(ns.rounds, ns.games, ns.workers, ns.seed), ns


def main(argv: Sequence[str] | None = None) -> int:
    sizes, ns = parse_sizes(sys.argv[1:] if argv is None else argv)
    quiet = ns.json
    figures = measure(sizes, (lambda _: None) if quiet else
                      (lambda what: print(f"... {what}", file=sys.stderr, flush=True)))
    if ns.write is not None:
        Path(ns.write).write_text(document(figures), encoding="utf-8")
    if ns.json:
        print(json.dumps(figures))
    else:
        print(text_report(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
