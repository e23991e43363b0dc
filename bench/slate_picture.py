"""Time the slate pictures: round-end slates for 4 and 8 players and the
final standings.

    python bench/slate_picture.py [--runs 200] [--json]

Renders each picture many times (fonts loaded once beforehand, as in the
bot) and prints median and p99 wall-clock milliseconds, the median CPU time
of the process (steadier on a busy machine) and the PNG size. Target: under
50 ms each. Figures only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogs.slate_picture import (
    Picture,
    SlateLine,
    Standing,
    render_round,
    render_standings,
)

log = logging.getLogger(__name__)

TARGET_MS = 50.0
LIMIT = 15
NAMES = ("Anna", "Bram", "Carlijn", "Daan", "Eline", "Floris", "Gerrit-Jan", "Hanneke")
# (marks, of which this round, out, forfeited): a late-game table.
SLATES = ((7, 2, False, False), (14, 3, False, False), (3, 0, False, False),
          (16, 4, True, False), (2, 0, False, True), (0, 0, False, False),
          (12, 5, False, False), (10, 1, False, False))


def round_lines(players: int) -> list[SlateLine]:
    return [SlateLine(NAMES[i], marks, new, out=out, forfeited=forfeited, won_round=i == 2)
            for i, (marks, new, out, forfeited) in enumerate(SLATES[:players])]


def final_rows(players: int) -> list[Standing]:
    order = sorted(range(players), key=lambda i: SLATES[i][0])
    return [Standing(place, SlateLine(NAMES[i], SLATES[i][0], out=place > 1,
                                      winner=place == 1))
            for place, i in enumerate(order, start=1)]


def timed(render: Callable[[], Picture], runs: int) -> dict[str, Any]:
    render()  # fonts and caches, as a running bot has them
    times = []
    cpu = []
    picture = None
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        picture = render()
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    assert picture is not None
    times.sort()
    return {
        "median_ms": round(statistics.median(times), 2),
        "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))], 2),
        "max_ms": round(times[-1], 2),
        "cpu_median_ms": round(statistics.median(cpu), 2),
        "png_bytes": len(picture.png),
        "size": f"{picture.width}x{picture.height}",
        "under_target": statistics.median(times) < TARGET_MS,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    cases: dict[str, Callable[[], Picture]] = {
        "round_4_players": lambda: render_round(round_lines(4), LIMIT, 7, "nl"),
        "round_8_players": lambda: render_round(round_lines(8), LIMIT, 7, "nl"),
        "standings_4_players": lambda: render_standings(final_rows(4), LIMIT, "en"),
        "standings_8_players": lambda: render_standings(final_rows(8), LIMIT, "en"),
        "round_8_builtin_font": lambda: render_round(round_lines(8), LIMIT, 7, "en",
                                                     system_fonts=False),
    }
    results = {name: timed(render, args.runs) for name, render in cases.items()}
    if args.json:
        print(json.dumps({"target_ms": TARGET_MS, "runs": args.runs, "results": results}))
        return 0
    print(f"slate pictures, {args.runs} runs each, target under {TARGET_MS:.0f} ms")
    for name, r in results.items():
        print(f"  {name:22} median {r['median_ms']:6.2f} ms  p99 {r['p99_ms']:6.2f} ms  "
              f"(cpu {r['cpu_median_ms']:6.2f} ms)  {r['png_bytes'] / 1024:5.1f} KB  {r['size']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
