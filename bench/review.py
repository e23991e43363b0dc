"""How well and how fast the review judges (issue 27).

    .venv/bin/python -m bench.review [--games 6] [--seeds 5] [--planted 20] [--json]

On recorded games of four hard players of 30-40 rounds (seat g % 4 of game g
reviewed), it prints: the time to review one seat's whole game (median, as
wall and CPU time of this one process; goal: median at most 10 s), the share
of decisions answered exactly, the share whose verdict is the same under
`--seeds` seeds (goal: at least 95%), and the share of the hard player's own
decisions called mistake or worse (goal: at most 5%), also per kind of
decision (`kinds`). Then, on games where
seat 0 folds a sure winner in the last trick (bench/review_games.py), the
share of those planted blunders called blunder (goal: 100%). Also the marks
lost per decision by level (hard, normal, easy, random at one table), the
data behind the thresholds in docs/review.md. `--json` prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.review_games import PLAYERS, long_games, planted_game
from engine import events as ev
from engine.bots import make_bot
from engine.bots.runner import play_out
from engine.chance import RandomChance
from engine.game import Game
from engine.record import to_record
from engine.review import review_record
from engine.review_judge import SAMPLES, Judgement, judge
from engine.review_moments import decisions
from engine.review_verdict import THRESHOLDS
from engine.rules import TableRules

GOALS = {"median_s": 10.0, "agreement": 0.95, "hard_mistakes": 0.05, "planted_caught": 1.0}
LEVELS = ("hard", "normal", "easy", "random")


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def kind_of(j: Judgement) -> str:
    """What a decision is about, for the figures per kind."""
    do = j.chosen.do
    if do in (ev.PLAY, ev.TOEP):
        return "card or toep"
    return {ev.CALL: "call or fold", ev.FOLD: "call or fold", ev.PLAY_IN: "dead man's choice",
            ev.SIT_OUT: "dead man's choice", ev.CLOSE_WINDOW: "vuile was or pass",
            ev.VUILE_WAS: "vuile was or pass", ev.CHECK: "check or believe",
            ev.BELIEVE: "check or believe", ev.SUPER_YES: "super toep answer",
            ev.SUPER_NO: "super toep answer"}.get(do, do)


def long_figures(games: int, seeds: int, samples: int) -> dict[str, Any]:
    wall: list[float] = []
    cpu: list[float] = []
    rounds: list[int] = []
    decided = exact = agree = bad = 0
    kinds: dict[str, Counter[str]] = {}
    for g, (_, record, played) in enumerate(long_games(games)):
        seat = g % PLAYERS
        runs: list[list[Judgement]] = []
        for seed in range(seeds):
            w0, c0 = time.perf_counter(), time.process_time()
            runs.append(review_record(record, [seat], seed, samples))
            wall.append(time.perf_counter() - w0)
            cpu.append(time.process_time() - c0)
        rounds.append(played)
        decided += len(runs[0])
        exact += sum(j.exact for j in runs[0])
        agree += sum(len({run[i].verdict for run in runs}) == 1 for i in range(len(runs[0])))
        bad += sum(j.verdict in ("mistake", "blunder") for j in runs[0])
        for i, j in enumerate(runs[0]):
            row = kinds.setdefault(kind_of(j), Counter())
            row["decisions"] += 1
            row["same_verdict"] += len({run[i].verdict for run in runs}) == 1
            row["mistake_or_worse"] += j.verdict in ("mistake", "blunder")
    return {
        "games": games, "rounds": rounds, "decisions": decided, "samples": samples,
        "review_s": {"median": round(statistics.median(wall), 2), "max": round(max(wall), 2),
                     "cpu_median": round(statistics.median(cpu), 2)},
        "exact": _share(exact, decided),
        "agreement": _share(agree, decided), "seeds": seeds,
        "hard_mistakes": _share(bad, decided),
        "kinds": {kind: dict(row) for kind, row in sorted(kinds.items())},
    }


def planted_figures(wanted: int, samples: int, max_games: int = 400) -> dict[str, Any]:
    caught = found = 0
    verdicts: Counter[str] = Counter()
    seed = 0
    while found < wanted and seed < max_games:
        record, planted = planted_game(seed)
        seed += 1
        for decision in decisions(record, [0]):
            if decision.index in planted:
                j = judge(decision, 0, samples)
                found += 1
                caught += j.verdict == "blunder"
                verdicts[j.verdict] += 1
    return {"games": seed, "planted": found, "caught": _share(caught, found),
            "verdicts": dict(verdicts)}


def level_figures(games: int, samples: int) -> dict[str, Any]:
    """Marks lost per decision by level: mean, and the share past each threshold."""
    lost: dict[str, list[float]] = {level: [] for level in LEVELS}
    for g in range(games):
        levels = LEVELS[g % 4:] + LEVELS[:g % 4]
        game = Game(TableRules(), [f"p{i}" for i in range(4)], RandomChance(random.Random(g)))
        play_out(game, {s: make_bot(level, 1000 + g * 10 + s) for s, level in enumerate(levels)})
        for j in review_record(to_record(game, g), None, 0, samples):
            lost[levels[j.seat]].append(j.lost)
    out: dict[str, Any] = {}
    for level, values in lost.items():
        n = len(values)
        row: dict[str, Any] = {"decisions": n,
                               "mean_lost": round(statistics.fmean(values), 3) if n else None}
        for name, threshold in THRESHOLDS:
            row[f"lost_{name}_or_more"] = _share(sum(v >= threshold for v in values), n)
        out[level] = row
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=6, help="long games (default 6)")
    parser.add_argument("--seeds", type=int, default=5, help="review seeds per game (default 5)")
    parser.add_argument("--planted", type=int, default=20,
                        help="planted blunders to find (default 20)")
    parser.add_argument("--level-games", type=int, default=4,
                        help="games of mixed levels for the loss figures (default 4)")
    parser.add_argument("--samples", type=int, default=SAMPLES, help="worlds per decision")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    start = time.perf_counter()
    out: dict[str, Any] = {
        "long": long_figures(max(1, args.games), max(1, args.seeds), args.samples),
        "planted": planted_figures(args.planted, args.samples),
        "levels": level_figures(args.level_games, args.samples),
        "goals": GOALS,
        "command": " ".join(["python -m bench.review", *sys.argv[1:]]),
    }
    out["seconds"] = int(time.perf_counter() - start)
    if args.json:
        print(json.dumps(out))
        return
    long, planted = out["long"], out["planted"]
    print(f"{long['games']} games of {PLAYERS} hard players, rounds {long['rounds']}, "
          f"{long['decisions']} decisions of the reviewed seats, {long['samples']} worlds each")
    print(f"review of one seat's game: median {long['review_s']['median']} s "
          f"(cpu {long['review_s']['cpu_median']} s), max {long['review_s']['max']} s; "
          f"goal <= {GOALS['median_s']} s")
    print(f"exact: {long['exact']}; same verdict under {long['seeds']} seeds: "
          f"{long['agreement']} (goal >= {GOALS['agreement']})")
    print(f"hard player's decisions called mistake or worse: {long['hard_mistakes']} "
          f"(goal <= {GOALS['hard_mistakes']})")
    for kind, row in long["kinds"].items():
        print(f"  {kind}: {row}")
    print(f"planted blunders: {planted['planted']} in {planted['games']} games, called "
          f"blunder: {planted['caught']} (goal {GOALS['planted_caught']}), {planted['verdicts']}")
    for level, row in out["levels"].items():
        print(f"{level:>7}: {row}")
    print(f"({out['seconds']} s: {out['command']})")


if __name__ == "__main__":
    main()
