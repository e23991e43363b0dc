"""The computer players of one table: who of them decides now, their
thinking off the event loop, the readable pause, and what their decisions
become (an illegal one is replaced, never played).

The driver holds no game state of its own: it asks its table (`Driven`)
for the game in play and hands it one move at a time, under the table's
lock, and only if nothing happened meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from typing import Protocol

from engine.bots import Bot, make_bot
from engine.events import Event
from engine.game import Game, Phase
from engine.silence import silent_answer
from engine.views import seat_view
from tables.clock import ClockSource
from tables.log_safe import log_failure
from tables.slots import Slots
from tables.snapshot import SeatInfo
from tables.table_clocks import TableClocks

log = logging.getLogger(__name__)

# One event to save, or the seats that let a window pass in silence.
Move = Event | Sequence[int]
Decisions = list[tuple[int, Event | None]]


class Driven(Protocol):
    """What the driver needs of its table."""

    lock: asyncio.Lock
    passed: set[int]  # seats that let the open window pass

    @property
    def moment(self) -> str: ...

    def live_game(self) -> Game | None:
        """The game, while it is played and people can reach the table."""
        ...

    async def computer_move(self, move: Move) -> None:
        """Save `move` and tell it (under the lock); raises if that failed."""
        ...

    async def step(self, action: Callable[[], Awaitable[None]],
                   retry: Callable[[float], None]) -> bool:
        """Run `action`; False if its save failed (`retry` is then arranged)."""
        ...


class BotDriver:
    def __init__(self, table: Driven, table_id: int, clock: ClockSource, clocks: TableClocks,
                 executor: Executor | None, pause: float, slots: Slots | None = None) -> None:
        self._table, self._id = table, table_id
        self._slots = slots or Slots(lambda: None)  # past capacity, moves take turns
        self._clock, self._clocks = clock, clocks
        self._executor, self._pause = executor, pause
        self._bots: dict[int, Bot] = {}
        self.task: asyncio.Task[None] | None = None  # the computers' turns, while they run

    def seat(self, seats: Sequence[SeatInfo], seed: int) -> None:
        """The game starts (or resumes): a computer player for each computer
        seat, seeded by the table so a restart brings back the same ones."""
        self._bots = {s.index: make_bot(s.level or "normal", hash((seed, s.index)))
                      for s in seats if s.is_bot}

    def wake(self) -> None:
        """Look for computer turns (again); does nothing while it looks already."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._drive())

    async def close(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def _drive(self) -> None:
        try:
            while await self._take_turn():
                pass
        except asyncio.CancelledError:
            raise
        except Exception:
            log_failure(log, logging.ERROR, "table %s: a computer player failed", self._id)

    async def _take_turn(self) -> bool:
        """One computer decision; False when there is none to take, or its
        save failed (it is tried again later)."""
        game = self._table.live_game()
        work = self._work(game) if game is not None else None
        if game is None or work is None:
            return False  # computers wait out an outage with everyone else
        moment, seats, window = work
        # The same pause before every computer decision shows, a pass in the
        # vuile was window included: its timing must not depend on its cards,
        # nor on how long its thinking took (the pause includes it).
        started = self._clock.now()
        decisions = await self._decide(game, seats)
        thought = (self._clock.now() - started).total_seconds()
        await self._clock.sleep(max(0.0, self._pause - thought))
        table = self._table
        # The slot before the lock, as a click's move (tables/slots.py).
        async with self._slots.hold(urgent=True), table.lock:
            game = table.live_game()
            if moment != table.moment or game is None:
                return True  # the moment passed, or an outage began: look again
            move = self._move(game, decisions, window)
            return await table.step(lambda: table.computer_move(move),
                                    lambda delay: self._clocks.later(delay, self._wake_now))

    async def _wake_now(self) -> None:
        self.wake()

    def _work(self, game: Game) -> tuple[str, list[int], bool] | None:
        """The moment, the computer seats that decide in it, and whether it is a window."""
        waiting, passed = game.waiting(), self._table.passed
        if waiting.window and game.phase is Phase.WINDOW and set(waiting.seats) <= passed:
            return self._table.moment, [], True  # all passed, but closing failed to save
        bots = [s for s in waiting.seats if s in self._bots and s not in passed]
        if not bots:
            return None
        return self._table.moment, (bots if waiting.window else bots[:1]), waiting.window

    async def _decide(self, game: Game, seats: list[int]) -> Decisions:
        views = [(s, seat_view(game, s)) for s in seats]

        def run() -> Decisions:
            return [(s, self._bots[s].decide(v)) for s, v in views]

        return await asyncio.get_running_loop().run_in_executor(self._executor, run)

    def _move(self, game: Game, decisions: Decisions, window: bool) -> Move:
        """The first legal decision, or what stands in for an illegal one: the
        first legal event on a turn, silence in a window (R17)."""
        passing: list[int] = []
        for seat, event in decisions:
            if event is not None and game.can(event):
                return event
            if event is not None:
                # Its card is the seat's secret: named at DEBUG only.
                log.warning("table %s: computer seat %d chose an illegal %s", self._id, seat,
                            event.do)
                log.debug("table %s: the illegal event was %s", self._id, event)
            if not window:
                return game.legal_events(seat)[0]
            answer = silent_answer(game, seat)  # believe / no; a pass in the moment
            if answer is not None:
                return answer
            passing.append(seat)
        return passing
