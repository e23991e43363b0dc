"""The computer-player contract, and the uniformly random player.

A computer player sees only its `SeatView` (its hand, what is on the table and
the public event history) and answers with an event, or None for silence in a
window (no vuile was call, believe, no super toep). It is deterministic: the
same view and the same seed give the same answer.
"""

from __future__ import annotations

import random
from typing import Protocol

from engine.events import Event
from engine.views import SeatView


class Bot(Protocol):
    level: str

    def decide(self, view: SeatView) -> Event | None:
        """The event this seat chooses now, or None for silence in a window."""
        ...


def decision_rng(seed: int, view: SeatView) -> random.Random:
    """A generator for one decision, fixed by the seed, the seat and the
    moment, so a bot's choices do not depend on what it was asked before."""
    return random.Random(hash((seed, view.seat, view.public.event_count, view.public.round)))


class RandomBot:
    """Picks uniformly among its legal events; in a window silence is one of them."""

    level = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def decide(self, view: SeatView) -> Event | None:
        options: list[Event | None] = list(view.legal)
        if view.public.window or not options:
            options.append(None)
        return decision_rng(self.seed, view).choice(options)
