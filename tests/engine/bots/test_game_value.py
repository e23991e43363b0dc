"""The hard player weighs marks by the game, with no bonus for rounds won,
and reads less into the toeps of a loose toeper."""

from __future__ import annotations

from engine.bots import search, thumb
from engine.bots.sampling import Moment, Signal, likelihood
from engine.bots.sim import RoundSim
from engine.cards import parse_card
from engine.rules import TableRules


def _c(text: str) -> int:
    return parse_card(text).index


def _ended(marks: list[int], taken: list[int], winner: int) -> RoundSim:
    hands = [[_c("7H")], [_c("8H")], [_c("9H")], [_c("10H")]]
    sim = RoundSim.fresh(TableRules(limit=15), hands, 0, marks=marks)
    sim.marks = [m + t for m, t in zip(marks, taken, strict=True)]
    sim.taken = list(taken)
    sim.winner = winner
    return sim


def test_marks_count_as_marks_away_from_the_limit_whoever_wins() -> None:
    assert search.cost_of(_ended([0, 0, 0, 0], [0, 1, 1, 1], 0), 0) == 0.0
    assert search.cost_of(_ended([0, 0, 0, 0], [1, 0, 1, 1], 1), 0) == 1.0


def test_going_out_costs_the_penalty_putting_another_out_earns_a_share() -> None:
    out = _ended([13, 0, 0, 0], [2, 0, 2, 2], 1)
    assert search.cost_of(out, 0) == 2.0 + search.OUT_PENALTY
    puts_out = _ended([0, 13, 0, 0], [0, 2, 2, 2], 0)
    assert search.cost_of(puts_out, 0) == -search.OUT_PENALTY / 3
    assert search.fold_cost(0, 1, [14, 0, 0, 0], 15) == 1.0 + search.OUT_PENALTY
    assert search.fold_cost(0, 1, [12, 0, 0, 0], 15) == 1.0


def test_a_loose_toepers_toep_says_nothing_about_its_hand() -> None:
    toep = Moment(Signal(seat=1, toep=True, plays_before=0, stake=2, players=4),
                  later=[], table=[], gone=0, tricks_left=4)
    strong = {1: [_c("10H"), _c("10S"), _c("9C"), _c("10D")]}
    weak = {1: [_c("JH"), _c("QS"), _c("7C"), _c("KD")]}
    assert likelihood([toep], strong) > likelihood([toep], weak)
    assert likelihood([toep], strong, [0.0, 1.0]) == likelihood([toep], weak, [0.0, 1.0])


def test_a_loose_toeper_gets_called_more() -> None:
    for chance in (0.1, 0.3, 0.5):
        assert thumb.call_probability(chance, 2, 0.7) >= thumb.call_probability(chance, 2)
    assert thumb.call_probability(0.3, 2, 0.7) > thumb.call_probability(0.3, 2)
