"""Playing a board: the same choices give the same game; records replay and
check against the board (engine/board_play.py)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

from engine.board_play import (
    BoardBot,
    board_record,
    computers,
    net_score,
    play_board,
    record_is_board,
)
from engine.boards import board, boards
from engine.bots import make_bot
from engine.views import public_view, seat_view

ROOT = Path(__file__).resolve().parents[2]


def test_the_same_choices_give_the_same_game() -> None:
    for b in boards("same", 3):
        one = play_board(b, make_bot("normal", 7), level="normal")
        two = play_board(b, make_bot("normal", 7), level="normal")
        assert one.events == two.events and one.over
        assert [d.to_json() for d in one.deal_log] == [d.to_json() for d in two.deal_log]


def test_other_choices_keep_the_cards_but_change_the_game() -> None:
    b = board("other", 0)
    games = [play_board(b, make_bot("random", s), level="normal") for s in range(6)]
    assert len({tuple(g.events) for g in games}) > 1
    assert {json.dumps(g.deal_log[0].to_json()) for g in games} == {json.dumps(b.deck(0))}


def test_a_computers_draws_follow_what_happened_not_how_many_things() -> None:
    b = board("draws", 1)
    game = b.new_game(("a", "b", "c", "d"))
    bot = BoardBot(b.seed, "normal")
    seat = next(iter(computers(b)))
    first = bot.decision_seed(seat_view(game, seat, public_view(game)))
    assert first == bot.decision_seed(seat_view(game, seat))
    assert first != BoardBot(b.seed, "normal", salt=1).decision_seed(seat_view(game, seat))
    assert first != BoardBot(b.seed + 1, "normal").decision_seed(seat_view(game, seat))
    game.apply(game.legal_events()[0])
    assert bot.decision_seed(seat_view(game, seat)) != first


def test_the_net_score_counts_the_others_marks_against_ones_own() -> None:
    b = board("score", 2)
    game = play_board(b, make_bot("normal", 1), level="normal")
    marks = game.rounds[0].marks
    assert net_score(game, b.seat) == sum(marks) - 4 * marks[b.seat]
    assert sum(net_score(game, s) for s in range(4)) == 0


def test_a_boards_record_replays_and_checks_against_the_board() -> None:
    b = board("record", 4)
    game = play_board(b, make_bot("normal", 3), level="normal")
    record = board_record(b, game)
    assert record["board"] == {"number": 5, "seat": b.seat}
    assert record_is_board(b, record)
    done = subprocess.run([sys.executable, "-m", "engine.replay", "-"], cwd=ROOT,
                          input=json.dumps(record), capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["marks"] == list(game.marks)


def test_a_record_with_other_cards_is_not_the_boards() -> None:
    b = board("tamper", 0)
    record = board_record(b, play_board(b, make_bot("normal", 3), level="normal"))
    swapped = copy.deepcopy(record)
    stock = swapped["deals"][0]["stock"]
    stock[0], stock[1] = stock[1], stock[0]
    assert not record_is_board(b, swapped)
    assert not record_is_board(board("tamper", 1), record)
    assert not record_is_board(b, {"players": ["a"], "events": []})
