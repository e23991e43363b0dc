"""The abstract game: buckets, contexts, answer histories and payoffs."""

from __future__ import annotations

import pytest

from engine.bots.policy import abstraction as ab
from engine.bots.policy.dataset import Sample
from engine.bots.policy.game import leaf_marks, own, relative, tree


def test_buckets_cover_every_chance_in_order() -> None:
    got = [ab.bucket(k / 100) for k in range(101)]
    assert got[0] == 0 and got[-1] == ab.BUCKETS - 1
    assert got == sorted(got)
    assert set(got) == set(range(ab.BUCKETS))


def test_context_of_caps_the_stake_and_leaves_out_what_it_cannot_read() -> None:
    assert ab.context_of(4, 2, 7, 1) == ab.Context(4, 2, ab.MAX_STAKE, 1)
    assert ab.context_of(5, 2, 1, 0) is None
    assert ab.context_of(2, 2, 1, 2) is None
    assert ab.context_of(3, 5, 1, 0) is None


@pytest.mark.parametrize("players", ab.PLAYERS)
def test_histories_one_node_per_answer_path(players: int) -> None:
    hs = ab.histories(players)
    assert len(hs) == (1 << (players - 1)) - 1
    assert len(set(hs)) == len(hs)
    assert all(ab.history_index(players, h) == i for i, h in enumerate(hs))


def _leaves(node: object) -> list[int]:
    from engine.bots.policy.cfr import Node
    assert isinstance(node, Node)
    if node.player < 0:
        return [node.leaf]
    return [x for child in node.children for x in _leaves(child)]


@pytest.mark.parametrize("players", ab.PLAYERS)
def test_tree_reaches_every_answer_mask_once(players: int) -> None:
    assert sorted(_leaves(tree(players))) == list(range(1 + (1 << (players - 1))))


SAMPLE = Sample(ab.Context(3, 1, 1, 0), (5, 2, 7),
                winners=(0, 1, 2, 2), jacks=(False, False, True, True))


def test_a_fold_takes_the_stake_before_the_toep() -> None:
    # Answerer 1 calls (mask 1), answerer 2 folds: answerer 1 wins.
    assert leaf_marks(SAMPLE, 2, 1) == [3.0, 0.0, 2.0]


def test_a_jack_finish_doubles_the_raised_stake() -> None:
    # Both call (mask 3): answerer 2 wins with a jack.
    assert leaf_marks(SAMPLE, 1, 3) == [4.0, 4.0, 0.0]


def test_nobody_calls_the_toeper_wins_alone() -> None:
    assert leaf_marks(SAMPLE, 1, 0) == [0.0, 1.0, 1.0]


def test_playing_on_is_the_quiet_round() -> None:
    assert leaf_marks(SAMPLE, 2, None) == [4.0, 4.0, 0.0]


def test_own_payoffs_are_the_marks_taken() -> None:
    assert own([3.0, 0.0, 2.0]) == [-3.0, -0.0, -2.0]


def test_relative_payoffs_sum_to_zero() -> None:
    assert sum(relative([3.0, 0.0, 2.0])) == pytest.approx(0.0)
    assert relative([2.0, 0.0]) == [-2.0, 2.0]
