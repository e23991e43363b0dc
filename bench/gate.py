"""Time what every click and every message now costs: the gate (cogs/gate.py)
and the fitting of a message on its way out (cogs/outgoing.py).

    python bench/gate.py [--runs 20000] [--json]

The gate is timed on the clicked message as discord.py hands it over (its
components parsed): the button of a hand panel with eight cards, one of the
public table message, and a forged id refused; the fitting on the JSON of a
table message in play and of a hand panel. Prints median and p99
microseconds. Figures only; nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord
from discord.components import _component_factory

from cogs.gate import admit
from cogs.outgoing import fit_request
from cogs.render import hand_panel, table_message
from engine.views import seat_view
from tests.cogs.helpers import NOW, random_moments
from tests.cogs.limits import payload_of

GUILD = 1457705189376000002


def moment() -> Any:
    """A moment of an eight-player game with a person asked to play."""
    for seed in range(200):
        for found in random_moments(seed, every=1.0):
            public = found.snap.view
            if public is not None and found.game.n == 8 and public.waiting \
                    and len(found.game.hands[public.waiting[0]]) >= 3:
                return found
    raise RuntimeError("no moment found")


def last_enabled(message: dict[str, Any]) -> str:
    return str([c["custom_id"] for row in message["components"] for c in row["components"]
                if not c.get("disabled")][-1])


def click(message: dict[str, Any], custom_id: str, ephemeral: bool) -> Any:
    """An interaction as far as the gate reads it."""
    components = [c for c in map(_component_factory, message.get("components", [])) if c]
    flags = discord.MessageFlags(ephemeral=ephemeral)
    clicked = SimpleNamespace(components=components, flags=flags, interaction_metadata=None)
    return SimpleNamespace(guild_id=GUILD, data={"custom_id": custom_id, "component_type": 2},
                           message=clicked, user=SimpleNamespace(id=7))


def timed(work: Callable[[], object], runs: int) -> dict[str, float]:
    work()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1e6)
    times.sort()
    return {"median_us": round(statistics.median(times), 2),
            "p99_us": round(times[min(len(times) - 1, int(len(times) * 0.99))], 2)}


def cases() -> dict[str, Callable[[], object]]:
    found = moment()
    seat = found.snap.view.waiting[0]
    panel = payload_of(hand_panel(found.snap, seat_view(found.game, seat), "nl", NOW))
    table = payload_of(table_message(found.snap, "nl", NOW))
    # The last enabled button of each: the gate walks the whole message to it.
    card, shown = last_enabled(panel), last_enabled(table)
    live = {found.snap.table_id: GUILD}
    guild_of = live.get
    on_panel, on_table = click(panel, card, True), click(table, shown, False)
    forged = click(table, f"toep:{found.snap.table_id}:stay", False)
    return {
        "gate_panel_button": lambda: admit(on_panel, guild_of),
        "gate_table_button": lambda: admit(on_table, guild_of),
        "gate_forged_refused": lambda: admit(forged, guild_of),
        "fit_table_message": lambda: fit_request("PATCH", json.loads(json.dumps(table)), None),
        "fit_hand_panel": lambda: fit_request("PATCH", json.loads(json.dumps(panel)), None),
        "copy_only_baseline": lambda: json.loads(json.dumps(table)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20_000)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    results = {name: timed(work, args.runs) for name, work in cases().items()}
    if args.json:
        print(json.dumps({"runs": args.runs, "results": results}))
        return 0
    print(f"gate and fitting, {args.runs} runs each (fit_*: including a copy of the JSON, "
          "as copy_only_baseline)")
    for name, r in results.items():
        print(f"  {name:22} median {r['median_us']:8.2f} us  p99 {r['p99_us']:8.2f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
