"""One live table: the face the cogs, the manager and the presenter see.

It holds the table's lock and status, starts and ends the game, and tells
its listener after every change. The rest is done by pieces it holds, each
behind a small interface: the lobby (tables/lobby.py), the journal that
saves and rolls back (tables/journal.py), play (tables/play.py), the clocks
(tables/timekeeper.py), the computer players (tables/bot_driver.py) and the
retries of failed saves (tables/save_retry.py). Those that call back into
the table do so through the protocols they declare (`Played`, `Timed`,
`Driven`).

Every change happens under the table's lock, so two clicks that race are
applied one after the other and the second is judged against the new state.
An event reaches the database before any listener hears of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TypeVar

from data import bans, games
from data.games import Game as GameRow
from data.games import LoadedGame
from engine import events as ev
from engine.cards import Card
from engine.events import Event, Happening
from engine.game import Game
from engine.rules import TableRules
from engine.views import public_view, seat_view
from tables.bot_driver import BotDriver, Move
from tables.errors import Refusal, TableFailure
from tables.journal import Journal
from tables.lobby import Lobby, seat_row
from tables.log_safe import log_failure
from tables.play import Play
from tables.save_retry import Retries
from tables.snapshot import (
    Clock,
    SeatInfo,
    SeatUpdate,
    Status,
    TableSnapshot,
    decision_stamp,
    stamp_of,
)
from tables.table_deps import TableConfig, TableDeps, TableListener
from tables.timekeeper import Timekeeper, decision_seconds

# The deps are in tables/table_deps.py; importing them from here still works.
__all__ = ["Table", "TableConfig", "TableDeps", "TableListener"]

log = logging.getLogger(__name__)
T = TypeVar("T")

GAME_VERBS = frozenset({ev.PLAY, ev.TOEP, ev.CALL, ev.FOLD, ev.VUILE_WAS, ev.CHECK, ev.BELIEVE,
                        ev.PLAY_IN, ev.SIT_OUT, ev.SUPER_YES, ev.SUPER_NO, "pass"})


class Table:
    def __init__(self, row: GameRow, seats: Sequence[SeatInfo], invited: set[int],
                 deps: TableDeps) -> None:
        self.row = row
        self.id = row.id
        self.deps = deps
        self.status = Status(row.status)
        self.lobby = Lobby(row, seats, invited, deps.db, deps.clock)
        self.lock = asyncio.Lock()
        # People's clicks at this table, acknowledged and waiting to be played:
        # a clock that runs out meanwhile waits for them (tables/timekeeper.py).
        self.clicks_waiting = 0
        self.journal = Journal(row.id, row.seed, deps.db, deps.writer, deps.config.recent)
        self.humans_at_start = 0
        self.end_reason: str | None = None
        self.on_closed: Callable[[Table], None] | None = None  # the manager forgets it
        # Told once, when the lobby starts or closes (its invitations go).
        self.on_lobby_over: Callable[[Table], None] | None = None
        # The pieces: each gets only what it needs (the clocks' timers are shared).
        self.time = Timekeeper(self, row.id, deps.clock, deps.config, row.created_at,
                               deps.reach.shows)
        self.clocks = self.time.clocks
        self.retries = Retries(row.id, deps.config.save_give_up, deps.clock, self.clocks)
        self.play = Play(self, self.journal, row.guild_id, deps.clock)
        self.driver = BotDriver(self, row.id, deps.clock, self.clocks, deps.executor,
                                deps.config.bot_pause, deps.slots)

    # --- reading --------------------------------------------------------------------

    @property
    def game(self) -> Game | None:
        return self.journal.game

    @game.setter
    def game(self, game: Game | None) -> None:
        self.journal.game = game

    @property
    def seats(self) -> list[SeatInfo]:
        return self.lobby.seats

    @property
    def invited(self) -> set[int]:
        return self.lobby.invited

    @property
    def rules(self) -> TableRules:
        return self.lobby.rules

    @property
    def passed(self) -> set[int]:
        """The seats that let the open window pass."""
        return self.play.passed

    @passed.setter
    def passed(self, seats: set[int]) -> None:
        self.play.passed = seats

    @property
    def recent(self) -> deque[Happening]:
        """The last happenings, for the table message's "what happened" lines."""
        return self.journal.recent

    @property
    def open(self) -> bool:
        return self.status in (Status.LOBBY, Status.PLAYING)

    @property
    def stamp(self) -> str:
        """What a game button must carry to count: the decision it answers."""
        return decision_stamp(self.game) if self.game else "0"

    @property
    def moment(self) -> str:
        """Moves on with every event: each answer, even to a decision that
        several seats share, gives the seats still deciding a fresh clock,
        and a computer's decision counts only if nothing happened meanwhile."""
        return stamp_of(len(self.game.events)) if self.game else "0"

    @property
    def event_count(self) -> int:
        return len(self.game.events) if self.game else -1

    @property
    def deadline(self) -> datetime | None:
        return self.clocks.deadline

    @property
    def reachable(self) -> bool:
        """Whether people can reach this table through Discord right now."""
        return self.deps.reach.reachable(self.row.guild_id)

    @property
    def clock_seconds(self) -> int:
        return self.deps.config.public_clock if self.row.public else self.rules.clock

    @property
    def forfeits_count(self) -> bool:
        """R19: a forfeit counts toward a ban only at a public table, in a
        game that began with two or more people."""
        return self.row.public and self.humans_at_start >= 2

    def seat_of(self, user_id: int) -> int | None:
        return self.lobby.seat_of(user_id)

    def snapshot(self) -> TableSnapshot:
        game = self.game
        view = public_view(game) if game else None
        clock = None
        if game and not game.over:
            waiting = game.waiting()
            clock = Clock(waiting.seats, self.deadline, waiting.window, not self.reachable,
                          self.clocks.held)
        return TableSnapshot(
            table_id=self.id, guild_id=self.row.guild_id, channel_id=self.row.channel_id,
            host_id=self.row.host_id, public=self.row.public, rules=self.rules,
            status=self.status, seats=tuple(self.seats), invited=frozenset(self.invited),
            view=view, clock=clock, passed=frozenset(self.passed), recent=tuple(self.recent),
            stamp=self.stamp, end_reason=self.end_reason,
            removed=tuple(self.lobby.removed) if self.status is Status.LOBBY else (),
            ratings=self.journal.rating_changes)

    def seat_update(self, seat: int, your_turn: bool = False) -> SeatUpdate | None:
        info = self.seats[seat]
        if self.game is None or info.user_id is None:
            return None
        return SeatUpdate(seat, info.user_id, seat_view(self.game, seat), your_turn)

    # --- the lobby (tables/lobby.py) -------------------------------------------------

    async def join(self, user_id: int, name: str) -> None:
        await self._in_lobby(lambda: self.lobby.join(user_id, name))

    async def leave(self, user_id: int) -> None:
        """Leave a lobby seat; in a game, walking out forfeits (R16)."""
        async with self.lock:
            seat = self._seat(user_id)
            if self.status is Status.PLAYING:
                await self.play.forfeit(seat, "walkout")
                return
            self._require(Status.LOBBY)
            await self.lobby.leave(seat)
            await self._notify(())

    async def add_bot(self, user_id: int, level: str) -> None:
        await self._in_lobby(lambda: self.lobby.add_bot(user_id, level))

    async def remove_bot(self, user_id: int, seat: int) -> None:
        await self._in_lobby(lambda: self.lobby.remove_bot(user_id, seat))

    async def remove(self, user_id: int, seat: int, target: int | None) -> SeatInfo:
        """The host takes a person or a computer player off the lobby."""
        return await self._in_lobby(lambda: self.lobby.remove(user_id, seat, target))

    async def invite(self, user_id: int, target_id: int) -> bool:
        """The host invites a member to a private lobby; True if newly invited."""
        return await self._in_lobby(lambda: self.lobby.invite(user_id, target_id))

    async def uninvite(self, user_id: int, target_id: int) -> None:
        await self._in_lobby(lambda: self.lobby.uninvite(user_id, target_id))

    async def change_rules(self, user_id: int, rules: TableRules) -> None:
        async def change() -> None:
            await self.lobby.change_rules(user_id, rules)
            self.row = replace(self.row, rules=rules.to_json())

        await self._in_lobby(change)

    async def _in_lobby(self, change: Callable[[], Awaitable[T]]) -> T:
        """A change of the lobby, under the lock; told once it is saved."""
        async with self.lock:
            self._require(Status.LOBBY)
            result = await change()
            await self._notify(())
            return result

    async def cancel(self, user_id: int | None, reason: str = "cancelled") -> None:
        """The host cancels the lobby (`user_id` None: the lobby timed out)."""
        async with self.lock:
            self._require(Status.LOBBY)
            if user_id is not None:
                self.lobby.require_host(user_id)
            await self._cancel_lobby(reason)

    async def _cancel_lobby(self, reason: str) -> None:
        await games.cancel_game(self.deps.db, self.id, self.deps.clock.now())
        self.status = Status.CANCELLED
        self.end_reason = reason
        self._stop_timers()
        await self._notify(())

    async def lose_channel(self, reason: str) -> None:
        """The table's channel is gone ("channel_gone"), or the bot may no
        longer post there ("no_permission"): the game ends unrated and nobody
        forfeits (R19 counts nothing); a lobby is cancelled."""
        async with self.lock:
            if self.status is Status.LOBBY:
                await self._cancel_lobby(reason)
            elif self.status is Status.PLAYING:
                log.info("table %s: %s; the game ends unrated", self.id, reason)
                await self._abandon(reason)

    async def start(self, user_id: int) -> None:
        async with self.lock:
            self._require(Status.LOBBY)
            await self.lobby.check_start(user_id, self.deps.config.computers_only)
            self.row = await self.journal.start(
                self.rules, [seat_row(s) for s in self.seats], self.deps.clock.now())
            self.status = Status.PLAYING
            self._begin_play()
            self.time.human_acted()
            await self._after_change(self._game().opening)

    async def resume(self, loaded: LoadedGame) -> None:
        """After a restart: the game replayed from its log, a fresh full clock
        for the decision on hand (nobody forfeits because the bot was down)."""
        async with self.lock:
            game = self.journal.resume(loaded)
            self._begin_play()
            if game.over:  # its result was not saved before the restart
                await self._finish()
                return
            self.rearm()
            await self._notify(())
            self.driver.wake()

    async def announce(self) -> None:
        """Tell the listener about the table as it is (a new or restored lobby)."""
        async with self.lock:
            await self._notify(())

    def _begin_play(self) -> None:
        self.clocks.stop_lobby()
        self.humans_at_start = sum(1 for s in self.seats if not s.is_bot)
        self.driver.seat(self.seats, self.row.seed)
        self.play.begin(self.seats, self.forfeits_count)

    # --- playing ----------------------------------------------------------------------

    async def act(self, user_id: int, verb: str, card: Card | None = None,
                  stamp: str | None = None) -> None:
        """A seated person's decision. Raises Refusal; nothing changes then."""
        async with self.lock:
            self._require(Status.PLAYING)
            seat = self._seat(user_id)
            if stamp is not None and stamp != self.stamp:
                raise Refusal("moment_passed")
            if verb not in GAME_VERBS:
                raise Refusal("unknown_action", verb=verb)
            self.time.human_acted()
            try:
                await self.play.act(seat, verb, card)
            except TableFailure:
                # They acted in time and our storage failed them: they may
                # try again with the whole clock, as after an outage.
                self.rearm()
                await self._notify(())  # the table shows the new deadline
                raise

    def live_game(self) -> Game | None:
        """The game, while it is played and people can reach the table."""
        game = self.game
        if (self.status is not Status.PLAYING or game is None or game.over or not self.reachable
                or self.time.unshown):
            return None  # computers wait too: people come back to the game as they left it
        return game

    async def computer_move(self, move: Move) -> None:
        await self.play.computer_move(move)

    async def walk_out(self, user_id: int) -> None:
        async with self.lock:
            self._require(Status.PLAYING)
            await self.play.forfeit(self._seat(user_id), "walkout")

    async def end(self, reason: str = "admin") -> None:
        """An admin ends the table, or nobody acted for too long: unrated,
        nobody forfeits."""
        async with self.lock:
            if self.status is Status.LOBBY:
                await games.cancel_game(self.deps.db, self.id, self.deps.clock.now())
                self.status = Status.CANCELLED
            else:
                self._require(Status.PLAYING)
                await self.journal.save_end(self.deps.clock.now())
                self.status = Status.ENDED
            self.end_reason = reason
            self._stop_timers()
            await self._notify(())

    # --- write-ahead ------------------------------------------------------------------

    async def commit(self, events: Sequence[Event],
                     forfeit: bans.Forfeit | None = None) -> None:
        """Apply and save (the journal), and only then tell anyone."""
        try:
            happenings = await self.journal.commit(events, forfeit)
        except TableFailure as failure:
            if failure.caught_up:  # the game moved on in the database: shown as it is
                await self._after_change(())
            raise
        await self._after_change(happenings)

    async def _after_change(self, happenings: Sequence[Happening]) -> None:
        game = self._game()
        self.passed.clear()
        if game.over:
            await self._finish()
            return
        self.time.decision_changed()
        await self._notify(happenings, new_decision=True)
        self.driver.wake()

    async def _finish(self) -> None:
        """Save the results. Until that succeeds the table stays "playing",
        in memory as in the database (its last event is saved): a failed save
        is tried again after a growing pause, and a restart finishes it too."""
        self._stop_timers()
        rated = self.row.public and self.humans_at_start >= 2
        if await self.retries.until_saved(
                lambda: self.journal.save_result(self.seats, rated, self.deps.clock.now()),
                "the result", self._retry_finish):
            self.status = Status.FINISHED
        await self._notify(tuple(self.recent)[-1:])  # the last move (meanwhile: unsaved)

    async def _retry_finish(self) -> None:
        async with self.lock:
            if self.status is Status.PLAYING and self.game is not None and self.game.over:
                await self._finish()

    async def _notify(self, happenings: Sequence[Happening], new_decision: bool = False) -> None:
        updates = []
        waiting = self.game.waiting().seats if self.game and not self.game.over else ()
        for info in self.seats:
            update = self.seat_update(info.index, new_decision and info.index in waiting)
            if update is not None:
                updates.append(update)
        try:
            await self.deps.listener.table_changed(self, self.snapshot(), updates, happenings)
        except Exception:
            log_failure(log, logging.ERROR, "table %s: the listener failed", self.id)
        if self.status is not Status.LOBBY and self.on_lobby_over is not None:
            over, self.on_lobby_over = self.on_lobby_over, None
            over(self)
        if not self.open and self.on_closed is not None:
            self.on_closed(self)  # its last state is with the listener: it may go

    # --- clocks (tables/timekeeper.py) -----------------------------------------------

    @contextlib.contextmanager
    def click_waiting(self) -> Iterator[None]:
        """A person's click, acknowledged, until it is played or refused."""
        self.clicks_waiting += 1
        try:
            yield
        finally:
            self.clicks_waiting -= 1

    def decision_seconds(self) -> float | None:
        game = self.game
        if game is None or game.over:
            return None
        computers = [s.index for s in self.seats if s.is_bot]
        seconds = decision_seconds(game, computers, self.clock_seconds, self.rules.window)
        # Past capacity the question reaches the players late: the clock gives it back.
        return None if seconds is None else seconds + self.deps.clock_grace()

    async def time_ran_out(self, retry: Callable[[float], None]) -> None:
        lost = self.deps.reach.channel_lost(self.row.guild_id, self.row.channel_id)
        if lost is not None:  # nobody could have seen this clock: nobody forfeits
            await self._abandon(lost)
            return
        await self.step(self.play.time_out, retry)

    def shown(self, event_count: int, start: datetime, late: bool = False) -> None:
        """The listener's table message showing `event_count` events reached
        Discord: a clock waiting for it runs (tables/timekeeper.py)."""
        if self.time.shown(event_count, start, late) and self.open:
            # It showed an earlier deadline than the one that runs: shown again.
            self.time.task = asyncio.get_running_loop().create_task(self._show_locked())

    def reached(self) -> None:
        """Discord took a request for this table again (a hand panel's edit):
        a clock held for a failed one runs on, if its message showed it."""
        self.shown(-1, self.deps.clock.now())

    def show_failed(self) -> None:
        """Edits for this table (its message, a hand panel) fail: its clock
        waits, keeping its time."""
        self.time.show_failed()

    async def _show_locked(self) -> None:
        async with self.lock:
            if self.open:
                await self._notify(())

    def rearm(self) -> None:
        """After a restart or an outage: the decision on hand gets a fresh, full clock."""
        self.time.rearm()

    def arm_lobby_timeout(self) -> None:
        self.time.arm_lobby()

    def reach_changed(self) -> None:
        """An outage began or ended for this table (the manager hears of it)."""
        self.time.reach_changed()

    async def show(self) -> None:
        await self._notify(())

    def wake_computers(self) -> None:
        self.driver.wake()

    def _stop_timers(self) -> None:
        self.clocks.stop_all()
        self.driver.wake()

    # --- failing saves ------------------------------------------------------------------

    async def step(self, action: Callable[[], Awaitable[None]],
                   retry: Callable[[float], None]) -> bool:
        """A step the table takes on its own, a clock that ran out or a
        computer's move (under the lock); False if it could not be saved
        (tables/save_retry.py). Saves that fail for too long end the game."""
        return await self.retries.step(action, retry, self._save_failed)

    async def _save_failed(self) -> None:
        log.error("table %s: nothing could be saved for %s; the game ends unrated",
                  self.id, self.deps.config.save_give_up)
        await self._abandon("save_failed")

    async def _abandon(self, reason: str) -> None:
        """End the game unrated, nobody forfeiting (under the lock), even if
        the database will not hear of it yet: the channel shows why."""
        self.status, self.end_reason = Status.ENDED, reason
        self._stop_timers()
        await self._notify(())
        await self._save_end()

    async def _save_end(self) -> None:
        await self.retries.until_saved(lambda: self.journal.save_end(self.deps.clock.now()),
                                       "its end", self._save_end)

    async def settled(self) -> None:
        """Wait until the computer players have nothing left to do for now."""
        while True:
            task = next((t for t in (self.time.task, self.driver.task)
                         if t is not None and not t.done()), None)
            if task is not None:
                await asyncio.wait([task])
            elif self.lock.locked():
                async with self.lock:
                    pass
            else:
                return

    async def close(self) -> None:
        """Stop every timer and the computer players (shutting down)."""
        await self.time.close()
        await self.driver.close()

    # --- small helpers --------------------------------------------------------------

    def _game(self) -> Game:
        return self.journal.in_play()

    def _require(self, status: Status) -> None:
        if self.status is not status:
            raise Refusal("table_" + self.status.value)

    def _seat(self, user_id: int) -> int:
        seat = self.seat_of(user_id)
        if seat is None:
            raise Refusal("not_seated")
        return seat
