"""Finished games for the review's tests: short ones, played by hard players."""

from __future__ import annotations

import copy
import random
from functools import cache
from typing import Any

from engine.bots.hard import HardBot
from engine.bots.runner import play_out
from engine.chance import RandomChance
from engine.game import Game
from engine.record import ReplayError, to_record
from engine.rules import TableRules
from engine.seat_view_record import HIDDEN, seat_view_record

TRIES = 40  # swaps tried per record, at most (each replays the game)


@cache
def _played(seed: int, players: int) -> dict[str, Any]:
    rules = TableRules(limit=5)
    game = Game(rules, [f"p{i}" for i in range(players)], RandomChance(random.Random(seed)))
    play_out(game, {s: HardBot(seed * 10 + s, samples=4) for s in range(players)})
    return to_record(game, seed)


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
