"""A real moment read as the abstract game sees it, and the hard player
following the policy where it has one."""

from __future__ import annotations

from random import Random

import pytest

from engine import events as ev
from engine.bots.hard import HardBot
from engine.bots.policy import moment, table
from engine.bots.policy.abstraction import BUCKETS, Context
from engine.views import seat_view
from tests.engine.helpers import deal, new_game, run

HANDS = ("JH QH KH AH", "7S 8S 9S 10S", "JC QC KC AC", "7D 8D 9D 10D")
TRICK = ("0 JH", "1 7S", "2 JC", "3 7D")  # seat 0 wins it and leads again


def _game(*steps: str, marks: int = 0):  # type: ignore[no-untyped-def]
    game = new_game(deal(*HANDS))
    game.marks[:] = [marks] * 4
    run(game, "close", *steps)
    return game


def test_the_answer_context_reads_the_answers_before() -> None:
    game = _game("0 toep", "1 fold")
    found = moment.answer_context(seat_view(game, 2))
    assert found == (Context(4, 4, 1, 0), (False,))
    game = _game("0 toep", "1 call")
    assert moment.answer_context(seat_view(game, 2)) == (Context(4, 4, 1, 0), (True,))


def test_the_toep_context_counts_the_cards_on_the_table() -> None:
    game = _game("0 JH", "1 7S")
    assert moment.toep_context(seat_view(game, 2)) == Context(4, 4, 1, 2)


def test_near_the_limit_the_abstraction_has_nothing_to_say() -> None:
    game = _game("0 JH", marks=11)
    assert moment.toep_context(seat_view(game, 1)) is None
    game = _game("0 toep", marks=10)  # 10 + 2 * 2 < 15: still in reach
    assert moment.answer_context(seat_view(game, 1)) is not None
    game = _game("0 toep", marks=11)
    assert moment.answer_context(seat_view(game, 1)) is None


def test_own_bucket_sees_a_sure_winner() -> None:
    # Seat 0 has won three tricks and leads the last heart: nobody can beat it.
    strong = new_game(deal("JH QH KH AH", "8S 9S 10S 10D", "JC QC KC AC", "7D 8D 9D 7S"))
    run(strong, "close", "0 JH", "1 10D", "2 JC", "3 7D",
        "0 QH", "1 8S", "2 QC", "3 8D", "0 KH", "1 9S", "2 KC", "3 9D")
    assert moment.own_bucket(seat_view(strong, 0), Random(1)) == BUCKETS - 1
    # Seat 2 holds a club that cannot be led to: it wins only if seat 0 leads a club.
    assert moment.own_bucket(seat_view(strong, 2), Random(1)) <= 1


class _Fixed(table.PolicyTable):
    def __init__(self, p: float) -> None:
        self.p = p
        self.asked = 0

    def toep_chance(self, context: Context, bucket: int) -> float | None:
        self.asked += 1
        return self.p

    def call_chance(self, context: Context, before: tuple[bool, ...],
                    bucket: int) -> float | None:
        self.asked += 1
        return self.p


@pytest.mark.parametrize("p", [0.0, 1.0])
def test_hard_toeps_and_calls_as_the_policy_says(p: float,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    fixed = _Fixed(p)
    monkeypatch.setattr(table, "shipped", lambda: fixed)
    bot = HardBot(3, samples=4)
    toeps = calls = 0
    for seed in range(6):
        bot.seed = seed
        play = bot.decide(seat_view(_game("0 JH"), 1))
        toeps += play is not None and play.do == ev.TOEP
        # A toep after the toeper's first card: one before it may be a
        # serial toeper's, which the search answers.
        answer = bot.decide(seat_view(_game(*TRICK, "0 QH", "1 toep"), 2))
        calls += answer is not None and answer.do == ev.CALL
    assert fixed.asked == 12
    assert toeps == calls == (6 if p == 1.0 else 0)


def test_hard_search_never_asks_the_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    fixed = _Fixed(1.0)
    monkeypatch.setattr(table, "shipped", lambda: fixed)
    bot = HardBot(3, samples=4, policy=False)
    bot.decide(seat_view(_game("0 JH"), 1))
    bot.decide(seat_view(_game(*TRICK, "0 QH", "1 toep"), 2))
    assert fixed.asked == 0 and bot.level == "hard-search"
    assert HardBot(3).level == "hard"


def test_heads_up_the_search_bets(monkeypatch: pytest.MonkeyPatch) -> None:
    fixed = _Fixed(1.0)
    monkeypatch.setattr(table, "shipped", lambda: fixed)
    game = new_game(deal("JH QH KH AH", "7S 8S 9S 10S"))
    run(game, "close", "0 JH")
    HardBot(3, samples=4).decide(seat_view(game, 1))
    assert fixed.asked == 0
