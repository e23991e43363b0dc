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
  three play the same boards and the day ranks them by matchpoints
  (`duplicate`), or by their total score on those boards (`duplicate_total`);
  under random deals each plays boards of their own and ranks by their total
  score. For each pair (stronger, weaker), how often the stronger ranks
  above (a tie counts half), and the mean over the three pairs; each share
  with the half-width of its 95% confidence interval (`..._plus_minus_95`,
  from the spread of the days), duplicate's gain over random deals with
  its own (paired by day), and how alike two strengths' scores on the same
  board are (`same_board`: their correlation, the share of boards tied);
- variance: where a board's score comes from: the share the deal explains,
  the computers' draws and the person's own, and what a same-board
  comparison keeps of a random-deal one's noise (bench/daily_variance.py;
  `--variance-boards`, `--runs`);
- busy_day: E entrants in one guild's day on one process (50 at a time),
  through tables/daily.py and an SQLite file as the bot uses them (the day
  opened, each board rebuilt from the database for every choice and saved
  after it, the computers in worker threads): errors, and the time to show
  the ranking (read the day's scores, rank them, draw a member's results).

`--level` sets the computers at the table (the daily's are hard; they take
about 0.1 s a board on one core, so the defaults take a while).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.daily_variance import bench_variance
from cogs.render_daily import results_panel
from data.daily import Day, get_player
from data.db import connect
from engine.board_play import net_score, play_board
from engine.boards import Board, board
from engine.bots import Bot, make_bot
from engine.duplicate import ranking
from engine.events import Event
from engine.views import SeatView
from tables.clock import FakeClock
from tables.daily import Daily

STRENGTHS = ("easy", "normal", "hard")
PAIRS = (("hard", "normal"), ("hard", "easy"), ("normal", "easy"))
BOARDS_A_DAY = 8
PARTS = ("replays", "separation", "variance", "busy_day")
GUILD = 1
AT_ONCE = 50  # entrants playing at the same moment
COMPUTERS = ("computer 1", "computer 2", "computer 3")
SCORINGS = ("duplicate", "duplicate_total", "random_deals")
Pair = tuple[str, str]


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
    outcomes: dict[str, dict[Pair, list[float]]] = {
        kind: {pair: [] for pair in PAIRS} for kind in SCORINGS}
    boards_of: dict[str, list[float]] = {s: [] for s in STRENGTHS}
    for day in range(days):
        same = [board(f"day-{day}", i) for i in range(BOARDS_A_DAY)]
        scores = {s: _scores(same, s, day, level) for s in STRENGTHS}
        averages = {r.who: r.average for r in ranking(scores)}
        totals = {s: sum(_scores([board(f"day-{day}-{s}", i) for i in range(BOARDS_A_DAY)],
                                 s, day, level)) for s in STRENGTHS}
        for s in STRENGTHS:
            boards_of[s] += scores[s]
        for pair in PAIRS:
            a, b = pair
            outcomes["duplicate"][pair].append(_above(averages[a], averages[b]))
            outcomes["duplicate_total"][pair].append(_above(sum(scores[a]), sum(scores[b])))
            outcomes["random_deals"][pair].append(_above(totals[a], totals[b]))
    figures: dict[str, Any] = {"days": days, "boards_a_day": BOARDS_A_DAY}
    for kind, per_pair in outcomes.items():
        figures[kind] = _shares(per_pair)
        figures[f"{kind}_plus_minus_95"] = _margins(per_pair)
    gain = [d - r for d, r in zip(_day_means(outcomes["duplicate"]),
                                  _day_means(outcomes["random_deals"]), strict=True)]
    figures["duplicate_less_random"] = {"mean": round(statistics.fmean(gain), 3),
                                        "plus_minus_95": _margin(gain)}
    figures["same_board"] = {_name(pair): _alike(boards_of[pair[0]], boards_of[pair[1]])
                             for pair in PAIRS}
    return figures


def _name(pair: Pair) -> str:
    return f"{pair[0]}_over_{pair[1]}"


def _day_means(per_pair: dict[Pair, list[float]]) -> list[float]:
    """Each day's share of pairs ranked right (what `mean` averages)."""
    return [statistics.fmean(day) for day in zip(*per_pair.values(), strict=True)]


def _shares(per_pair: dict[Pair, list[float]]) -> dict[str, float]:
    out = {_name(pair): round(statistics.fmean(won), 3) for pair, won in per_pair.items()}
    out["mean"] = round(statistics.fmean(_day_means(per_pair)), 3)
    return out


def _margin(values: list[float]) -> float | None:
    """Half the width of a share's 95% confidence interval, from the spread
    of its days (None with a single day)."""
    if len(values) < 2:
        return None
    return round(1.96 * statistics.stdev(values) / math.sqrt(len(values)), 3)


def _margins(per_pair: dict[Pair, list[float]]) -> dict[str, float | None]:
    out = {_name(pair): _margin(won) for pair, won in per_pair.items()}
    out["mean"] = _margin(_day_means(per_pair))
    return out


def _alike(first: list[float], second: list[float]) -> dict[str, float | None]:
    """How alike two strengths' scores on the same boards are: duplicate
    can only take out of a comparison what the boards share."""
    try:
        correlation: float | None = round(statistics.correlation(first, second), 3)
    except statistics.StatisticsError:  # a constant list: no correlation
        correlation = None
    ties = sum(a == b for a, b in zip(first, second, strict=True)) / len(first)
    return {"correlation": correlation, "ties": round(ties, 3)}


async def _entrant(daily: Daily, day: Day, user_id: int, errors: list[str]) -> None:
    """One member's whole day through tables/daily.py, as the cog drives it:
    each board rebuilt from the database, each choice saved."""
    chooser = make_bot(("easy", "normal")[user_id % 2], user_id)
    try:
        for _ in range(day.boards * 60):
            current = await daily.current(day, user_id, f"member {user_id}", COMPUTERS)
            if current is None:
                return
            index, session = current
            if not await daily.act(day, user_id, index, session, chooser.decide(session.view())):
                errors.append(f"{user_id}: the day refused a save")
                return
        errors.append(f"{user_id}: the day did not end")
    except Exception as err:  # counted, not raised: the figure is how many
        errors.append(f"{user_id}: {type(err).__name__}: {err}")


async def _busy_day(entrants: int, level: str, folder: Path) -> dict[str, Any]:
    db = await connect(folder / "daily.sqlite3")
    daily = Daily(db, FakeClock(), None, level=level)
    errors: list[str] = []
    try:
        day = await daily.today(GUILD)
        start = time.perf_counter()
        for first in range(0, entrants, AT_ONCE):
            await asyncio.gather(*(_entrant(daily, day, u, errors)
                                   for u in range(first + 1, min(first + AT_ONCE, entrants) + 1)))
        played_s = time.perf_counter() - start
        start = time.perf_counter()
        standing = await daily.standing(day)
        if standing.scores:  # what a finisher sees: the ranking and their boards
            member = min(standing.scores)
            player = await get_player(db, GUILD, member)
            results_panel(day, standing, daily.versus(day, standing, member), player, member,
                          "en")
        ranking_ms = (time.perf_counter() - start) * 1000
        return {"entrants": entrants, "finished": len(standing.rows), "errors": len(errors),
                "first_errors": errors[:3], "played_s": round(played_s, 1),
                "ranking_ms": round(ranking_ms, 1)}
    finally:
        await db.close()


def bench_busy_day(entrants: int, level: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(_busy_day(entrants, level, Path(folder)))


def _timed(name: str, run: Callable[[], dict[str, Any]], quiet: bool) -> dict[str, Any]:
    if not quiet:
        print(f"{name}...", file=sys.stderr)
    return run()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--replays", type=int, default=10_000)
    parser.add_argument("--days", type=int, default=100)
    parser.add_argument("--variance-boards", type=int, default=48)
    parser.add_argument("--runs", type=int, default=4, help="plays of a board (variance)")
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
    if "variance" in parts:
        figures["variance"] = _timed(
            "variance", lambda: bench_variance(args.variance_boards, args.runs, args.level),
            args.json)
    if "busy_day" in parts:
        figures["busy_day"] = _timed("busy day",
                                     lambda: bench_busy_day(args.entrants, args.level), args.json)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
