"""Who may sit at a duel table: the computer levels, the scripted exploiters
(`cli.scripted`), the `yardstick` player (`cli.yardstick`) and measuring
seats. `hard-search`: the hard player betting by its search alone, as before
its computed betting policy (`--compare hard-search:hard`, see docs/policy.md).
The hard player guessing the hidden hands with less or more evidence
(`engine.bots.sampling.Evidence`), so that a paired duel measures what each
part buys, e.g. `--compare hard-uniform:hard` or `--compare
hard-signals:hard-folds,hard-passes,hard-window,hard-all`:

- `hard-uniform`: plain deals, voids respected, nothing weighed or rejected;
- `hard-signals`: weighed by toeps and calls, cards played by rejection;
- `hard-folds`, `hard-passes`, `hard-window`: that and one more part
  (folds; toep chances passed late in a round; the vuile was window);
- `hard-all`: every part.

No table offers a measuring seat.
"""

from __future__ import annotations

from dataclasses import replace

from cli.scripted import HABITS, ScriptedBot
from cli.yardstick import YardstickBot
from engine.bots import LEVELS, Bot, make_bot
from engine.bots.hard import HardBot
from engine.bots.sampling import ALL, SIGNALS, UNIFORM, Evidence

MEASURING: dict[str, Evidence] = {
    "hard-uniform": UNIFORM,
    "hard-signals": SIGNALS,
    "hard-folds": replace(SIGNALS, folds=True),
    "hard-passes": replace(SIGNALS, passes=True),
    "hard-window": replace(SIGNALS, window=True),
    "hard-all": ALL,
}
DUEL_SEATS = (*LEVELS, "yardstick", "hard-search", *HABITS, *MEASURING)


def make_seat(name: str, seed: int = 0) -> Bot:
    """The player for one duel seat; unknown names raise ValueError."""
    if name in HABITS:
        return ScriptedBot(name, seed)
    if name == "yardstick":
        return YardstickBot(seed)
    if name == "hard-search":
        return HardBot(seed, policy=False)
    if name in MEASURING:
        bot = HardBot(seed, evidence=MEASURING[name])
        bot.level = name  # its figures are told apart from `hard`'s
        return bot
    return make_bot(name, seed)
