"""The hard player reads hands from the cards played (engine/bots/sampling.py)."""

from __future__ import annotations

import random

from engine.bots import sampling, thumb
from engine.bots.hard import toep_chance
from engine.bots.sampling import Play, play_likelihood
from engine.cards import parse_card


def _c(text: str) -> int:
    return parse_card(text).index


def test_a_hand_that_explains_a_lead_weighs_fully() -> None:
    # Seat 1 led JH with 4 cards: the rules of thumb lead the lowest card
    # that is not the keeper, so a guess with a lower spare card misfits.
    lead = Play(seat=1, card=_c("JH"), later=[], table=[], tricks_left=4)
    fits = {1: [_c("10S"), _c("9C"), _c("KD")]}
    misfits = {1: [_c("10S"), _c("9C"), _c("JD")]}
    assert thumb.choose_card(sorted([*fits[1], _c("JH")]), [], 4) == _c("JH")
    assert play_likelihood([lead], fits) == 1.0
    assert play_likelihood([lead], misfits) == sampling.PLAY_FLOOR


def test_a_follow_that_misfits_lowers_the_weight_per_play() -> None:
    # Seat 2 followed a led 7C with 10C while holding 8C: the rules of thumb
    # win with the lowest winner, so the guess misfits; so does a second play.
    table = [(1, _c("7C"))]
    follow = Play(seat=2, card=_c("10C"), later=[], table=table, tricks_left=3)
    assert play_likelihood([follow], {2: [_c("8C"), _c("10D")]}) == sampling.PLAY_FLOOR
    assert play_likelihood([follow], {2: [_c("JS"), _c("QS")]}) == 1.0
    twice = play_likelihood([follow, follow], {2: [_c("8C"), _c("10D")]})
    assert twice == sampling.PLAY_FLOOR ** 2
    assert play_likelihood([follow, follow], {2: [_c("8C"), _c("10D")]}, stop=0.5) \
        == sampling.PLAY_FLOOR


def test_toep_chance_grows_with_the_gain() -> None:
    rng = random.Random(1)
    gains = sorted(rng.uniform(-1.0, 1.0) for _ in range(50))
    chances = [toep_chance(g) for g in gains]
    assert chances == sorted(chances)
    assert max(chances) < 1.0
    assert min(chances) > 0.0
