"""Who may sit at a duel table: the computer levels, the scripted exploiters
(`cli.scripted`) and the `yardstick` player (`cli.yardstick`)."""

from __future__ import annotations

from cli.scripted import HABITS, ScriptedBot
from cli.yardstick import YardstickBot
from engine.bots import LEVELS, Bot, make_bot

DUEL_SEATS = (*LEVELS, "yardstick", *HABITS)


def make_seat(name: str, seed: int = 0) -> Bot:
    """The player for one duel seat; unknown names raise ValueError."""
    if name in HABITS:
        return ScriptedBot(name, seed)
    if name == "yardstick":
        return YardstickBot(seed)
    return make_bot(name, seed)
