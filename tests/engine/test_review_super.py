"""The super toep answer judged by the whole game's chances (R15, V11)."""

from __future__ import annotations

from random import Random

import pytest

from engine import events as ev
from engine.bots.search import OUT_PENALTY
from engine.game import Game, Phase
from engine.review_judge import Judgement, judge
from engine.review_moments import Decision
from engine.review_super import PLAYED, mirrored, super_toep
from engine.views import seat_view
from tests.engine.helpers import deal, event, new_game, run

THREE = deal("10D 9D 8D JH", "7C 8C 9C 10C", "7S 8S 9S 10S")
# The next deal, whichever the answers: a super toep's or an ordinary round's.
NEXT = deal("7C 8C 9C 10C JD QD KD AD", "7D 8D 9D 10D JC QC KC AC", None)


def _asked(seat0: int, seat1: int, limit: int = 15) -> Game:
    """Seat 2 goes out in round 1; seat 0 then has `seat0` marks, seat 1 `seat1`."""
    game = new_game(THREE, NEXT, limit=limit)
    game.marks[:] = [seat0, seat1 - 1, limit - 1]
    run(game, "close", "0 toep", "1 fold", "2 fold")
    assert game.phase is Phase.SUPER_QUESTION and game.marks[:2] == [seat0, seat1]
    return game


def _judged(game: Game, step: str, seed: int = 0) -> Judgement:
    made = event(step)
    assert made.seat is not None
    return judge(Decision(len(game.events), made, seat_view(game, made.seat)), seed)


def test_a_no_at_the_edge_after_the_others_yes_is_a_blunder() -> None:
    game = _asked(14, 0)
    run(game, "1 super_yes")
    j = _judged(game, "0 super_no")
    assert j.best == event("0 super_yes") and j.verdict == "blunder"
    yes, no = j.marks[event("0 super_yes")], j.marks[event("0 super_no")]
    # Playing on, one mark puts the seat out: the game is all but lost.
    assert no > 0.8 * OUT_PENALTY and abs(yes) < 0.3 * OUT_PENALTY
    assert -OUT_PENALTY <= yes <= OUT_PENALTY


def test_a_yes_at_the_edge_is_ok() -> None:
    game = _asked(14, 0)
    run(game, "1 super_yes")
    assert _judged(game, "0 super_yes").verdict == "ok"


def test_a_no_far_ahead_is_ok_and_a_yes_proposed_to_a_trailer_a_blunder() -> None:
    game = _asked(0, 14)
    assert _judged(game, "0 super_no").verdict == "ok"
    # The other, one mark from going out, would take the coin flip.
    j = _judged(game, "0 super_yes")
    assert j.best == event("0 super_no") and j.verdict == "blunder"


def test_a_yes_the_other_would_refuse_costs_nothing() -> None:
    """Behind, and answering first: the leader says no (as the hard player
    does), so the game plays on whatever this seat answers."""
    game = _asked(14, 0)
    for step in ("0 super_yes", "0 super_no"):
        j = _judged(game, step)
        assert j.lost == 0.0 and j.verdict == "ok"
        assert j.marks[event("0 super_yes")] == j.marks[event("0 super_no")]


@pytest.mark.parametrize("seed", [0, 1])
def test_the_same_seed_gives_the_same_judgement(seed: int) -> None:
    game = _asked(10, 3)
    run(game, "1 super_yes")
    assert _judged(game, "0 super_no", seed) == _judged(game, "0 super_no", seed)


def test_twin_records_judge_the_answer_alike() -> None:
    """The cards about to be dealt are unseen: another deal changes nothing."""
    twin = deal("7D 8D 9D 10D JC QC KC AC", "7C 8C 9C 10C JD QD KD AD", None)
    games = []
    for second in (NEXT, twin):
        game = new_game(THREE, second, limit=15)
        game.marks[:] = [9, 2, 14]
        run(game, "close", "0 toep", "1 fold", "2 fold", "1 super_yes")
        games.append(game)
    a, b = (_judged(g, "0 super_no", seed=3) for g in games)
    assert a.marks == b.marks and a.verdict == b.verdict
    assert ev.act(ev.SUPER_YES, 0) in a.marks


def test_a_super_toep_played_is_an_even_chance() -> None:
    """A deal and its mirror (hands swapped, the other leading) end the other
    way round, so "yes, played" is worth 0 marks whatever the marks."""
    view = seat_view(_asked(9, 2), 0)
    wins = 0
    for i in range(60):
        cards = Random(i).sample(range(32), 16)
        first = super_toep(view, [cards[:8], cards[8:], []], i % 2)
        mirror = super_toep(view, [cards[8:], cards[:8], []], 1 - i % 2)
        assert first in (-OUT_PENALTY, OUT_PENALTY) and mirror == -first
        wins += first < 0
    assert PLAYED == 0.0 and 10 < wins < 50


def test_played_on_at_equal_marks_is_even_and_the_mirror_antisymmetric() -> None:
    view = seat_view(_asked(7, 7), 0)
    assert all(mirrored(view, 1, draw) == 0.0 for draw in range(20))
    ahead, behind = seat_view(_asked(3, 11), 0), seat_view(_asked(11, 3), 0)
    for draw in range(20):
        assert mirrored(ahead, 1, draw) == -mirrored(behind, 1, draw)
