"""`python -m cli.duel`: computer levels against each other.

    python -m cli.duel --seats hard,normal,normal,normal --rounds 4000 --seed 1
    python -m cli.duel --seats random,random,random --rounds 300 --games 20 --json

Rounds: duplicate deals (see cli/duel_play.py). `--rounds` counts rounds in
all, deals × rotations; it is rounded up to whole deals (the number of seats
rotations each) and the output gives the rounds actually played. A round is a
fresh game played until its first round ends. The 95% intervals of the round
figures are taken over deals: a deal with all its rotations is one sample.

Games: `--games` whole games (default 40; 0 skips them), the seating rotated
by one seat from game to game. "games_won" is the share of all games won by a
seat of that level (so with three seats of one level its fair share is 3/n),
with a 95% Wilson score interval.

Decision time: every bot decision, median and 99th percentile in ms.

`--compare A:B` (or A:B,C,...): seat 0 as A and again as each B, on two
yardsticks (see cli/duel_compare.py): the first rounds of fresh games, where
nobody has a record yet, and whole games, where the others see seat 0's habits
over the rounds as at a live table. Its JSON holds "a", "b" and "b_minus_a"
(for several Bs, a list "comparisons" of those).

`--json` prints one JSON object:
{"rounds": R, "deals": D, "games": G, "seats": [...], "levels": {LEVEL: {"round_share":
[value, low, high], "marks_per_round": [...], "games_won": [...], "decision_ms": {"median":
m, "p99": p}}}}. A figure that was not measured (0 rounds, 0 games) is null; so are
the bounds of an interval from one deal. Bad arguments: one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NoReturn, TextIO, TypeVar

from cli.cli_args import UsageError, table_rules
from cli.duel_compare import compare_all, comparison_json, write_comparison
from cli.duel_play import DealResult, DuelSetup, GameResult, play_deal, play_game, run_all
from cli.duel_stats import Interval, mean_interval, percentile, wilson_interval
from cli.seats import DUEL_SEATS

T = TypeVar("T")

DEFAULT_ROUNDS = 1000
DEFAULT_GAMES = 40


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


@dataclass(frozen=True)
class DuelArgs:
    setup: DuelSetup
    rounds: int
    games: int
    json: bool
    workers: int
    compare: tuple[str, tuple[str, ...]] | None = None  # A, and every B

    @property
    def deals(self) -> int:
        n = self.setup.seats
        return -(-self.rounds // n)  # whole deals, rounded up


@dataclass(frozen=True)
class LevelSummary:
    seats: int
    round_share: Interval | None
    marks_per_round: Interval | None
    marks_vs_others: Interval | None  # its marks per round less the other seats'
    games_won: Interval | None
    decision_median: float | None
    decision_p99: float | None


def _parser() -> _Parser:
    p = _Parser(prog="python -m cli.duel", description="Computer levels against each other.")
    p.add_argument("--seats", required=True,
                   help="comma-separated player per seat, 2-8 seats (with --compare: the "
                        f"seats after seat 0, 1-7); players: {', '.join(DUEL_SEATS)}")
    p.add_argument("--compare", metavar="A:B[,B2...]", default=None,
                   help="seat 0 plays as A, then as B, on the same deals and games; "
                        "prints B's gain over A, on first rounds of fresh games (--rounds: "
                        "nobody has a record yet) and over whole games (--games: the others "
                        "see seat 0's habits as at a live table). Several Bs share A's play")
    p.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS,
                   help=f"rounds in all, deals x rotations (default {DEFAULT_ROUNDS})")
    p.add_argument("--games", type=int, default=DEFAULT_GAMES,
                   help=f"whole games (default {DEFAULT_GAMES}; 0 skips them)")
    p.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    p.add_argument("--rules", default="{}", help='table options as JSON, e.g. \'{"limit": 10}\'')
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--workers", type=int, default=1,
                   help="processes to spread deals and games over (default 1)")
    return p


def check_seat(name: str) -> None:
    if name not in DUEL_SEATS:
        raise UsageError(f"unknown player {name!r}: choose from {', '.join(DUEL_SEATS)}")


def parse_levels(text: str, first: int = 0) -> tuple[str, ...]:
    """The --seats list; `first` seats (the compared seat) come before it."""
    entries = tuple(part.strip() for part in text.split(","))
    if not 2 <= len(entries) + first <= 8:
        raise UsageError(f"--seats needs {2 - first} to {8 - first} players, got {len(entries)}")
    for level in dict.fromkeys(entries):
        check_seat(level)
    return entries


def parse_compare(text: str | None) -> tuple[str, tuple[str, ...]] | None:
    if text is None:
        return None
    a, sep, b = text.partition(":")
    bs = tuple(part.strip() for part in b.split(","))
    if not sep or not a.strip() or not all(bs):
        raise UsageError(f"--compare needs two players as A:B (or A:B,B2,...), got {text!r}")
    for name in (a.strip(), *bs):
        check_seat(name)
    return a.strip(), bs


def parse_args(argv: Sequence[str]) -> DuelArgs:
    ns = _parser().parse_args(list(argv))
    compare = parse_compare(ns.compare)
    entries = parse_levels(ns.seats, 0 if compare is None else 1)
    if compare is not None:
        entries = (compare[0], *entries)
    if ns.rounds < 0 or ns.games < 0:
        raise UsageError("--rounds and --games may not be negative")
    if ns.rounds == 0 and ns.games == 0:
        raise UsageError("nothing to play: --rounds and --games are both 0")
    if ns.workers < 1:
        raise UsageError("--workers must be at least 1")
    setup = DuelSetup(entries, table_rules(ns.rules, {}, len(entries)), ns.seed)
    return DuelArgs(setup, ns.rounds, ns.games, ns.json, ns.workers, compare)


def summarize(entries: Sequence[str], deals: Sequence[DealResult],
              games: Sequence[GameResult]) -> dict[str, LevelSummary]:
    """Per level, in the order of first appearance in the seat list."""
    out: dict[str, LevelSummary] = {}
    for level in dict.fromkeys(entries):
        times = [t for r in _timed(deals, games) for t in r.get(level, ())]
        out[level] = LevelSummary(
            seats=entries.count(level),
            round_share=_over_deals(deals, level, lambda d: d.wins),
            marks_per_round=_over_deals(deals, level, lambda d: d.marks),
            marks_vs_others=_vs_others(deals, level),
            games_won=_games_won(games, level),
            decision_median=percentile(times, 50) if times else None,
            decision_p99=percentile(times, 99) if times else None,
        )
    return out


def _timed(deals: Sequence[DealResult],
           games: Sequence[GameResult]) -> Iterable[dict[str, list[float]]]:
    yield from (d.times for d in deals)
    yield from (g.times for g in games)


def _over_deals(deals: Sequence[DealResult], level: str,
                counts: Callable[[DealResult], Counter[str]]) -> Interval | None:
    """One sample per deal: the level's count per seat-round in that deal."""
    if not deals:
        return None
    return mean_interval([counts(d)[level] / d.seat_rounds[level] for d in deals])


def _vs_others(deals: Sequence[DealResult], level: str) -> Interval | None:
    """Per deal: the level's marks per seat-round less the other seats'."""
    samples = []
    for d in deals:
        rest = sum(d.seat_rounds.values()) - d.seat_rounds[level]
        if rest <= 0:
            return None
        rest_marks = sum(d.marks.values()) - d.marks[level]
        samples.append(d.marks[level] / d.seat_rounds[level] - rest_marks / rest)
    return mean_interval(samples) if samples else None


def _games_won(games: Sequence[GameResult], level: str) -> Interval | None:
    if not games:
        return None
    return wilson_interval(sum(g.winner == level for g in games), len(games))


def _head_json(args: DuelArgs) -> dict[str, object]:
    return {
        "rounds": args.deals * args.setup.seats,
        "deals": args.deals,
        "games": args.games,
        "seats": list(args.setup.entries),
    }


def to_json(args: DuelArgs, summary: dict[str, LevelSummary]) -> dict[str, object]:
    return {**_head_json(args),
            "levels": {level: _level_json(s) for level, s in summary.items()}}


def _level_json(s: LevelSummary) -> dict[str, object]:
    return {
        "round_share": None if s.round_share is None else s.round_share.to_json(),
        "marks_per_round": None if s.marks_per_round is None else s.marks_per_round.to_json(),
        "marks_vs_others": None if s.marks_vs_others is None else s.marks_vs_others.to_json(),
        "games_won": None if s.games_won is None else s.games_won.to_json(),
        "decision_ms": {"median": _ms(s.decision_median), "p99": _ms(s.decision_p99)},
    }


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _pct(i: Interval | None) -> str:
    if i is None:
        return "-"
    if i.low is None or i.high is None:
        return f"{100 * i.value:5.1f}%"
    return f"{100 * i.value:5.1f}% [{100 * i.low:5.1f}, {100 * i.high:5.1f}]"


def _num(i: Interval | None, sign: bool = False) -> str:
    if i is None:
        return "-"
    f = "+5.2f" if sign else "5.2f"
    if i.low is None or i.high is None:
        return f"{i.value:{f}}"
    return f"{i.value:{f}} [{i.low:{f}}, {i.high:{f}}]"


def _time(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _write_head(args: DuelArgs, out: TextIO) -> None:
    setup = args.setup
    n = setup.seats
    rounds = args.deals * n
    if args.compare is None:
        print(f"Toep duel: {', '.join(setup.entries)}  (seed {setup.seed})", file=out)
    else:
        a, bs = args.compare
        print(f"Toep duel: seat 0 as {a}, then as {', '.join(bs)}, against "
              f"{', '.join(setup.entries[1:])}  (seed {setup.seed})", file=out)
    print(f"{rounds} rounds = {args.deals} duplicate deals x {n} rotations; "
          f"{args.games} whole games, seats rotated", file=out)
    if args.compare is None:
        print("95% intervals: rounds over deals (mean ± 1.96·sd/√deals), games Wilson score",
              file=out)
    else:
        print("95% intervals: first rounds over deals, whole games over games "
              "(mean ± 1.96·sd/√k); a side's games won: Wilson score", file=out)
    print(f"a fair share of rounds is {100 / n:.1f}% per seat; of games, seats/{n}", file=out)


def write_text(args: DuelArgs, summary: dict[str, LevelSummary], out: TextIO) -> None:
    _write_head(args, out)
    header = (f"{'player':<11} {'seats':>5}  {'marks/round':<21} {'less the others':<23} "
              f"{'games won':<23} {'rounds won':<23} {'ms median':>9} {'ms p99':>9}")
    print(header, file=out)
    for level, s in summary.items():
        print(f"{level:<11} {s.seats:>5}  {_num(s.marks_per_round):<21} "
              f"{_num(s.marks_vs_others, True):<23} {_pct(s.games_won):<23} "
              f"{_pct(s.round_share):<23} {_time(s.decision_median):>9} "
              f"{_time(s.decision_p99):>9}", file=out)


def run(args: DuelArgs) -> dict[str, LevelSummary]:
    setup = args.setup
    deals = run_all(play_deal, setup, args.deals, args.workers)
    games = run_all(play_game, setup, args.games, args.workers)
    return summarize(setup.entries, deals, games)


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    out = sys.stdout if stdout is None else stdout
    err = sys.stderr if stderr is None else stderr
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
    except UsageError as problem:
        print(f"duel: error: {problem}".replace("\n", " "), file=err)
        return 2
    if args.compare is not None:
        results = compare_all(args.setup, args.compare[1], args.deals, args.games,
                              args.workers)
        if args.json:
            body: dict[str, object] = (comparison_json(results[0]) if len(results) == 1 else
                                       {"comparisons": [comparison_json(r) for r in results]})
            print(json.dumps({**_head_json(args), **body}), file=out)
        else:
            _write_head(args, out)
            for result in results:
                write_comparison(result, out)
        return 0
    summary = run(args)
    if args.json:
        print(json.dumps(to_json(args, summary)), file=out)
    else:
        write_text(args, summary, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
