"""Who may sit at a duel table: the computer levels, the scripted exploiters
(`cli.scripted`), the `yardstick` player (`cli.yardstick`) and `hard-search`,
the hard player betting by its search alone, as before its computed betting
policy: a measuring seat (`--compare hard-search:hard`, see docs/policy.md)."""

from __future__ import annotations

from cli.scripted import HABITS, ScriptedBot
from cli.yardstick import YardstickBot
from engine.bots import LEVELS, Bot, make_bot
from engine.bots.hard import HardBot

DUEL_SEATS = (*LEVELS, "yardstick", "hard-search", *HABITS)


def make_seat(name: str, seed: int = 0) -> Bot:
    """The player for one duel seat; unknown names raise ValueError."""
    if name in HABITS:
        return ScriptedBot(name, seed)
    if name == "yardstick":
        return YardstickBot(seed)
    if name == "hard-search":
        return HardBot(seed, policy=False)
    return make_bot(name, seed)
