"""A table's clocks: which decision gets a clock and for how long (R16-R18),
the idle end, the lobby's timeout, and what an outage does to them.

The timers are `TableClocks`; the table (`Timed`) says what happens when one
runs out. Every clock that runs out checks, under the table's lock, that its
moment is still on hand and that people can reach the table: a forfeit for
time always means a whole clock ran while the bot could hear the player.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Collection
from datetime import datetime, timedelta
from typing import Protocol

from engine.game import Game
from tables.clock import ClockSource
from tables.errors import Refusal
from tables.snapshot import Status
from tables.table_clocks import TableClocks
from tables.table_deps import TableConfig

log = logging.getLogger(__name__)
OPEN = (Status.LOBBY, Status.PLAYING)
# A clock that runs out while a person's click waits its turn to be played
# (acknowledged, past capacity waiting for a slot) looks again this often, for
# at most CLICKS_WAITED_FOR past its deadline: the click reached the bot in
# time, and its being late to be played is the bot's doing.
CLICK_RECHECK = 0.25
CLICKS_WAITED_FOR = timedelta(seconds=10)


def decision_seconds(game: Game, computers: Collection[int], turn: int,
                     window: int) -> int | None:
    """The clock the decision on hand gets; None: no clock runs (nobody but
    computers decides, or R18: a lone person against computer players)."""
    waiting = game.waiting()
    if all(s in computers for s in waiting.seats):
        return None
    if waiting.window:
        return window
    people_in = sum(1 for s in range(game.n) if s not in computers and not game.out[s])
    computers_in = any(not game.out[s] for s in computers)
    return None if people_in == 1 and computers_in else turn


class Timed(Protocol):
    """What the clocks need of their table."""

    lock: asyncio.Lock
    status: Status
    clicks_waiting: int  # people's clicks acknowledged, not yet played

    @property
    def moment(self) -> str: ...

    @property
    def reachable(self) -> bool: ...

    @property
    def event_count(self) -> int:
        """The game's events so far (-1 without a game)."""
        ...

    def decision_seconds(self) -> float | None:
        """The clock the decision on hand gets (`decision_seconds`); None
        also when no game is in play."""
        ...

    async def time_ran_out(self, retry: Callable[[float], None]) -> None:
        """The decision on hand ran out of time (under the lock); `retry(delay)`
        brings it back if saving what that means failed."""
        ...

    async def end(self, reason: str = ...) -> None: ...

    async def cancel(self, user_id: int | None, reason: str = ...) -> None: ...

    async def show(self) -> None:
        """Tell the listener the table as it is now (under the lock)."""
        ...

    def wake_computers(self) -> None: ...


class Timekeeper:
    def __init__(self, table: Timed, table_id: int, clock: ClockSource, config: TableConfig,
                 created_at: datetime, shows: bool = False) -> None:
        self._table, self._id = table, table_id
        self._clock, self._config, self._created_at = clock, config, created_at
        self.clocks = TableClocks(clock)
        self._reached = table.reachable
        self.task: asyncio.Task[None] | None = None  # applying an outage's start or end
        # `shows`: a listener tells when the table message reached Discord.
        self._shows = shows
        self._shown_count = -1  # the event count the table message last showed
        self.unshown = False  # edits to the table message fail now

    def decision_changed(self) -> None:
        """A fresh clock for each new decision (the moment moved on); held
        until the table message shows it."""
        seconds = self._table.decision_seconds() if self._table.reachable else None
        held = self._shows and (self.unshown or self._shown_count < self._table.event_count)
        self.clocks.arm_decision(self._table.moment, seconds, self._decision_timed_out, held)

    def shown(self, event_count: int, start: datetime, late: bool = False) -> bool:
        """The table message showing the game at `event_count` events reached
        Discord: a clock held for it runs, counted from `start` (when what it
        shows was drawn; `late`: it took so long to land that the clock
        counts from now, later than it showed). True if the table must be
        shown again: the deadline it showed is not the one that runs."""
        if not self._shows:
            return False
        was_unshown, self.unshown = self.unshown, False
        self._shown_count = max(self._shown_count, event_count)
        released = None
        if (self.clocks.held is not None and self._shown_count >= self._table.event_count
                and self._table.status is Status.PLAYING):
            released = self.clocks.release(start)
        if was_unshown and self._table.status is Status.PLAYING:
            log.info("table %s: its message is shown again; its clock runs on", self._id)
            self.human_acted()  # the idle end runs again, in full
            self._table.wake_computers()
        return late and released is not None

    def show_failed(self) -> None:
        """Edits for the table fail (a REST outage): its clock waits,
        keeping the time it has left, and so do the idle end and the
        computer players, until an edit lands (`shown`)."""
        if not self._shows or self.unshown:
            return
        self.unshown = True
        if self._table.status is Status.PLAYING:
            log.info("table %s: its message cannot be shown; its clock waits", self._id)
        self.clocks.hold()
        self.clocks.stop_idle()

    def rearm(self) -> None:
        """After a restart or an outage: the decision on hand gets a fresh, full clock."""
        self.clocks.forget_decision()
        self.decision_changed()
        self.human_acted()

    def human_acted(self) -> None:
        """A person acted: the idle end moves on."""
        if self._table.reachable and not self.unshown:
            self.clocks.touch_idle(self._config.idle_timeout, self._idle_timed_out)
        else:
            self.clocks.stop_idle()

    def arm_lobby(self) -> None:
        if not self._table.reachable:  # armed once people can reach it (`reach_changed`)
            return
        # After an outage or a restart a lobby gets a moment more, whatever its age.
        when = self._created_at + self._config.lobby_timeout
        grace = self._clock.now() + self._config.lobby_grace
        self.clocks.arm_lobby(max(when, grace), self._lobby_timed_out)

    def reach_changed(self) -> None:
        """An outage began or ended for this table: stop its clocks, or give
        the decision on hand its full clock back."""
        reachable = self._table.reachable
        if reachable == self._reached or self._table.status not in OPEN:
            return
        self._reached = reachable
        # Not awaited here: the lock may be held; `_apply_reach` reads the reach again.
        self.task = asyncio.get_running_loop().create_task(self._apply_reach())

    async def close(self) -> None:
        self.clocks.stop_all()
        if self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def _decision_timed_out(self, moment: str, generation: int) -> None:
        table = self._table
        async with table.lock:
            if (table.status is not Status.PLAYING or moment != table.moment
                    or not self.clocks.current(generation) or not table.reachable
                    or self.unshown):
                return  # the moment passed, or an outage stopped this clock
            if self._click_on_its_way():
                self.clocks.retry_decision(CLICK_RECHECK, moment, self._decision_timed_out)
                return
            await table.time_ran_out(lambda delay: self.clocks.retry_decision(
                delay, moment, self._decision_timed_out))

    def _click_on_its_way(self) -> bool:
        """A person's click waits to be played, and the clock ran out not long ago."""
        deadline = self.clocks.deadline
        return (self._table.clicks_waiting > 0 and deadline is not None
                and self._clock.now() < deadline + CLICKS_WAITED_FOR)

    async def _idle_timed_out(self) -> None:
        if self._table.status is Status.PLAYING and self._table.reachable and not self.unshown:
            log.info("table %s: nobody acted for %s; ending it", self._id,
                     self._config.idle_timeout)
            await self._table.end("idle")

    async def _lobby_timed_out(self) -> None:
        if self._table.status is Status.LOBBY and self._table.reachable:
            with contextlib.suppress(Refusal):  # started or cancelled meanwhile
                await self._table.cancel(None, "lobby_timeout")

    async def _apply_reach(self) -> None:
        table = self._table
        async with table.lock:
            reachable = table.reachable
            if table.status is Status.LOBBY:
                if reachable:
                    self.arm_lobby()
                else:
                    self.clocks.stop_lobby()
                return
            if table.status is not Status.PLAYING:
                return
            if reachable:
                self.rearm()
                await table.show()
            else:
                self.clocks.forget_decision()
                self.clocks.stop_idle()
                # Shown once the outage lasts: Discord's routine reconnects (a
                # second or so) would edit every table twice for nothing.
                self.clocks.arm_notice(self._config.pause_notice, self._show_pause)
        if reachable:
            table.wake_computers()

    async def _show_pause(self) -> None:
        async with self._table.lock:
            if self._table.status is Status.PLAYING and not self._table.reachable:
                await self._table.show()
