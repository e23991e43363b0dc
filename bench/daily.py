"""The daily duplicate (issue 28): replays, separation of strengths, a busy day.

    python bench/daily.py [--json] [--replays N] [--days D] [--entrants E]
                          [--level LEVEL]

- replays / replays_differing: (board, seat, choices) played once by a
  player (a random, easy or normal computer, as a person's choices) against
  the board's computers, then played again with exactly the same choices
  (a script of the first playing's decisions, silences included); a second
  game that differs in any event or any deal counts;
- separation: simulated days of 8 boards, a player of each known strength
  (easy, normal, hard) at the person's seat. Under duplicate scoring all
  three play the same boards and the day ranks them by matchpoints; under
  random deals each plays boards of their own and ranks by their total
  score. For each pair (stronger, weaker), how often the stronger ranks
  above (a tie counts half), and the mean over the three pairs;
- busy_day: E entrants in one guild's day on one process, through the data
  layer as the bot uses it (the day opened, each entrant's boards played,
  saved and finished, the ranking read and written out): errors, and the
  time to show the ranking.

`--level` sets the computers at the table (the daily's are hard; they take
about 0.1 s a board on one core, so the defaults take a while).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.board_play import net_score, play_board
from engine.boards import Board, board
from engine.bots import Bot, make_bot
from engine.duplicate import ranking
from engine.events import Event
from engine.views import SeatView

STRENGTHS = ("easy", "normal", "hard")
PAIRS = (("hard", "normal"), ("hard", "easy"), ("normal", "easy"))
BOARDS_A_DAY = 8
PARTS = ("replays", "separation")


class Recorder:
    """A player whose every decision (silence too) is kept, in order."""

    def __init__(self, inner: Bot) -> None:
        self.inner, self.level, self.said = inner, inner.level, list[Event | None]()

    def decide(self, view: SeatView) -> Event | None:
        choice = self.inner.decide(view)
        self.said.append(choice)
        return choice


class Script:
    """The same decisions again, in the same order."""

    level = "script"

    def __init__(self, said: list[Event | None]) -> None:
        self.said, self.at = said, 0

    def decide(self, view: SeatView) -> Event | None:
        choice = self.said[self.at]
        self.at += 1
        return choice


def same_choices(b: Board, player: Bot, level: str) -> bool:
    """Whether a second playing of the first playing's choices is the same game."""
    recorder = Recorder(player)
    first = play_board(b, recorder, level)
    second = play_board(b, Script(recorder.said), level)
    return (first.events == second.events
            and [d.to_json() for d in first.deal_log] == [d.to_json() for d in second.deal_log])


def bench_replays(count: int, level: str) -> dict[str, Any]:
    differing = 0
    start = time.perf_counter()
    for i in range(count):
        b = board(f"replay-{i // BOARDS_A_DAY}", i % BOARDS_A_DAY)
        player = make_bot(("random", "easy", "normal")[i % 3], i)
        differing += not same_choices(b, player, level)
    return {"replays": count, "replays_differing": differing,
            "replays_s": round(time.perf_counter() - start, 1)}


def _scores(boards: list[Board], strength: str, day: int, level: str) -> list[float]:
    return [float(net_score(play_board(b, make_bot(strength, day), level), b.seat))
            for b in boards]


def _above(first: float, second: float) -> float:
    return 1.0 if first > second else 0.5 if first == second else 0.0


def bench_separation(days: int, level: str) -> dict[str, Any]:
    dup = dict.fromkeys(PAIRS, 0.0)
    rand = dict.fromkeys(PAIRS, 0.0)
    for day in range(days):
        same = [board(f"day-{day}", i) for i in range(BOARDS_A_DAY)]
        averages = {r.who: r.average for r in ranking(
            {s: _scores(same, s, day, level) for s in STRENGTHS})}
        totals = {s: sum(_scores([board(f"day-{day}-{s}", i) for i in range(BOARDS_A_DAY)],
                                 s, day, level)) for s in STRENGTHS}
        for pair in PAIRS:
            dup[pair] += _above(averages[pair[0]], averages[pair[1]])
            rand[pair] += _above(totals[pair[0]], totals[pair[1]])

    def shares(wins: dict[tuple[str, str], float]) -> dict[str, float]:
        out = {f"{a}_over_{b}": round(w / days, 3) for (a, b), w in wins.items()}
        out["mean"] = round(sum(wins.values()) / days / len(wins), 3)
        return out

    return {"days": days, "boards_a_day": BOARDS_A_DAY,
            "duplicate": shares(dup), "random_deals": shares(rand)}


def _timed(name: str, run: Callable[[], dict[str, Any]], quiet: bool) -> dict[str, Any]:
    if not quiet:
        print(f"{name}...", file=sys.stderr)
    return run()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--replays", type=int, default=10_000)
    parser.add_argument("--days", type=int, default=100)
    parser.add_argument("--entrants", type=int, default=500)
    parser.add_argument("--level", default="hard", help="the computers at the table (hard)")
    parser.add_argument("--only", default=",".join(PARTS),
                        help=f"some of {','.join(PARTS)} (all)")
    args = parser.parse_args()
    parts = args.only.split(",")
    if not set(parts) <= set(PARTS):
        parser.error(f"--only takes some of {','.join(PARTS)}")
    random.seed(0)
    figures: dict[str, Any] = {"level": args.level}
    if "replays" in parts:
        figures.update(_timed("replays", lambda: bench_replays(args.replays, args.level),
                              args.json))
    if "separation" in parts:
        figures["separation"] = _timed("separation",
                                       lambda: bench_separation(args.days, args.level), args.json)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
