"""How strong the computer players are, and how long the hard one thinks.

    .venv/bin/python -m bench.bot_strength --level hard --vs normal --players 4 --deals 300
    .venv/bin/python -m bench.bot_strength --all --deals 300
    .venv/bin/python -m bench.bot_strength --timing --games 10

One seat of `--level` plays against the others of `--vs`. Every deal is a
fresh game from marks 0, played for one round, once with the tested seat in
each position (duplicate deals), so luck of the cards evens out. Prints the
share of rounds the tested seat won (fair share 1/players) and marks per
round for the tested seat and for the average other seat.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from engine.bots import make_bot
from engine.bots.base import Bot
from engine.bots.hard import HardBot
from engine.bots.runner import next_event
from engine.chance import RandomChance
from engine.game import Game
from engine.rules import TableRules
from engine.views import seat_view


@dataclass(frozen=True)
class Tally:
    rounds: int = 0
    wins: int = 0
    marks: int = 0
    other_marks: float = 0.0

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.rounds + other.rounds, self.wins + other.wins,
                     self.marks + other.marks, self.other_marks + other.other_marks)


def one_round(level: str, vs: str, players: int, deal: int, seat: int) -> Tally:
    game = Game(TableRules(), [f"p{i}" for i in range(players)],
                RandomChance(random.Random(deal)), first_leader=deal % players)
    bots: dict[int, Bot] = {s: make_bot(level if s == seat else vs, deal * 31 + s)
                            for s in range(players)}
    while not game.rounds and not game.over:
        game.apply(next_event(game, bots))
    summary = game.rounds[0]
    others = [summary.marks[s] for s in range(players) if s != seat]
    return Tally(1, int(summary.winner == seat), summary.marks[seat],
                 sum(others) / len(others))


def _chunk(args: tuple[str, str, int, int, int]) -> Tally:
    level, vs, players, first, count = args
    total = Tally()
    for deal in range(first, first + count):
        for seat in range(players):
            total = total + one_round(level, vs, players, deal, seat)
    return total


def strength(level: str, vs: str, players: int, deals: int, workers: int) -> Tally:
    size = max(1, deals // (workers * 4))
    jobs = [(level, vs, players, first, min(size, deals - first))
            for first in range(0, deals, size)]
    with ProcessPoolExecutor(workers) as pool:
        parts = list(pool.map(_chunk, jobs))
    total = Tally()
    for part in parts:
        total = total + part
    return total


def report(level: str, vs: str, players: int, deals: int, workers: int) -> None:
    start = time.perf_counter()
    t = strength(level, vs, players, deals, workers)
    print(f"{level:>6} vs {players - 1}x {vs:<6} {t.rounds:5d} rounds: "
          f"wins {t.wins / t.rounds:6.1%} (fair {1 / players:.0%}), "
          f"marks/round {t.marks / t.rounds:.3f} vs others {t.other_marks / t.rounds:.3f} "
          f"[{time.perf_counter() - start:.0f} s]", flush=True)


def timing(games: int, samples: int | None) -> None:
    """Decision times of the hard player on tables of 2-6 normal players."""
    times: list[float] = []
    for g in range(games):
        n = 2 + g % 5
        game = Game(TableRules(), [f"p{i}" for i in range(n)], RandomChance(random.Random(g)))
        bots: dict[int, Bot] = {s: make_bot("normal", s) for s in range(n)}
        hard = HardBot(g) if samples is None else HardBot(g, samples)
        while not game.over:
            for seat in game.waiting().seats:
                view = seat_view(game, seat)
                t0 = time.perf_counter()
                hard.decide(view)
                times.append(time.perf_counter() - t0)
            game.apply(next_event(game, bots))
    times.sort()
    q = statistics.quantiles(times, n=100)
    print(f"hard decisions: {len(times)}, median {q[49] * 1000:.1f} ms, "
          f"p99 {q[98] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--vs", default="normal")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--all", action="store_true", help="the issue's targets")
    parser.add_argument("--timing", action="store_true")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--samples", type=int, default=None)
    args = parser.parse_args()
    if args.timing:
        timing(args.games, args.samples)
        return
    if args.all:
        for level, vs, players in [("hard", "normal", 4), ("normal", "easy", 4),
                                   ("hard", "normal", 2), ("easy", "random", 4),
                                   ("normal", "random", 4), ("hard", "random", 4)]:
            report(level, vs, players, args.deals, args.workers)
        return
    report(args.level, args.vs, args.players, args.deals, args.workers)


if __name__ == "__main__":
    main()
