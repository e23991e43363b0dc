"""Play at one table: what each act, pass, computer move, forfeit and clock
that ran out brings, as events for the table to commit.

`Play` decides; its table (`Played`) commits the events (saved by the
journal before anyone hears of them) and reacts to them (clocks, listener,
computers). The caller holds the table's lock throughout.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from data import bans
from engine import events as ev
from engine.cards import Card
from engine.errors import IllegalEvent
from engine.events import Event
from engine.game import Game, Phase
from engine.silence import everyone_silent, silent_answer
from tables.bot_driver import Move
from tables.clock import ClockSource
from tables.errors import Refusal
from tables.journal import Journal
from tables.snapshot import SeatInfo


class Played(Protocol):
    """What play needs of its table."""

    async def commit(self, events: Sequence[Event],
                     forfeit: bans.Forfeit | None = None) -> None:
        """Save `events` (with a forfeit that counts toward a ban), then react."""
        ...

    async def show(self) -> None:
        """Tell the listener the table as it is (a pass changes no event)."""
        ...


class Play:
    def __init__(self, table: Played, journal: Journal, guild_id: int,
                 clock: ClockSource) -> None:
        self._table, self._journal = table, journal
        self._guild_id, self._clock = guild_id, clock
        self.passed: set[int] = set()  # seats that let the open window pass
        self._seats: list[SeatInfo] = []
        self._counted = False

    def begin(self, seats: Sequence[SeatInfo], forfeits_count: bool) -> None:
        """The game starts or resumes with `seats`; `forfeits_count`: R19."""
        self._seats, self._counted = list(seats), forfeits_count

    async def act(self, seat: int, verb: str, card: Card | None) -> None:
        """A person's decision (a game verb). Raises Refusal; nothing changes then."""
        if verb == "pass":
            await self._pass(seat)
            return
        if verb == ev.VUILE_WAS and seat in self.passed:
            # R17: a pass is this seat's answer to the window ("no call"), as
            # final as any other; a call after it is refused.
            raise Refusal("window_passed", "R17")
        event = ev.play(seat, card) if verb == ev.PLAY and card else ev.act(verb, seat)
        try:
            self._game().verify(event)
        except IllegalEvent as err:
            raise Refusal.from_engine(err) from None
        await self._table.commit([event])

    async def computer_move(self, move: Move) -> None:
        """A computer's event, or computer seats that let the window pass."""
        if isinstance(move, Event):
            await self._table.commit([move])
            return
        self.passed.update(move)
        await self._close_window_if_all_passed()

    async def forfeit(self, seat: int, kind: str) -> None:
        """The seat walks out, or ran out of time (R16)."""
        game = self._game()
        if game.out[seat]:
            raise Refusal("already_out")
        user_id = self._seats[seat].user_id
        counted = None
        if self._counted and user_id is not None:
            counted = bans.Forfeit(self._journal.table_id, self._guild_id, user_id,
                                   "timeout" if kind == "timeout" else "walkout",
                                   self._clock.now())
        await self._table.commit([ev.act(ev.FORFEIT, seat)], counted)

    async def time_out(self) -> None:
        """The clock of the decision on hand ran out."""
        game = self._game()
        waiting = game.waiting()
        if waiting.window:
            await self._table.commit([everyone_silent(game)])
            return
        # R16: everyone the turn waited for whose time ran out forfeits.
        for seat in waiting.seats:
            if (not self._seats[seat].is_bot and not game.over
                    and seat in game.waiting().seats):
                await self.forfeit(seat, "timeout")

    async def _pass(self, seat: int) -> None:
        """Silence from one seat in a window; all silent closes it (R17)."""
        game = self._game()
        waiting = game.waiting()
        if not waiting.window or seat not in waiting.seats:
            raise Refusal("nothing_to_pass")
        answer = silent_answer(game, seat)
        if answer is not None:
            await self._table.commit([answer])
        else:
            self.passed.add(seat)
            await self._close_window_if_all_passed()

    async def _close_window_if_all_passed(self) -> None:
        game = self._game()
        if game.phase is Phase.WINDOW and set(game.waiting().seats) <= self.passed:
            await self._table.commit([ev.act(ev.CLOSE_WINDOW)])
        else:
            await self._table.show()

    def _game(self) -> Game:
        return self._journal.in_play()
