"""Who may sit at a duel table: the computer levels, the scripted exploiters
(`cli.scripted`), the `yardstick` player (`cli.yardstick`) and measuring
seats: `hard-uniform` is the hard player guessing the hidden hands by plain
deals (voids respected, nothing weighed), so that `--compare
hard-uniform:hard` measures what weighing the guesses by the others' actions
buys. No table offers a measuring seat."""

from __future__ import annotations

from cli.scripted import HABITS, ScriptedBot
from cli.yardstick import YardstickBot
from engine.bots import LEVELS, Bot, make_bot
from engine.bots.hard import HardBot
from engine.bots.sampling import UNIFORM

MEASURING = ("hard-uniform",)
DUEL_SEATS = (*LEVELS, "yardstick", *HABITS, *MEASURING)


def make_seat(name: str, seed: int = 0) -> Bot:
    """The player for one duel seat; unknown names raise ValueError."""
    if name in HABITS:
        return ScriptedBot(name, seed)
    if name == "yardstick":
        return YardstickBot(seed)
    if name == "hard-uniform":
        bot = HardBot(seed, evidence=UNIFORM)
        bot.level = name  # its figures are told apart from `hard`'s
        return bot
    return make_bot(name, seed)
