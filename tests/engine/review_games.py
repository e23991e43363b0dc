"""Finished games for the review's tests: short ones, played by hard players
(one of them calling vuile was often, to have calls to check)."""

from __future__ import annotations

import copy
import random
from functools import cache
from typing import Any

from engine import events as ev
from engine.bots.base import decision_rng
from engine.bots.hard import HardBot
from engine.bots.reading import legal_of
from engine.bots.runner import play_out
from engine.chance import RandomChance
from engine.events import Event
from engine.game import Game
from engine.record import ReplayError, to_record
from engine.rules import TableRules
from engine.seat_view_record import HIDDEN, seat_view_record
from engine.views import SeatView

TRIES = 40  # swaps tried per record, at most (each replays the game)


@cache
def _played(seed: int, players: int) -> dict[str, Any]:
    rules = TableRules(limit=5)
    game = Game(rules, [f"p{i}" for i in range(players)], RandomChance(random.Random(seed)))
    play_out(game, {s: HardBot(seed * 10 + s, samples=4) for s in range(players)})
    return to_record(game, seed)


class Bluffer:
    """The hard player, but in the vuile was moment it calls, genuine or not,
    half the time before anyone has called: games with calls to check."""

    level = "hard"

    def __init__(self, seed: int) -> None:
        self.bot = HardBot(seed, samples=4)
        self.seed = seed

    def decide(self, view: SeatView) -> Event | None:
        call = legal_of(view, ev.VUILE_WAS)
        if call is not None and view.public.row == 0:  # at most once a round: a call draws
            return call if decision_rng(self.seed, view).random() < 0.5 else None
        return self.bot.decide(view)


@cache
def _with_calls(seed: int) -> dict[str, Any]:
    game = Game(TableRules(limit=5), ["p0", "p1", "p2"], RandomChance(random.Random(seed)))
    bots: dict[int, Any] = {0: Bluffer(seed * 10)}
    bots.update({s: HardBot(seed * 10 + s, samples=4) for s in (1, 2)})
    play_out(game, bots)
    return to_record(game, seed)


def with_calls(seed: int) -> dict[str, Any]:
    """A finished game in which seat 0 calls vuile was often, bluffing or not."""
    return copy.deepcopy(_with_calls(seed))


def finished(seed: int, players: int = 3) -> dict[str, Any]:
    """A finished game's record (a fresh copy to change at will)."""
    return copy.deepcopy(_played(seed, players))


def twin(record: dict[str, Any], seat: int, swaps: int = 3) -> dict[str, Any] | None:
    """The record with cards `seat` never saw swapped between another seat's
    hand and the stock (up to `swaps` times, in different deals) wherever the
    game still replays and the seat's view of it stays the same; None if no
    swap kept both."""
    view = seat_view_record(record, seat)
    out = copy.deepcopy(record)
    swapped = tried = 0
    for d, (entry, seen) in enumerate(zip(out["deals"], view["deals"], strict=True)):
        if swapped == swaps:
            break
        before = swapped
        for s, hand in enumerate(entry["hands"]):
            if s == seat or hand is None:
                continue
            for i in range(len(hand)):
                for j in range(len(entry["stock"])):
                    if (swapped > before or tried >= TRIES or seen["hands"][s][i] != HIDDEN
                            or seen["stock"][j] != HIDDEN):
                        continue
                    tried += 1
                    trial = copy.deepcopy(out)
                    deal = trial["deals"][d]
                    deal["hands"][s][i], deal["stock"][j] = deal["stock"][j], deal["hands"][s][i]
                    try:
                        same = seat_view_record(trial, seat) == view
                    except ReplayError:
                        same = False
                    if same:
                        out, swapped = trial, swapped + 1
    return out if swapped else None
