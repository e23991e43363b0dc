"""Playing the duel's samples: one duplicate deal, or one whole game.

A duplicate deal is played once per rotation of the seats: in rotation r,
seat i gets entry (i + r) mod n of the seat list. Every rotation draws its
chance from the same seed, so the same cards come to the same seats (and the
same seat leads) while the levels move round the table; luck cancels out.
The bots are timed here, around `decide` only, with `time.perf_counter`
(the duel is a command-line tool, so it may read a clock; the engine may not).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

from cli.duel_chance import RoundChance
from cli.seats import make_seat
from engine.bots import Bot
from engine.bots.runner import next_event
from engine.chance import RandomChance
from engine.events import Event
from engine.game import Game
from engine.rules import TableRules
from engine.views import SeatView

T = TypeVar("T")

# Far more events than any round or game takes; a guard against a bot loop.
MAX_EVENTS = 200_000


@dataclass(frozen=True)
class DuelSetup:
    """`entries`: the level of each seat in rotation 0 (the --seats list)."""

    entries: tuple[str, ...]
    rules: TableRules
    seed: int

    @property
    def seats(self) -> int:
        return len(self.entries)


@dataclass
class DealResult:
    """One deal over all its rotations, per level: seat-rounds played and
    won, marks taken, and every decision's time in ms; and per entry of the
    seat list (the same player in every rotation): rounds won, marks taken."""

    seat_rounds: Counter[str] = field(default_factory=Counter)
    wins: Counter[str] = field(default_factory=Counter)
    marks: Counter[str] = field(default_factory=Counter)
    times: dict[str, list[float]] = field(default_factory=dict)
    entry_wins: Counter[int] = field(default_factory=Counter)
    entry_marks: Counter[int] = field(default_factory=Counter)


@dataclass
class GameResult:
    """One whole game: the winner's level and entry, and per entry of the
    seat list the rounds it was in (from the first to the one that put it
    out), the rounds it won and the marks it took."""

    winner: str | None
    winner_entry: int | None = None
    times: dict[str, list[float]] = field(default_factory=dict)
    entry_rounds: Counter[int] = field(default_factory=Counter)
    entry_wins: Counter[int] = field(default_factory=Counter)
    entry_marks: Counter[int] = field(default_factory=Counter)


class TimedBot:
    """A bot whose every decision is timed into `times` (milliseconds)."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot = bot
        self.level = bot.level
        self.times = times

    def decide(self, view: SeatView) -> Event | None:
        start = time.perf_counter()
        event = self.bot.decide(view)
        self.times.append((time.perf_counter() - start) * 1000.0)
        return event


def seating(entries: Sequence[str], rotation: int) -> list[str]:
    """The level at each seat in `rotation`: seat i gets entry (i + r) mod n."""
    n = len(entries)
    return [entries[(i + rotation) % n] for i in range(n)]


def deal_seed(seed: int, deal: int) -> int:
    return seed * 1_000_003 + deal


def game_seed(seed: int, game: int) -> int:
    # Kept apart from the deal seeds so games and rounds do not share cards
    # (random.Random ignores an int seed's sign, so an offset, not a minus).
    return seed * 1_000_003 + game + 2**40


def new_game(setup: DuelSetup, seed: int) -> Game:
    """A fresh game (marks 0) whose chance comes from `seed` alone."""
    names = [f"seat{i}" for i in range(setup.seats)]
    return Game(setup.rules, names, RandomChance(random.Random(seed)))


def timed_bots(levels: Sequence[str], entry_of: Sequence[int], seed: int,
               times: dict[str, list[float]]) -> dict[int, Bot]:
    """Bots for each seat; a bot's seed follows its entry, not its seat, so
    the same player moves round the table with its level."""
    bots: dict[int, Bot] = {}
    for seat, level in enumerate(levels):
        bot = make_seat(level, seed * 16 + entry_of[seat])
        bots[seat] = TimedBot(bot, times.setdefault(level, []))
    return bots


def play_round(game: Game, bots: Mapping[int, Bot]) -> None:
    """Play until the first round ends."""
    for _ in range(MAX_EVENTS):
        if game.rounds or game.over:
            return
        game.apply(next_event(game, bots))
    raise RuntimeError(f"a round did not end within {MAX_EVENTS} events")


def play_deal(setup: DuelSetup, deal: int) -> DealResult:
    """One duplicate deal: its first round, once in every rotation."""
    result = DealResult()
    seed = deal_seed(setup.seed, deal)
    n = setup.seats
    for rotation in range(n):
        levels = seating(setup.entries, rotation)
        entry_of = [(i + rotation) % n for i in range(n)]
        game = new_game(setup, seed)
        play_round(game, timed_bots(levels, entry_of, seed, result.times))
        summary = game.rounds[0]
        for seat, level in enumerate(levels):
            result.seat_rounds[level] += 1
            result.marks[level] += summary.marks[seat]
            result.entry_marks[entry_of[seat]] += summary.marks[seat]
            if summary.winner == seat:
                result.wins[level] += 1
                result.entry_wins[entry_of[seat]] += 1
    return result


def whole_game(setup: DuelSetup, seed: int) -> Game:
    """A fresh game whose cards come by (round, deal in the round), see `RoundChance`."""
    names = [f"seat{i}" for i in range(setup.seats)]
    chance = RoundChance(seed)
    game = Game(setup.rules, names, chance)
    chance.game = game
    return game


def play_game(setup: DuelSetup, number: int) -> GameResult:
    """One whole game; the seating rotates by one seat from game to game."""
    n = setup.seats
    rotation = number % n
    levels = seating(setup.entries, rotation)
    entry_of = [(i + rotation) % n for i in range(n)]
    seed = game_seed(setup.seed, number)
    times: dict[str, list[float]] = {}
    game = whole_game(setup, seed)
    bots = timed_bots(levels, entry_of, seed, times)
    for _ in range(MAX_EVENTS):
        if game.over:
            break
        game.apply(next_event(game, bots))
    else:
        raise RuntimeError(f"a game did not end within {MAX_EVENTS} events")
    winner = None if game.winner is None else levels[game.winner]
    result = GameResult(winner, None if game.winner is None else entry_of[game.winner], times)
    _count_rounds(game, entry_of, result)
    return result


def _count_rounds(game: Game, entry_of: Sequence[int], result: GameResult) -> None:
    """Per entry: rounds it was in, rounds won, marks taken."""
    limit = game.rules.limit
    marks = [0] * game.n
    for summary in game.rounds:
        for seat in range(game.n):
            if marks[seat] >= limit:
                continue  # out before this round
            entry = entry_of[seat]
            result.entry_rounds[entry] += 1
            result.entry_marks[entry] += summary.marks[seat]
            result.entry_wins[entry] += summary.winner == seat
            marks[seat] += summary.marks[seat]


def run_all(fn: Callable[[DuelSetup, int], T], setup: DuelSetup, count: int,
             workers: int) -> list[T]:
    """fn(setup, i) for i < count, in order; in worker processes if asked."""
    if workers == 1 or count < 2:
        return [fn(setup, i) for i in range(count)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        chunk = max(1, count // (workers * 8))
        return list(pool.map(fn, [setup] * count, range(count), chunksize=chunk))
