"""Time the leaderboard and stats queries on a guild with many finished games.

    python bench/data_queries.py [--games 10000] [--players 200] [--calls 200] [--json]

Fills a temporary database with N finished four-player games in one guild,
through the data package's own functions (create, start, events, finish with
ratings), then times each query many times and prints median and p99.
Target: under 100 ms each. Figures only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from data.db import Database, connect
from data.games import Seat, SeatResult, append_events, create_game, start_game
from data.history import list_history, load_finished
from data.leaderboard import leaderboard, leaderboard_count
from data.stats import StatsDelta, finish_game, player_stats

log = logging.getLogger(__name__)

GUILD = 1
TARGET_MS = 100.0
START = datetime(2025, 1, 1, tzinfo=UTC)
DEAL = {"hands": [["7C", "8D", "9D", "AC"]] * 4, "stock": ["10C"] * 16}
EVENTS_PER_GAME = 60  # a few rounds' worth, in one append to keep the fill short


async def fill(db: Database, games: int, players: int, rng: random.Random) -> None:
    for number in range(games):
        users = rng.sample(range(1, players + 1), 4)
        now = START + timedelta(minutes=10 * number)
        game = await create_game(
            db,
            guild_id=GUILD,
            channel_id=2 + number,  # one open table per channel
            host_id=users[0],
            public=True,
            rules={"limit": 15},
            seed=number,
            now=now,
        )
        seats = [Seat(i, f"player {user}", user_id=user) for i, user in enumerate(users)]
        await start_game(db, game.id, seats=seats, first_leader=0, now=now, deals=[DEAL])
        events = [{"seat": i % 4, "do": "play", "card": "7C"} for i in range(EVENTS_PER_GAME)]
        await append_events(db, game.id, 0, events)
        places = rng.sample([1, 2, 3, 4], 4)
        results = [
            SeatResult(i, 0 if p == 1 else rng.randint(5, 15), p) for i, p in enumerate(places)
        ]
        deltas = {
            user: StatsDelta(
                games=1,
                wins=int(p == 1),
                rounds=12,
                rounds_won=rng.randint(0, 6),
                marks=results[i].marks,
                toeps=rng.randint(0, 5),
            )
            for i, (user, p) in enumerate(zip(users, places, strict=True))
        }
        await finish_game(db, game.id, results, deltas, True, now + timedelta(minutes=9))


async def timed(call: Callable[[], Awaitable[Any]], calls: int) -> dict[str, float]:
    for _ in range(5):  # warm the page cache and statement cache
        await call()
    samples: list[float] = []
    for _ in range(calls):
        started = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return {"median_ms": statistics.median(samples), "p99_ms": p99, "calls": calls}


async def run(games: int, players: int, calls: int) -> dict[str, Any]:
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        db = await connect(path)
        started = time.perf_counter()
        await fill(db, games, players, rng)
        fill_seconds = time.perf_counter() - started
        busiest = await busiest_user(db)
        queries: dict[str, Callable[[], Awaitable[Any]]] = {
            "leaderboard_page_1": lambda: leaderboard(db, GUILD, min_games=5, limit=10),
            "leaderboard_page_10": lambda: leaderboard(db, GUILD, min_games=5, limit=10, offset=90),
            "leaderboard_count": lambda: leaderboard_count(db, GUILD, min_games=5),
            "player_stats": lambda: player_stats(db, GUILD, busiest, min_games=5),
            "history_busiest_user": lambda: list_history(db, GUILD, busiest, limit=10),
            "history_page_20": lambda: list_history(db, GUILD, busiest, limit=10, offset=190),
            "load_finished_game": lambda: load_finished(db, games // 2 or 1),
        }
        figures = {name: await timed(call, calls) for name, call in queries.items()}
        await db.close()
        size = sum(f.stat().st_size for f in Path(folder).iterdir())
    worst = max(f["p99_ms"] for f in figures.values())
    return {
        "games": games,
        "players": players,
        "fill_seconds": round(fill_seconds, 1),
        "database_bytes": size,
        "queries": figures,
        "target_ms": TARGET_MS,
        "all_under_target": worst < TARGET_MS,
    }


async def busiest_user(db: Database) -> int:
    async with db.read() as conn:
        rows = list(
            await conn.execute_fetchall(
                "SELECT user_id FROM player_stats WHERE guild_id = ? ORDER BY games DESC LIMIT 1",
                (GUILD,),
            )
        )
    return int(rows[0][0])


def report(result: dict[str, Any]) -> None:
    print(
        f"{result['games']} finished 4-player games, {result['players']} players, "
        f"filled in {result['fill_seconds']} s, database {result['database_bytes'] / 1e6:.1f} MB"
    )
    for name, figures in result["queries"].items():
        print(
            f"  {name:22} median {figures['median_ms']:7.3f} ms   p99 {figures['p99_ms']:7.3f} ms"
        )
    verdict = "all under" if result["all_under_target"] else "NOT all under"
    print(f"{verdict} the {result['target_ms']:.0f} ms target")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=200, help="people in the guild")
    parser.add_argument("--calls", type=int, default=200, help="timed calls per query")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    result = asyncio.run(run(args.games, args.players, args.calls))
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        report(result)


if __name__ == "__main__":
    main()
