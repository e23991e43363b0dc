"""A person's game at a board: their choices, the computers' answers.

The computers act until the person is asked something (a turn, a check, or
an open vuile was window they have not passed) or the board's round is over.
In a window the person is asked first; once they pass, the computers are
asked in turn (as engine/bots/runner.py does) and silence from all closes the
window (R17). Everything that happens is a function of the board and the
person's choices, so a session rebuilt from its saved events is the same
session, and so is another person's who chose the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine import events as ev
from engine.board_play import computers, net_score
from engine.boards import Board
from engine.bots import Bot
from engine.bots.runner import computer_event
from engine.events import Event, Happening
from engine.game import Game
from engine.record import parse_event
from engine.state import Phase
from engine.views import SeatView, seat_view

MAX_STEPS = 2_000


class NothingToPass(Exception):
    """A pass where no window waits for the person."""


class BoardSession:
    def __init__(self, board: Board, players: Sequence[str], level: str = "hard") -> None:
        self.board = board
        self.me = board.seat
        self.game: Game = board.new_game(players)
        self.bots: dict[int, Bot] = computers(board, level)
        self.passed = False
        self.happened: list[Happening] = list(self.game.opening)

    @classmethod
    def resume(cls, board: Board, players: Sequence[str],
               events: Sequence[Mapping[str, object]], level: str = "hard") -> BoardSession:
        """The session as saved: its events applied again, then the computers
        on to the person's next question (raises RecordError or IllegalEvent
        if the events are not this board's)."""
        session = cls(board, players, level)
        for raw in events:
            session._apply(parse_event(raw, session.game.n))
        session.advance()
        return session

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def score(self) -> int | None:
        return net_score(self.game, self.me) if self.game.over else None

    def events(self) -> list[dict[str, object]]:
        return [e.to_json() for e in self.game.events]

    def view(self) -> SeatView:
        return seat_view(self.game, self.me)

    def asked(self) -> bool:
        game = self.game
        if game.over or self.me not in game.waiting().seats:
            return False
        return not (game.phase is Phase.WINDOW and self.passed)

    def act(self, event: Event | None) -> None:
        """The person's choice, then the computers. None is silence: a pass
        in the vuile was window, believing when asked to check (R17).
        Raises IllegalEvent (nothing changed) or NothingToPass."""
        if event is None and self.game.phase is Phase.CHECK and self.asked():
            event = ev.act(ev.BELIEVE, self.me)
        if event is None:
            if self.game.phase is not Phase.WINDOW or not self.asked():
                raise NothingToPass()
            self.passed = True
        else:
            self.game.verify(event)
            self._apply(event)
        self.advance()

    def advance(self) -> None:
        for _ in range(MAX_STEPS):
            if self.game.over or self.asked():
                return
            self._apply(computer_event(self.game, self.bots, self.me))
        raise RuntimeError("the board did not come back to the person")

    def _apply(self, event: Event) -> None:
        self.happened.extend(self.game.apply(event))
        self.passed = False  # a window open again after any event asks the person again
