"""Recorded games for bench/review.py: whole games of hard players, and games
with planted blunders.

A planted blunder is certain by what its seat saw: in the last trick the
seat's card on the table beats every card of the led suit on the table and
every one it has not seen, and it folds to a toep all the same (calling
costs nothing, folding the stake so far). To make such moments common, the
others toep in the last trick whenever they may.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engine import events as ev
from engine.bots.cardints import higher_in_suit
from engine.bots.hard import HardBot
from engine.bots.knowledge import know
from engine.bots.runner import play_out
from engine.chance import RandomChance
from engine.events import Event
from engine.game import Game
from engine.record import to_record
from engine.rules import TableRules
from engine.state import SUPER_TOEP, Phase
from engine.views import SeatView

PLAYERS = 4
ROUNDS = (30, 40)  # the length of a bench game, in rounds
LIMIT = 30  # four hard players need 26-32 rounds to reach it


def long_games(count: int, first_seed: int = 0) -> Iterator[tuple[int, dict[str, Any], int]]:
    """`count` records of hard players' games of 30-40 rounds: seed, record, rounds."""
    seed = first_seed
    found = 0
    while found < count:
        game = Game(TableRules(limit=LIMIT), [f"p{i}" for i in range(PLAYERS)],
                    RandomChance(random.Random(seed)))
        play_out(game, {s: HardBot(seed * 10 + s) for s in range(PLAYERS)})
        if ROUNDS[0] <= len(game.rounds) <= ROUNDS[1]:
            found += 1
            yield seed, to_record(game, seed), len(game.rounds)
        seed += 1


def sure_winner(view: SeatView) -> bool:
    """The seat's card on the table must win the last trick, by what it saw."""
    public = view.public
    hand_size = 8 if public.kind == SUPER_TOEP else 4
    if len(public.tricks) != hand_size - 1 or not public.table:
        return False
    led = public.table[0][1].suit
    mine = [c for s, c in public.table if s == view.seat]
    if not mine or mine[0].suit is not led:
        return False
    card = mine[0].index
    if any(c.suit is led and c.index > card for _, c in public.table):
        return False
    unseen = 0
    for c in know(view).pool:
        unseen |= 1 << c
    return not unseen & higher_in_suit(card)


class Planter:
    """The hard player, but it folds a sure winner to a toep; `planted` notes when."""

    level = "hard"

    def __init__(self, seed: int) -> None:
        self.bot = HardBot(seed)
        self.planted: list[int] = []

    def decide(self, view: SeatView) -> Event | None:
        if view.public.phase is Phase.TOEP_ANSWER and sure_winner(view):
            self.planted.append(view.public.event_count)
            return ev.act(ev.FOLD, view.seat)
        return self.bot.decide(view)


class LateToeper:
    """The hard player, but it toeps in the last trick whenever it may once
    seat 0 has played to it."""

    level = "hard"

    def __init__(self, seed: int) -> None:
        self.bot = HardBot(seed)
        self.seed = seed

    def decide(self, view: SeatView) -> Event | None:
        toep = ev.act(ev.TOEP, view.seat)
        public = view.public
        last = public.kind != SUPER_TOEP and len(public.tricks) == 3
        if last and toep in view.legal and any(s == 0 for s, _ in public.table):
            return toep
        return self.bot.decide(view)


def planted_game(seed: int, limit: int = 15) -> tuple[dict[str, Any], list[int]]:
    """A game where seat 0 folds its sure winners; the record and those events' indexes."""
    planter = Planter(seed * 10)
    bots: dict[int, Any] = {s: LateToeper(seed * 10 + s) for s in range(1, PLAYERS)}
    bots[0] = planter
    game = Game(TableRules(limit=limit), [f"p{i}" for i in range(PLAYERS)],
                RandomChance(random.Random(seed)))
    play_out(game, bots)
    return to_record(game, seed), planter.planted
