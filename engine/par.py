"""A board's par: the board played by four hard computer players, many runs.

Each run draws the computers' decisions from its own salt (engine/board_play.py),
so the runs differ where a hard player's choice is a close call; the par is
the list of scores the board's seat made, which a person's score is compared
with (engine/duplicate.against_par).
"""

from __future__ import annotations

from engine.board_play import BoardBot, net_score, play_board
from engine.boards import Board

PAR_RUNS = 16
PAR_LEVEL = "hard"


def par_scores(board: Board, runs: int = PAR_RUNS, level: str = PAR_LEVEL) -> list[int]:
    """The seat's score in each of `runs` plays of the board by `level` players."""
    out = []
    for salt in range(1, runs + 1):  # salt 0 is the daily's own computers
        game = play_board(board, BoardBot(board.seed, level, salt), level, salt)
        out.append(net_score(game, board.seat))
    return out
