"""Duplicate boards: derived from a seed, one fixed round each (engine/boards.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine import events as ev
from engine.boards import BOARD_RULES, Board, board, boards, main
from engine.cards import DECK
from engine.day_seed import commitment, matches
from engine.game import Game
from engine.state import NORMAL

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("a", "b", "c", "d")


def test_a_seed_gives_the_same_boards_every_time_and_another_seed_others() -> None:
    first, again, other = boards("day-1", 8), boards("day-1", 8), boards("day-2", 8)
    assert first == again
    assert {b.seed for b in first}.isdisjoint({b.seed for b in other})
    assert len({b.seed for b in first}) == 8
    assert all(0 <= b.seat < 4 and 0 <= b.leader < 4 for b in first)
    assert all(0 <= b.seed < 2 ** 63 for b in first)


def test_a_board_starts_from_the_clean_slate_and_is_one_round() -> None:
    b = board("x", 3)
    game = b.new_game(NAMES)
    assert game.marks == [0, 0, 0, 0] and game.stake == 1 and game.kind == NORMAL
    assert game.first_leader == b.leader and game.due_leader == b.leader
    assert BOARD_RULES.rounds == 1 and game.fold_count == [0, 0, 0, 0]
    assert game.deal_log[0].to_json() == b.deck(0)


def test_the_printed_deal_is_a_whole_deck() -> None:
    for b in boards("deck", 5):
        for deal in [b.deck(0), *(b.deck(d) for d in (1, 2))]:
            hands, stock = deal["hands"], deal["stock"]
            assert isinstance(hands, list) and isinstance(stock, list)
            texts = [c for h in hands for c in h] + stock
            assert sorted(texts) == sorted(c.text for c in DECK)
        assert b.deck(0) != b.deck(1)


def _call_until_redeal(game: Game) -> None:
    """Vuile was calls, each believed by all, until the row brings a redeal (V8)."""
    for _ in range(BOARD_RULES.redeal_after):
        caller = game.waiting().seats[0]
        game.apply(ev.act(ev.VUILE_WAS, caller))
        while game.phase.value == "check":
            game.apply(ev.act(ev.BELIEVE, game.call_turn))


def test_every_redeal_is_the_boards_whatever_the_calls_before() -> None:
    b = board("redeal", 0)
    one, two = b.new_game(NAMES), b.new_game(NAMES)
    _call_until_redeal(one)
    # Another caller first: the same redeal's cards all the same.
    two.apply(ev.act(ev.VUILE_WAS, (b.seat + 1) % 4))
    while two.phase.value == "check":
        two.apply(ev.act(ev.BELIEVE, two.call_turn))
    _call_until_redeal_from_row(two)
    assert len(one.deal_log) == len(two.deal_log) == 2
    assert one.deal_log[1].to_json() == two.deal_log[1].to_json() == b.deck(1)


def _call_until_redeal_from_row(game: Game) -> None:
    while len(game.deal_log) < 2:
        game.apply(ev.act(ev.VUILE_WAS, game.waiting().seats[-1]))
        while game.phase.value == "check":
            game.apply(ev.act(ev.BELIEVE, game.call_turn))


def test_the_commitment_is_the_seeds_sha256_and_checks_it() -> None:
    assert commitment("abc") == ("ba7816bf8f01cfea414140de5dae2223"
                                 "b00361a396177a9cb410ff61f20015ad")
    assert matches("abc", commitment("abc").upper() + "\n")
    assert not matches("abd", commitment("abc"))


def test_the_command_prints_the_boards_as_json() -> None:
    done = subprocess.run([sys.executable, "-m", "engine.boards", "--seed", "s1",
                           "--count", "3", "--json"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["seed"] == "s1" and out["commitment"] == commitment("s1")
    assert [b["board"] for b in out["boards"]] == [1, 2, 3]
    first = out["boards"][0]
    made = board("s1", 0)
    assert Board(0, first["seed"], first["seat"], first["leader"]) == made
    assert first["deal"] == made.deck(0) and first["redeals"][0] == made.deck(1)


def test_a_seed_that_does_not_match_its_commitment_is_refused() -> None:
    assert main(["--seed", "s1", "--commitment", commitment("s2")]) == 2
    assert main(["--seed", "s1", "--count", "0"]) == 2
    assert main(["--seed", "s1", "--count", "2", "--commitment", commitment("s1")]) == 0
