"""How long the hard computer player thinks, on one core.

    .venv/bin/python -m bench.bot_time [--games 20] [--json]

Plays whole games at tables of 2 to 6 players (one hard seat, the rest
normal, the table size cycling with the game) in this one process, and asks
the hard player for every decision its seat has, timing `decide` alone. It
prints the number of decisions and their median, 99th percentile and maximum,
as CPU time of this thread (what one core spends, whatever else the machine
runs) and as wall time; `--json` prints one JSON object with the same figures.
Target (issue 10): median at most 20 ms, p99 at most 100 ms.

How strong the players are is measured by the duel, for example:

    .venv/bin/python -m cli.duel --seats hard,normal,normal,normal --rounds 2400 --games 400
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import Bot, make_bot
from engine.bots.hard import HardBot
from engine.bots.runner import play_out
from engine.chance import RandomChance
from engine.events import Event
from engine.game import Game
from engine.rules import TableRules
from engine.views import SeatView

TARGET_MEDIAN_MS = 20.0
TARGET_P99_MS = 100.0


class Timed:
    """The hard player, with the CPU and wall time of every decision."""

    level = "hard"

    def __init__(self, bot: HardBot) -> None:
        self.bot = bot
        self.cpu: list[float] = []
        self.wall: list[float] = []

    def decide(self, view: SeatView) -> Event | None:
        c0, w0 = time.thread_time(), time.perf_counter()
        event = self.bot.decide(view)
        self.cpu.append((time.thread_time() - c0) * 1000.0)
        self.wall.append((time.perf_counter() - w0) * 1000.0)
        return event


def play(games: int) -> Timed:
    timed = Timed(HardBot(0))
    for g in range(games):
        n = 2 + g % 5
        game = Game(TableRules(), [f"p{i}" for i in range(n)], RandomChance(random.Random(g)))
        hard_seat = g % n
        timed.bot = HardBot(g)
        bots: dict[int, Bot] = {s: make_bot("normal", s) for s in range(n)}
        bots[hard_seat] = timed
        play_out(game, bots)
    return timed


def figures(values: list[float]) -> dict[str, float]:
    q = statistics.quantiles(values, n=100)
    return {"median": round(q[49], 3), "p99": round(q[98], 3), "max": round(max(values), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="whole games (default 20)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    start = time.perf_counter()
    timed = play(max(1, args.games))
    cpu, wall = figures(timed.cpu), figures(timed.wall)
    seconds = round(time.perf_counter() - start, 1)
    if args.json:
        print(json.dumps({"decisions": len(timed.cpu), "cpu_ms": cpu, "wall_ms": wall,
                          "target_ms": {"median": TARGET_MEDIAN_MS, "p99": TARGET_P99_MS},
                          "seconds": seconds}))
        return
    print(f"hard decisions: {len(timed.cpu)} in {args.games} games of 2-6 players "
          f"({seconds} s)")
    print(f"cpu  ms: median {cpu['median']:.1f}, p99 {cpu['p99']:.1f}, max {cpu['max']:.1f}")
    print(f"wall ms: median {wall['median']:.1f}, p99 {wall['p99']:.1f}, max {wall['max']:.1f}")
    print(f"target: median <= {TARGET_MEDIAN_MS:.0f} ms, p99 <= {TARGET_P99_MS:.0f} ms (cpu)")


if __name__ == "__main__":
    main()
