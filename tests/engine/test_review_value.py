"""A super toep's ending valued for the game: its last trick, played as
both players would knowing both hands."""

from __future__ import annotations

from random import Random

from engine.bots.search import OUT_PENALTY
from engine.bots.sim import RoundSim
from engine.bots.thumb import ThumbPolicy
from engine.cards import parse_card
from engine.review_value import last_trick_winner, play_out, solved
from engine.rules import TableRules


def _ending(mine: str, theirs: str) -> RoundSim:
    """The last two tricks of a super toep, seat 0 to lead."""
    hands = [[parse_card(t).index for t in h.split()] for h in (mine, theirs)]
    return RoundSim.fresh(TableRules(), hands, 0, super_toep=True)


def _lead(sim: RoundSim, card: str) -> RoundSim:
    sim.play(parse_card(card).index)
    return sim


def test_the_last_trick_is_played_for() -> None:
    # Leading the 7S gives the lead to seat 1, whose 9H then falls to the 10H.
    assert last_trick_winner(_ending("10H 7S", "9H 8S")) == 0
    assert solved(_lead(_ending("10H 7S", "9H 8S"), "7S"), 0) == -OUT_PENALTY
    assert solved(_lead(_ending("10H 7S", "9H 8S"), "10H"), 0) == OUT_PENALTY
    assert solved(_lead(_ending("10H 7S", "9H 8S"), "10H"), 1) == -OUT_PENALTY


def test_a_super_toeps_small_ending_is_played_out_solved() -> None:
    for seed in range(4):
        cost = play_out(_ending("10H 7S", "9H 8S"), 0, Random(seed), ThumbPolicy(0))
        assert cost == -OUT_PENALTY  # a small ending: solved, seat 0 leads the 7S
