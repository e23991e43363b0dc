"""Scripted players for the duel: each pushes one habit as far as it goes,
to find out whether the computer players can be exploited by it.

Every scripted player plays like `normal` except for its one habit:

- `vw-always`: calls vuile was whenever it may, on every hand;
- `vw-strong`: calls vuile was until its hand holds two 9s or 10s;
- `toep-always`: toeps whenever it may (every round, at its first turn);
- `never-fold`: calls every toep;
- `check-all`: checks every vuile was call.

They are duel seats only: no table offers them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from engine import events as ev
from engine.bots import reading
from engine.bots.base import decision_rng
from engine.bots.cardints import NINE, ints
from engine.bots.normal import normal_choice
from engine.events import Event
from engine.state import Phase
from engine.views import SeatView

log = logging.getLogger(__name__)

# A habit answers first; None lets `normal` decide.
Habit = Callable[[SeatView], Event | None]


def strong_hand(view: SeatView) -> bool:
    """Two 9s or 10s: the hand `vw-strong` keeps."""
    return sum(1 for c in ints(view.hand) if c & 7 >= NINE) >= 2


def _vuile_was_always(view: SeatView) -> Event | None:
    return reading.legal_of(view, ev.VUILE_WAS)


def _vuile_was_until_strong(view: SeatView) -> Event | None:
    if view.public.phase is Phase.WINDOW and not strong_hand(view):
        return reading.legal_of(view, ev.VUILE_WAS)
    return None


def _toep_always(view: SeatView) -> Event | None:
    return reading.legal_of(view, ev.TOEP)


def _never_fold(view: SeatView) -> Event | None:
    return reading.legal_of(view, ev.CALL) if view.public.phase is Phase.TOEP_ANSWER else None


def _check_all(view: SeatView) -> Event | None:
    return reading.legal_of(view, ev.CHECK)


HABITS: dict[str, Habit] = {
    "vw-always": _vuile_was_always,
    "vw-strong": _vuile_was_until_strong,
    "toep-always": _toep_always,
    "never-fold": _never_fold,
    "check-all": _check_all,
}


class ScriptedBot:
    """`normal`, but for one habit."""

    def __init__(self, level: str, seed: int = 0) -> None:
        self.level = level
        self.seed = seed
        self.habit = HABITS[level]

    def decide(self, view: SeatView) -> Event | None:
        if not view.legal:
            return None
        event = self.habit(view)
        if event is not None:
            return event
        return normal_choice(view, decision_rng(self.seed, view)).event
