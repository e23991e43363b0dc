"""The guesses of the hidden hands: the uniform mode, and what the others'
folds, quiet plays and vuile was window weigh them by (engine/bots/sampling.py,
tells.py, laundry.py). Each test finds a real moment in games of computer
players and compares the weighted guesses with plain deals."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from cli.scripted import ScriptedBot
from engine import events as ev
from engine.bots.base import Bot
from engine.bots.cardints import SEVEN
from engine.bots.hard import HardBot
from engine.bots.knowledge import know, round_events
from engine.bots.laundry import genuine_ints, genuine_share, read_window
from engine.bots.normal import NormalBot
from engine.bots.runner import next_event
from engine.bots.sampling import (
    ALL,
    HARD,
    SIGNALS,
    UNIFORM,
    Evidence,
    Weigher,
    deal_guess,
    sample_hands,
)
from engine.bots.tells import Pass, pass_chance, read_tells
from engine.chance import RandomChance
from engine.game import Game
from engine.rules import TableRules
from engine.state import Phase
from engine.views import SeatView, seat_view

SEAT = 0


def views(seed: int, others: Callable[[int], Bot] = NormalBot,
          players: int = 4) -> Iterator[SeatView]:
    """Seat 0's view at each of its turns to play, in a game of `players`."""
    game = Game(TableRules(), [f"p{i}" for i in range(players)],
                RandomChance(random.Random(seed)))
    bots: dict[int, Bot] = {s: others(seed * 10 + s) for s in range(players)}
    bots[SEAT] = NormalBot(seed)
    for _ in range(5000):
        if game.over:
            return
        view = seat_view(game, SEAT)
        if view.public.phase is Phase.PLAY and view.legal and \
                any(e.seat == SEAT for e in view.legal):
            yield view
        game.apply(next_event(game, bots))


def find(test: Callable[[SeatView], bool], others: Callable[[int], Bot] = NormalBot,
         seeds: int = 400) -> SeatView:
    for seed in range(seeds):
        for view in views(seed, others):
            if test(view):
                return view
    raise AssertionError("no such moment in the games searched")


def weighted_mean(samples: list[tuple[dict[int, list[int]], float]],
                  value: Callable[[dict[int, list[int]]], float]) -> float:
    total = sum(w for _, w in samples)
    return sum(w * value(h) for h, w in samples) / total


def high(cards: list[int]) -> float:
    """How strong a hand is, roughly: its 9s and 10s."""
    return float(sum(1 for c in cards if c & 7 >= 6))


def lows(cards: list[int]) -> float:
    return float(sum(1 for c in cards if c & 7 < SEVEN))


# --- the uniform mode ------------------------------------------------------------------


def test_the_uniform_mode_weighs_nothing_and_rejects_nothing() -> None:
    # A moment after toeps, calls and cards played: the full evidence weighs
    # and rejects, the uniform mode gives every deal weight 1.
    view = find(lambda v: len(v.public.tricks) >= 2 and v.public.stake > 1)
    known = know(view)
    plain = sample_hands(view, known, 200, random.Random(1), UNIFORM)
    assert len(plain) == 200 and all(w == 1.0 for _, w in plain)
    weighed = sample_hands(view, known, 200, random.Random(1), ALL)
    assert len({w for _, w in weighed}) > 1


def test_the_uniform_mode_deals_every_card_alike_to_every_hidden_hand() -> None:
    view = find(lambda v: not v.public.tricks and not v.public.table)
    known = know(view)
    count = 6000
    seen: dict[tuple[int, int], int] = {}
    for hands, _ in sample_hands(view, known, count, random.Random(2), UNIFORM):
        for seat in known.hidden:
            for c in hands[seat]:
                seen[seat, c] = seen.get((seat, c), 0) + 1
    for seat, need in known.hidden.items():
        expected = count * need / len(known.pool)
        for c in known.pool:
            # Binomial: 5 standard deviations either side.
            spread = 5 * (expected * (1 - need / len(known.pool))) ** 0.5
            assert abs(seen.get((seat, c), 0) - expected) < spread, (seat, c)


def test_the_uniform_mode_respects_a_shown_void() -> None:
    view = find(lambda v: any(know(v).voids.get(s, 0) for s in know(v).hidden))
    known = know(view)
    for hands, _ in sample_hands(view, known, 300, random.Random(3), UNIFORM):
        for seat, void in known.voids.items():
            if seat in known.hidden:
                assert not any((void >> (c >> 3)) & 1 for c in hands[seat])


# --- folds ------------------------------------------------------------------------------


def _folded(view: SeatView) -> bool:
    return any(e.do == ev.FOLD and e.seat not in (None, SEAT) for e in round_events(view))


def test_after_a_fold_the_folder_is_dealt_weaker_hands_than_by_plain_deals() -> None:
    view = find(_folded)
    known = know(view)
    weigher = Weigher(view, known, Evidence(signals=False, passes=False, window=False))
    folder = min(weigher.folders)
    rng = random.Random(4)
    deals = [h for h in (deal_guess(weigher.deal_know, rng) for _ in range(3000)) if h]
    plain = sum(high(h[folder]) for h in deals) / len(deals)
    weighed = weighted_mean([(h, weigher.weight(h)) for h in deals],
                            lambda h: high(h[folder]))
    assert weighed < plain - 0.1, (weighed, plain)


def test_a_folder_s_cards_are_left_out_of_the_guesses_returned() -> None:
    view = find(_folded)
    known = know(view)
    for hands, _ in sample_hands(view, known, 50, random.Random(5)):
        assert set(hands) == set(known.hands) | set(known.hidden)


# --- passed toep chances --------------------------------------------------------------


def _telling_passes(view: SeatView) -> list[Pass]:
    """The quiet plays of the last two tricks that some guess would not explain."""
    known = know(view)
    return [p for p in read_tells(view, known, False, True).passes
            if min(pass_chance(p.moment, sorted([c, *p.cards])) for c in known.pool) < 0.9]


def test_a_quiet_play_late_in_a_round_makes_a_strong_card_less_likely() -> None:
    view = find(lambda v: bool(_telling_passes(v)))
    known = know(view)
    seat = _telling_passes(view)[0].moment.seat
    only = Evidence(signals=False, folds=False, passes=True, window=False)
    weighed = sample_hands(view, known, 2000, random.Random(6), only)
    plain = sample_hands(view, known, 2000, random.Random(6), UNIFORM)

    def strong(h: dict[int, list[int]]) -> float:
        return high(h[seat])  # what it kept: with a 9 or 10 it would likely have toeped
    assert weighted_mean(weighed, strong) < weighted_mean(plain, strong) - 0.02


# --- the vuile was window -----------------------------------------------------------------


def test_a_seat_that_did_not_call_is_seldom_given_a_genuine_hand() -> None:
    view = find(lambda v: not v.public.tricks and not v.public.table
                and not any(e.do == ev.VUILE_WAS for e in v.public.history))
    known = know(view)
    only = Evidence(signals=False, folds=False, passes=False, window=True)
    count = 4000
    weighed = sample_hands(view, known, count, random.Random(7), only)
    plain = sample_hands(view, known, count, random.Random(7), UNIFORM)

    def genuine(h: dict[int, list[int]]) -> float:
        return float(any(genuine_ints(h[s], False) for s in known.hidden))
    before = weighted_mean(plain, genuine)
    assert before > 0.05
    assert weighted_mean(weighed, genuine) < 0.3 * before


def _believed_call(view: SeatView) -> bool:
    window = read_window(view, know(view).hidden)
    return bool(window.old_hands) and view.public.round == 1 and not view.public.tricks


def test_a_believed_call_leaves_fewer_low_cards_in_the_hands_in_play() -> None:
    view = find(_believed_call, lambda s: ScriptedBot("vw-strong", s))
    known = know(view)
    only = Evidence(signals=False, folds=False, passes=False, window=True)
    weighed = sample_hands(view, known, 3000, random.Random(8), only)
    plain = sample_hands(view, known, 3000, random.Random(8), UNIFORM)

    def in_play(h: dict[int, list[int]]) -> float:
        return sum(lows(h[s]) for s in known.hidden)
    assert weighted_mean(weighed, in_play) < weighted_mean(plain, in_play) - 0.05


def test_genuine_share_counts_four_low_cards_and_with_v7_three_and_a_seven() -> None:
    jack, ace, seven, ten = 0, 3, 4, 7
    four_lows = [jack, 8 + jack, 16 + ace, 24 + ace]
    assert genuine_share(four_lows, False) == 1.0
    three_and_seven = [jack, 8 + jack, 16 + ace, seven]
    assert genuine_share(three_and_seven, False) == 0.0
    assert genuine_share(three_and_seven, True) == 1.0
    assert genuine_share([*four_lows, ten], False) == 1 / 5
    assert genuine_share(four_lows[:3], False) == 0.0


def test_the_hard_player_takes_its_evidence_from_its_constructor() -> None:
    assert HardBot(1).evidence == HARD
    assert HardBot(1, evidence=UNIFORM).evidence == UNIFORM


def test_the_review_s_guesses_keep_to_toeps_calls_and_cards() -> None:
    # engine/review_worlds.py counts these weights itself when it deals every
    # world, so the sampler's default must stay what it counts.
    view = find(_folded)
    known = know(view)
    assert sample_hands(view, known, 30, random.Random(9)) == \
        sample_hands(view, known, 30, random.Random(9), SIGNALS)
