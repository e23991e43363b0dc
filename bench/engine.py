"""Engine speed, on one core.

    python bench/engine.py [--json] [--seconds S]

- replay_events_per_s: events per second when replaying long records (JSON
  already parsed; parsing the events and deals is included);
- random_rounds_per_s: whole random-legal 4-player rounds per second, every
  event drawn uniformly from all legal events (toeps, folds and vuile was
  included), legal-event listing and the draw included;
- replay_40_rounds_ms: the median time to replay a 40-round game record.

Targets (issue 2): 50,000 events/s; 5,000 rounds/s; under 30 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.chance import RandomChance
from engine.game import Game
from engine.record import load_record, replay, to_record
from engine.rules import TableRules

PLAYERS = ["p0", "p1", "p2", "p3"]
LONG = TableRules(limit=30, dead_man=True)


def random_game(seed: int, rules: TableRules, max_rounds: int | None = None) -> Game:
    rng = random.Random(seed)
    game = Game(rules, PLAYERS, RandomChance(random.Random(seed)))
    while not game.over and (max_rounds is None or len(game.rounds) < max_rounds):
        legal = game.legal_events()
        game.apply(legal[int(rng.random() * len(legal))])
    return game


def bench_replay(seconds: float) -> float:
    records = [to_record(random_game(seed, LONG), seed) for seed in range(20)]
    events = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for record in records:
            events += len(replay(load_record(record)).events)
    return events / (time.perf_counter() - start)


def bench_random_rounds(seconds: float) -> float:
    rng = random.Random(1)
    rounds = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        seed += 1
        game = Game(LONG, PLAYERS, RandomChance(random.Random(seed)))
        for _ in range(200_000):
            if game.over:
                break
            legal = game.legal_events()
            game.apply(legal[int(rng.random() * len(legal))])
        rounds += len(game.rounds)
    return rounds / (time.perf_counter() - start)


def calm_game(seed: int, rounds: int) -> Game:
    """A long game: random, but mostly cards; a toep, call or vuile was now and then."""
    rng = random.Random(seed)
    game = Game(TableRules(limit=30), PLAYERS, RandomChance(random.Random(seed)))
    while not game.over and len(game.rounds) < rounds:
        legal = game.legal_events()
        calm = [e for e in legal if e.do in ("play", "call", "believe", "close_window",
                                              "play_in", "super_no")]
        pool = legal if not calm or rng.random() < 0.04 else calm
        game.apply(pool[rng.randrange(len(pool))])
    return game


def forty_round_record() -> dict[str, Any]:
    for seed in range(1000):
        game = calm_game(seed, 40)
        if len(game.rounds) == 40:
            return to_record(game, seed)
    raise RuntimeError("no 40-round game found")


def bench_replay_40(repeats: int = 30) -> float:
    record = forty_round_record()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        game = replay(load_record(record))
        times.append(time.perf_counter() - start)
        assert len(game.rounds) == 40
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    figures = {
        "replay_events_per_s": round(bench_replay(args.seconds)),
        "random_rounds_per_s": round(bench_random_rounds(args.seconds)),
        "replay_40_rounds_ms": round(bench_replay_40(), 2),
    }
    if args.json:
        print(json.dumps(figures))
        return
    print(f"replay:        {figures['replay_events_per_s']:>10,} events/s   (target 50,000)")
    print(f"random rounds: {figures['random_rounds_per_s']:>10,} rounds/s   (target 5,000)")
    print(f"40-round game: {figures['replay_40_rounds_ms']:>10} ms replay  (target < 30)")


if __name__ == "__main__":
    main()
