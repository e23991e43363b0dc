"""One live table: lobby, seats, the table lock, turn clocks and windows,
computer turns, write-ahead persistence, and updates to a listener.

Every change happens under the table's lock, so two clicks that race are
applied one after the other and the second is judged against the new state.
An event reaches the database before any listener hears of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Protocol

from data import bans, games, stats
from data.db import Database
from data.games import Game as GameRow
from data.games import LoadedGame, Seat, SeatResult
from data.group_commit import LogWriter
from engine import events as ev
from engine.bots import make_bot
from engine.cards import Card
from engine.errors import IllegalEvent
from engine.events import Event, Happening
from engine.game import Game, Phase
from engine.record import to_record
from engine.rules import TableRules
from engine.silence import everyone_silent, silent_answer
from engine.views import public_view, seat_view
from tables.bot_driver import BotDriver, Move
from tables.clock import ClockSource
from tables.errors import Refusal
from tables.journal import Journal
from tables.log_safe import log_failure
from tables.outage import Reach
from tables.results import results
from tables.save_retry import LONGEST_PAUSE, SaveTrouble
from tables.snapshot import (
    Clock,
    SeatInfo,
    SeatUpdate,
    Status,
    TableSnapshot,
    decision_stamp,
    stamp_of,
)
from tables.table_clocks import TableClocks

log = logging.getLogger(__name__)

GAME_VERBS = frozenset({ev.PLAY, ev.TOEP, ev.CALL, ev.FOLD, ev.VUILE_WAS, ev.CHECK, ev.BELIEVE,
                        ev.PLAY_IN, ev.SIT_OUT, ev.SUPER_YES, ev.SUPER_NO, "pass"})
TURN_PHASES = frozenset({Phase.PLAY, Phase.TOEP_ANSWER, Phase.DEAD_MAN_CHOICE})


@dataclass(frozen=True)
class TableConfig:
    bot_pause: float = 1.2  # seconds before a computer's turn shows: readable, not instant
    lobby_timeout: timedelta = timedelta(minutes=15)
    idle_timeout: timedelta = timedelta(minutes=10)
    public_clock: int = 20  # R16: public tables
    recent: int = 8  # happenings kept for the table message
    computers_only: bool = False  # benches may start tables without a person
    save_give_up: timedelta = timedelta(minutes=3)  # a game that cannot be saved ends
    lobby_grace: timedelta = timedelta(minutes=2)  # a lobby's time after an outage
    pause_notice: timedelta = timedelta(seconds=3)  # an outage shows after this long


class TableListener(Protocol):
    async def table_changed(self, table: Table, snap: TableSnapshot,
                            updates: Sequence[SeatUpdate],
                            happenings: Sequence[Happening]) -> None:
        """Called after every committed change, under the table's lock: must
        not block (schedule the Discord work, don't await it here)."""
        ...


@dataclass
class TableDeps:
    db: Database
    clock: ClockSource
    listener: TableListener
    executor: Executor | None = None
    config: TableConfig = TableConfig()
    reach: Reach = field(default_factory=lambda: Reach(always=True))
    writer: LogWriter = field(init=False)

    def __post_init__(self) -> None:
        self.writer = LogWriter(self.db)  # one group commit for all tables


class Table:
    def __init__(self, row: GameRow, seats: Sequence[SeatInfo], invited: set[int],
                 deps: TableDeps) -> None:
        self.row = row
        self.id = row.id
        self.rules = TableRules.from_json(row.rules)
        self.deps = deps
        self.status = Status(row.status)
        self.seats = list(seats)
        self.invited = invited
        self.lock = asyncio.Lock()
        self.journal = Journal(row.id, row.seed, deps.db, deps.writer, deps.config.recent)
        self.humans_at_start = 0
        self.passed: set[int] = set()
        self.end_reason: str | None = None
        self.clocks = TableClocks(deps.clock)
        self._trouble = SaveTrouble(deps.config.save_give_up)
        self._reached = self.reachable
        self._reach_task: asyncio.Task[None] | None = None
        self.on_closed: Callable[[Table], None] | None = None  # the manager forgets it
        self.driver = BotDriver(self, row.id, deps.clock, self.clocks, deps.executor,
                                deps.config.bot_pause)

    # --- reading --------------------------------------------------------------------

    @property
    def game(self) -> Game | None:
        return self.journal.game

    @game.setter
    def game(self, game: Game | None) -> None:
        self.journal.game = game

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
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.index
        return None

    def snapshot(self) -> TableSnapshot:
        game = self.game
        view = public_view(game) if game else None
        clock = None
        if game and not game.over:
            waiting = game.waiting()
            clock = Clock(waiting.seats, self.deadline, waiting.window, not self.reachable)
        return TableSnapshot(
            table_id=self.id, guild_id=self.row.guild_id, channel_id=self.row.channel_id,
            host_id=self.row.host_id, public=self.row.public, rules=self.rules,
            status=self.status, seats=tuple(self.seats), invited=frozenset(self.invited),
            view=view, clock=clock, passed=frozenset(self.passed), recent=tuple(self.recent),
            stamp=self.stamp, end_reason=self.end_reason)

    def seat_update(self, seat: int, your_turn: bool = False) -> SeatUpdate | None:
        info = self.seats[seat]
        if self.game is None or info.user_id is None:
            return None
        return SeatUpdate(seat, info.user_id, seat_view(self.game, seat), your_turn)

    # --- the lobby ----------------------------------------------------------------------

    async def join(self, user_id: int, name: str) -> None:
        async with self.lock:
            self._require(Status.LOBBY)
            if self.seat_of(user_id) is not None:
                raise Refusal("already_seated")
            if len(self.seats) >= self.rules.max_players:
                raise Refusal("table_full", max=self.rules.max_players)
            if not self.row.public and user_id != self.row.host_id and (
                    user_id not in self.invited):
                raise Refusal("invited_only")
            seat = SeatInfo(len(self.seats), user_id, None, name)
            await self._refuse_banned([seat], user_id)
            await self._save_lobby([*self.seats, seat])

    async def leave(self, user_id: int) -> None:
        """Leave a lobby seat; in a game, walking out forfeits (R16)."""
        async with self.lock:
            seat = self._seat(user_id)
            if self.status is Status.PLAYING:
                await self._forfeit(seat, "walkout")
                return
            self._require(Status.LOBBY)
            await self._save_lobby(self._without_seat(seat))

    async def add_bot(self, user_id: int, level: str) -> None:
        async with self.lock:
            self._require(Status.LOBBY)
            self._require_host(user_id)
            if len(self.seats) >= self.rules.max_players:
                raise Refusal("table_full", max=self.rules.max_players)
            make_bot(level)  # refuses an unknown level
            number = 1 + sum(1 for s in self.seats if s.is_bot)
            await self._save_lobby(
                [*self.seats, SeatInfo(len(self.seats), None, level, f"Bot {number}")])

    async def remove_bot(self, user_id: int, seat: int) -> None:
        async with self.lock:
            self._require(Status.LOBBY)
            self._require_host(user_id)
            if not 0 <= seat < len(self.seats) or not self.seats[seat].is_bot:
                raise Refusal("not_a_bot_seat", seat=seat)
            await self._save_lobby(self._without_seat(seat))

    async def invite(self, user_id: int, target_id: int) -> bool:
        """The host invites a member to a private lobby; True if newly invited."""
        async with self.lock:
            self._require_private_lobby(user_id)
            new = target_id not in self.invited
            if new:
                await games.add_invites(self.deps.db, self.id, [target_id])
                self.invited.add(target_id)
            await self._notify(())
            return new

    async def uninvite(self, user_id: int, target_id: int) -> None:
        """The host withdraws an invite; an invited member seated in the lobby
        leaves their seat with it."""
        async with self.lock:
            self._require_private_lobby(user_id)
            if target_id == self.row.host_id or target_id not in self.invited:
                raise Refusal("not_invited")
            await games.remove_invite(self.deps.db, self.id, target_id)
            self.invited.discard(target_id)
            seat = self.seat_of(target_id)
            if seat is not None:
                await self._save_lobby(self._without_seat(seat))
            else:
                await self._notify(())

    async def change_rules(self, user_id: int, rules: TableRules) -> None:
        """The host of a private lobby changes its house rules before the start."""
        async with self.lock:
            self._require_private_lobby(user_id, "rules_public")
            if len(self.seats) > rules.max_players:
                raise Refusal("table_full", max=rules.max_players)
            await games.set_rules(self.deps.db, self.id, rules.to_json())
            self.rules = rules
            self.row = replace(self.row, rules=rules.to_json())
            await self._notify(())

    def _require_private_lobby(self, user_id: int, public: str = "invite_public") -> None:
        self._require(Status.LOBBY)
        self._require_host(user_id)
        if self.row.public:
            raise Refusal(public)

    async def cancel(self, user_id: int | None, reason: str = "cancelled") -> None:
        """The host cancels the lobby (`user_id` None: the lobby timed out)."""
        async with self.lock:
            self._require(Status.LOBBY)
            if user_id is not None:
                self._require_host(user_id)
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
            self._require_host(user_id)
            if len(self.seats) < 2:
                raise Refusal("need_two_players")
            if all(s.is_bot for s in self.seats) and not self.deps.config.computers_only:
                raise Refusal("need_a_person")
            await self._refuse_banned(self.seats, user_id)  # a ban may have come since
            self.row = await self.journal.start(
                self.rules, [_seat_row(s) for s in self.seats], self.deps.clock.now())
            self.status = Status.PLAYING
            self._begin_play()
            self._human_acted()
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

    def _without_seat(self, seat: int) -> list[SeatInfo]:
        rest = self.seats[:seat] + self.seats[seat + 1:]
        return [replace(s, index=i) for i, s in enumerate(rest)]

    async def _save_lobby(self, seats: list[SeatInfo]) -> None:
        """The lobby's new seats: saved first, then taken on (a failed save
        changes nothing, in memory or in the database)."""
        await games.update_lobby_seats(self.deps.db, self.id, [_seat_row(s) for s in seats])
        self.seats = seats
        await self._notify(())

    def arm_lobby_timeout(self) -> None:
        when = self.row.created_at + self.deps.config.lobby_timeout
        if not self.reachable:  # armed once people can reach it (`reach_changed`)
            return
        # After an outage or a restart a lobby gets a moment more, whatever its age.
        grace = self.deps.clock.now() + self.deps.config.lobby_grace
        self.clocks.arm_lobby(max(when, grace), self._lobby_timed_out)

    async def _lobby_timed_out(self) -> None:
        if self.status is Status.LOBBY and self.reachable:
            with contextlib.suppress(Refusal):  # started or cancelled meanwhile
                await self.cancel(None, "lobby_timeout")

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
            self._human_acted()
            if verb == "pass":
                await self._pass(seat)
                return
            event = ev.play(seat, card) if verb == ev.PLAY and card else ev.act(verb, seat)
            await self._apply_checked(event)

    async def _apply_checked(self, event: Event) -> None:
        game = self._game()
        try:
            game.verify(event)
        except IllegalEvent as err:
            raise Refusal.from_engine(err) from None
        await self._commit([event])

    async def _pass(self, seat: int) -> None:
        """Silence from one seat in a window; all silent closes it (R17)."""
        game = self._game()
        waiting = game.waiting()
        if not waiting.window or seat not in waiting.seats:
            raise Refusal("nothing_to_pass")
        answer = silent_answer(game, seat)
        if answer is not None:
            await self._commit([answer])
        else:
            self.passed.add(seat)
            await self._close_window_if_all_passed()

    async def _close_window_if_all_passed(self) -> None:
        game = self._game()
        waiting = game.waiting()
        if game.phase is Phase.WINDOW and set(waiting.seats) <= self.passed:
            await self._commit([ev.act(ev.CLOSE_WINDOW)])
        else:
            await self._notify(())

    def live_game(self) -> Game | None:
        """The game, while it is played and people can reach the table."""
        game = self.game
        if self.status is not Status.PLAYING or game is None or game.over or not self.reachable:
            return None
        return game

    async def computer_move(self, move: Move) -> None:
        """A computer's event, or computer seats that let the window pass."""
        if isinstance(move, Event):
            await self._commit([move])
            return
        self.passed.update(move)
        await self._close_window_if_all_passed()

    async def walk_out(self, user_id: int) -> None:
        async with self.lock:
            self._require(Status.PLAYING)
            await self._forfeit(self._seat(user_id), "walkout")

    async def end(self, reason: str = "admin") -> None:
        """An admin ends the table, or nobody acted for too long: unrated,
        nobody forfeits."""
        async with self.lock:
            if self.status is Status.LOBBY:
                await games.cancel_game(self.deps.db, self.id, self.deps.clock.now())
                self.status = Status.CANCELLED
            else:
                self._require(Status.PLAYING)
                await games.end_game(self.deps.db, self.id, self.deps.clock.now(),
                                     self._marks())
                self.status = Status.ENDED
            self.end_reason = reason
            self._stop_timers()
            await self._notify(())

    async def _forfeit(self, seat: int, kind: str) -> None:
        game = self._game()
        if game.out[seat]:
            raise Refusal("already_out")
        user_id = self.seats[seat].user_id
        counted = None
        if self.forfeits_count and user_id is not None:
            counted = bans.Forfeit(self.id, self.row.guild_id, user_id,
                                   "timeout" if kind == "timeout" else "walkout",
                                   self.deps.clock.now())
        await self._commit([ev.act(ev.FORFEIT, seat)], counted)

    # --- write-ahead ------------------------------------------------------------------

    async def _commit(self, events: Sequence[Event],
                      forfeit: bans.Forfeit | None = None) -> None:
        """Apply and save (the journal), and only then tell anyone."""
        await self._after_change(await self.journal.commit(events, forfeit))

    async def _after_change(self, happenings: Sequence[Happening]) -> None:
        game = self._game()
        self.passed.clear()
        if game.over:
            await self._finish()
            return
        self._arm_decision_clock()
        await self._notify(happenings, new_decision=True)
        self.driver.wake()

    async def _finish(self) -> None:
        """Save the results. Until that succeeds the table stays "playing",
        in memory as in the database (its last event is saved): a failed save
        is tried again after a growing pause, and a restart finishes it too."""
        game = self._game()
        self._stop_timers()
        outcome = results(to_record(game, self.row.seed))
        seat_results = [SeatResult(s, outcome.marks[s], outcome.places[s], outcome.forfeited[s],
                                   outcome.forfeit_order[s]) for s in range(game.n)]
        deltas = {info.user_id: outcome.stats[info.index] for info in self.seats
                  if info.user_id is not None}
        rated = self.row.public and self.humans_at_start >= 2
        try:
            await stats.finish_game(self.deps.db, self.id, seat_results, deltas, rated,
                                    self.deps.clock.now())
        except Exception as err:
            # Nothing is lost meanwhile (the events are saved): it never gives up.
            delay = self._trouble.failed(self.deps.clock.now()) or LONGEST_PAUSE
            log.warning("table %s: saving the result failed (%s); trying again in %.1f s",
                        self.id, err, delay)
            self.clocks.later(delay, self._retry_finish)
            await self._notify(tuple(self.recent)[-1:])  # the last move shows meanwhile
            return
        self._trouble.saved()
        self.status = Status.FINISHED
        await self._notify(tuple(self.recent)[-1:])

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
        if not self.open and self.on_closed is not None:
            self.on_closed(self)  # its last state is with the listener: it may go

    # --- clocks (R16-R18) ----------------------------------------------------------------

    def _humans_in_game(self) -> int:
        game = self._game()
        return sum(1 for s in self.seats if not s.is_bot and not game.out[s.index])

    def _clock_runs(self, seats: Sequence[int], window: bool) -> bool:
        humans = [s for s in seats if not self.seats[s].is_bot]
        if not humans:
            return False
        if window:
            return True
        # R18: a lone person against computer players has no turn clock.
        bots_in = any(s.is_bot and not self._game().out[s.index] for s in self.seats)
        return not (self._humans_in_game() == 1 and bots_in)

    def _arm_decision_clock(self) -> None:
        """A fresh clock for each new decision (the moment moved on)."""
        self.clocks.arm_decision(self.moment, self._decision_seconds(), self._decision_timed_out)

    def _decision_seconds(self) -> int | None:
        """The clock the decision on hand gets; None: no clock runs."""
        game = self._game()
        waiting = game.waiting()
        if not self.reachable:
            return None  # an outage: the full clock comes with `reach_changed`
        if not self._clock_runs(waiting.seats, waiting.window):
            return None
        return self.rules.window if waiting.window else self.clock_seconds

    def rearm(self) -> None:
        """After a restart or an outage: the decision on hand gets a fresh, full clock."""
        self.clocks.forget_decision()
        if self.game and not self.game.over:
            self._arm_decision_clock()
        self._human_acted()

    async def _decision_timed_out(self, moment: str, generation: int) -> None:
        async with self.lock:
            if (self.status is not Status.PLAYING or moment != self.moment
                    or not self.clocks.current(generation) or not self.reachable):
                return  # the moment passed, or an outage stopped this clock
            lost = self.deps.reach.channel_lost(self.row.guild_id, self.row.channel_id)
            if lost is not None:  # nobody could have seen this clock: nobody forfeits
                await self._abandon(lost)
                return
            await self.step(self._time_out, lambda delay: self.clocks.retry_decision(
                delay, moment, self._decision_timed_out))

    async def _time_out(self) -> None:
        game = self._game()
        waiting = game.waiting()
        if waiting.window:
            await self._commit([everyone_silent(game)])
            return
        # R16: everyone the turn waited for whose time ran out forfeits.
        for seat in waiting.seats:
            if (not self.seats[seat].is_bot and not game.over
                    and seat in game.waiting().seats):
                await self._forfeit(seat, "timeout")

    def _human_acted(self) -> None:
        if self.reachable:
            self.clocks.touch_idle(self.deps.config.idle_timeout, self._idle_timed_out)
        else:
            self.clocks.stop_idle()

    async def _idle_timed_out(self) -> None:
        if self.status is Status.PLAYING and self.reachable:
            log.info("table %s: nobody acted for %s; ending it", self.id,
                     self.deps.config.idle_timeout)
            await self.end("idle")

    def _stop_timers(self) -> None:
        self.clocks.stop_all()
        self.driver.wake()

    # --- outages and failing saves -----------------------------------------------------

    def reach_changed(self) -> None:
        """An outage began or ended for this table: stop its clocks and its
        computer players, or give the decision on hand its full clock back."""
        reachable = self.reachable
        if reachable == self._reached or not self.open:
            return
        self._reached = reachable
        # Not awaited here: the lock may be held; `_apply_reach` reads the reach again.
        self._reach_task = asyncio.get_running_loop().create_task(self._apply_reach())

    async def _apply_reach(self) -> None:
        async with self.lock:
            reachable = self.reachable
            if self.status is Status.LOBBY:
                if reachable:
                    self.arm_lobby_timeout()
                else:
                    self.clocks.stop_lobby()
                return
            if self.status is not Status.PLAYING:
                return
            if reachable:
                self.rearm()
                await self._notify(())
            else:
                self.clocks.forget_decision()
                self.clocks.stop_idle()
                # Shown once the outage lasts: Discord's routine reconnects (a
                # second or so) would edit every table twice for nothing.
                self.clocks.arm_notice(self.deps.config.pause_notice, self._show_pause)
        if reachable:
            self.driver.wake()

    async def _show_pause(self) -> None:
        async with self.lock:
            if self.status is Status.PLAYING and not self.reachable:
                await self._notify(())

    async def step(self, action: Callable[[], Awaitable[None]],
                   retry: Callable[[float], None]) -> bool:
        """A step the table takes on its own, a clock that ran out or a
        computer's move (under the lock). False if it could not be saved (the
        table was put back): `retry(seconds)` it after a pause, or, once saves
        have failed for too long, end the game unrated and say so."""
        try:
            await action()
        except Exception:
            delay = self._trouble.failed(self.deps.clock.now())
            if delay is not None:
                log.warning("table %s: a save failed; trying again in %.1f s", self.id, delay)
                retry(delay)
                return False
            log.error("table %s: nothing could be saved for %s; the game ends unrated",
                      self.id, self.deps.config.save_give_up)
            await self._abandon("save_failed")
            return False
        self._trouble.saved()
        return True

    async def _abandon(self, reason: str) -> None:
        """End the game unrated, nobody forfeiting (under the lock), even if
        the database will not hear of it yet: the channel shows why."""
        self.status, self.end_reason = Status.ENDED, reason
        self._stop_timers()
        await self._notify(())
        await self._save_end()

    async def _save_end(self) -> None:
        try:
            await games.end_game(self.deps.db, self.id, self.deps.clock.now(), self._marks())
        except Exception as err:
            delay = self._trouble.failed(self.deps.clock.now()) or LONGEST_PAUSE
            log.warning("table %s: saving its end failed (%s); trying again in %.1f s",
                        self.id, err, delay)
            self.clocks.later(delay, self._save_end)

    def _marks(self) -> list[SeatResult]:
        game = self._game()
        return [SeatResult(s, game.marks[s], None, game.forfeited[s]) for s in range(game.n)]

    async def settled(self) -> None:
        """Wait until the computer players have nothing left to do for now."""
        while True:
            task = next((t for t in (self._reach_task, self.driver.task)
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
        self.clocks.stop_all()
        await self.driver.close()
        if self._reach_task is not None and not self._reach_task.done():
            self._reach_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reach_task

    # --- small helpers --------------------------------------------------------------

    def _game(self) -> Game:
        return self.journal.in_play()

    async def _refuse_banned(self, seats: Sequence[SeatInfo], user_id: int) -> None:
        """R19: nobody banned from public tables plays at one, whether they
        join, host or were seated before their ban began."""
        if not self.row.public:
            return
        await refuse_banned(self.deps, self.row.guild_id,
                            [(s.user_id, s.name) for s in seats if s.user_id is not None],
                            user_id)

    def _require(self, status: Status) -> None:
        if self.status is not status:
            raise Refusal("table_" + self.status.value)

    def _require_host(self, user_id: int) -> None:
        if user_id != self.row.host_id:
            raise Refusal("host_only")

    def _seat(self, user_id: int) -> int:
        seat = self.seat_of(user_id)
        if seat is None:
            raise Refusal("not_seated")
        return seat


async def refuse_banned(deps: TableDeps, guild_id: int, people: Sequence[tuple[int, str]],
                        actor: int) -> None:
    """Refusal (R19) if one of `people` is banned from the guild's public
    tables now: "banned" when it is the actor, "seat_banned" naming another."""
    now = deps.clock.now()
    for user_id, name in people:
        ban = await bans.active_ban(deps.db, guild_id, user_id, now)
        if ban is None:
            continue
        if user_id == actor:
            raise Refusal("banned", "R19", until=ban.until)
        raise Refusal("seat_banned", "R19", name=name, until=ban.until)


def _seat_row(seat: SeatInfo) -> Seat:
    return Seat(seat.index, seat.name, user_id=seat.user_id, computer=seat.level)


def seat_infos(loaded: LoadedGame) -> list[SeatInfo]:
    return [SeatInfo(s.seat, s.user_id, s.computer, s.name) for s in loaded.seats]
