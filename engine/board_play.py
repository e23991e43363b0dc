"""Playing a board: its computer players, its score and its record.

The computer players at a board decide from a random stream fixed by the
board, their seat and everything that has happened (the public event
history): two people who make the same choices at a board meet the same
answers and get the same game, and a different choice anywhere gives the
computers fresh, independent draws from there on. `salt` tells apart the
many runs of one board that make its par.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from engine.boards import Board
from engine.bots import Bot, make_bot
from engine.bots.runner import play_out
from engine.errors import IllegalEvent, RecordError
from engine.events import Event
from engine.game import Game
from engine.record import parse_event, to_record
from engine.views import SeatView

COMPUTER_LEVEL = "hard"  # the daily's computer players


class BoardBot:
    """A computer player at a board: `level`'s decisions, each drawn from a
    seed fixed by (board, salt, seat, public history)."""

    def __init__(self, board_seed: int, level: str = COMPUTER_LEVEL, salt: int = 0) -> None:
        self.level = level
        self.prefix = f"{board_seed}:{salt}:"
        make_bot(level)  # an unknown level fails here, not at the first decision

    def decision_seed(self, view: SeatView) -> int:
        history = ";".join(f"{e.do}/{e.seat}/{e.card}" for e in view.public.history)
        text = f"{self.prefix}{view.seat}:{history}"
        return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")

    def decide(self, view: SeatView) -> Event | None:
        return make_bot(self.level, self.decision_seed(view)).decide(view)


def computers(board: Board, level: str = COMPUTER_LEVEL, salt: int = 0) -> dict[int, Bot]:
    """The board's computer players, at every seat but the person's."""
    return {s: BoardBot(board.seed, level, salt) for s in range(4) if s != board.seat}


def play_board(board: Board, player: Bot, level: str = COMPUTER_LEVEL, salt: int = 0,
               players: Sequence[str] | None = None) -> Game:
    """The board played to its end, `player` at the board's seat (benches, par)."""
    names = players if players is not None else default_names(board)
    seats: dict[int, Bot] = {board.seat: player, **computers(board, level, salt)}
    return play_out(board.new_game(names), seats)


def default_names(board: Board) -> tuple[str, ...]:
    return tuple("you" if s == board.seat else f"computer {s}" for s in range(4))


def net_score(game: Game, seat: int) -> int:
    """A board's score for `seat`: the marks each other player took in the
    round less the marks `seat` took, summed over the others (more is better).
    Winning a round at stake 1 is +3, losing it while another wins -1."""
    if not game.rounds:
        raise ValueError("the board's round has not ended")
    marks = game.rounds[0].marks
    return sum(marks[o] - marks[seat] for o in range(len(marks)) if o != seat)


def board_record(board: Board, game: Game, **extra: Any) -> dict[str, Any]:
    """The game's record (docs/records.md), replayable with
    `python -m engine.replay`; `board` says which board and seat it was."""
    return to_record(game, board.seed, board={"number": board.index + 1, "seat": board.seat},
                     **extra)


def replay_at_board(board: Board, events: Sequence[Mapping[str, object]],
                    players: Sequence[str]) -> Game:
    """The events replayed at the board itself (its chance, not a record's
    deals): the check that a record's cards are the board's. Raises
    RecordError or IllegalEvent for events the board does not allow."""
    game = board.new_game(players)
    for raw in events:
        event = parse_event(raw, game.n)
        game.apply(event)
    return game


def record_is_board(board: Board, record: Mapping[str, Any]) -> bool:
    """Whether a record's first leader and every deal, redeal and reshuffle
    are what `board` gives for the same events."""
    try:
        players = record["players"]
        game = replay_at_board(board, record["events"], players)
    except (KeyError, TypeError, RecordError, IllegalEvent):
        return False
    return (record.get("first_leader") == board.leader
            and record.get("deals") == [d.to_json() for d in game.deal_log])
