"""The super toep answer (R15, V11), valued by the whole game's chances.

The question is asked before the deal, so the seat's view holds no cards:
only the marks, the limit and whether the other has said yes already. Both
answers are valued on the review's mark scale for a game's end (as a super
toep's cards are, engine/review_value.py): losing the game counts
`OUT_PENALTY` marks, winning it `OUT_PENALTY` less, so an answer's marks are
16 times its chance of losing the game, less 8.

- **yes, played**: 0 marks, an even chance. The 8-card round is dealt at
  random and both seats play it alike (the review's play-out of a super
  toep's cards: no toeps, the cards by the rules of thumb, the last trick
  solved knowing both hands), so a deal and its mirror (the hands swapped,
  the other seat leading) end the other way round (`super_toep`; the
  tests check it). The lead's own edge is left out: who leads is not drawn
  from the seat's view but taken as either, alike.
- **no**: the game played on, heads-up, in ordinary rounds from the current
  marks to the limit, simulated `GAMES` times with the review's seeded
  draws: each round dealt at random and played by the rules of thumb for
  both seats (toeps and answers drawn), the lead passing each round. Each
  game is paired with its mirror, the same deals from the marks swapped
  (`mirrored`): that halves much of the noise, and at equal marks "no" is
  exactly 0, as even as "yes".

A yes is only a proposal: it plays a super toep only if the other says yes
too, and the first no plays the game on either way. Said after the other's
yes, that is known; said first, the other's answer is the hard player's
(engine/bots/normal.py: yes when behind on marks), as this seat sees it.
So "yes" counts `P(other yes)` times the super toep and the rest times "no".
"""

from __future__ import annotations

import logging
from dataclasses import replace
from random import Random

from engine import events as ev
from engine.bots.normal import choose_super
from engine.bots.search import OUT_PENALTY
from engine.bots.sim import RoundSim, run
from engine.bots.thumb import ThumbPolicy
from engine.events import Event
from engine.review_value import Table, play_out
from engine.views import SeatView

log = logging.getLogger(__name__)

GAMES = 400  # games played on per answer, each with its mirror: about 0.5 s
# A super toep played: by symmetry an even chance, 0 marks (see `super_toep`).
PLAYED = 0.0
ROUNDS = 200  # a game played on ends by then (a draw counts as half a win)
DECK_SIZE = 32


def super_table(view: SeatView, options: list[Event], rng: Random) -> Table:
    """One row per simulated game played on (and its mirror), its columns the
    seat's answers in the order of `options`. A super toep played counts 0
    marks: an even chance (see `super_toep`)."""
    other = other_seat(view)
    p_yes = other_says_yes(view, other)
    seed = rng.randrange(1 << 30)
    rows = []
    for i in range(GAMES):
        on = mirrored(view, other, seed * 7919 + i)
        yes = p_yes * PLAYED + (1.0 - p_yes) * on
        rows.append([yes if e.do == ev.SUPER_YES else on for e in options])
    return Table(rows, [1.0] * len(rows))


def mirrored(view: SeatView, other: int, draw: int) -> float:
    """The game played on from the seat's marks, less the same game (the same
    deals and leads) from the marks swapped, halved: both seats play alike,
    so the swapped game's outcome is the first's, negated, on average. The
    pair's noise partly cancels, and at equal marks it is exactly 0."""
    marks = list(view.public.marks)
    swapped = list(marks)
    swapped[view.seat], swapped[other] = marks[other], marks[view.seat]
    leader = view.seat if draw % 2 == 0 else other  # either leads as often
    return (played_on(view, other, leader, Random(draw), marks)
            - played_on(view, other, leader, Random(draw), swapped)) / 2.0


def other_seat(view: SeatView) -> int:
    """The other player still in the game (the question has exactly two)."""
    public = view.public
    return next(s for s in range(public.seats) if s != view.seat and not public.out[s])


def other_says_yes(view: SeatView, other: int) -> float:
    """1 if the other said yes already, else whether the hard player at its
    seat would, read from the marks (the only thing its answer weighs)."""
    if any(e.do == ev.SUPER_YES and e.seat == other for e in view.public.history):
        return 1.0
    return 1.0 if choose_super(_as_seen_by(view, other), None).event is not None else 0.0


def _as_seen_by(view: SeatView, other: int) -> SeatView:
    # choose_super reads only the seat and the public marks, which both see alike.
    return replace(view, seat=other)


def _deal(n: int, seats: tuple[int, int], size: int, rng: Random) -> list[list[int]]:
    cards = rng.sample(range(DECK_SIZE), 2 * size)
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[seats[0]], hands[seats[1]] = cards[:size], cards[size:]
    return hands


def super_toep(view: SeatView, hands: list[list[int]], leader: int) -> float:
    """The seat's marks from one deal of the 8-card round, played out as the
    review plays a super toep's cards. Not drawn in a review (`PLAYED`): the
    tests play it to show that a deal and its mirror end the other way round."""
    sim = RoundSim.fresh(view.public.rules, hands, leader, kind_normal=False, super_toep=True)
    return play_out(sim, view.seat, Random(0), ThumbPolicy(view.seat))


def played_on(view: SeatView, other: int, leader: int, rng: Random,
              marks: list[int]) -> float:
    """The seat's marks from one game played on in ordinary rounds, from
    `marks` to its end."""
    public = view.public
    rules = public.rules
    policy = ThumbPolicy()
    for _ in range(ROUNDS):
        hands = _deal(public.seats, (view.seat, other), 4, rng)
        sim = RoundSim.fresh(rules, hands, leader, marks=marks)
        run(sim, policy, rng)  # toeps and answers drawn
        marks = sim.marks
        if marks[view.seat] >= rules.limit:
            return OUT_PENALTY
        if marks[other] >= rules.limit:
            return -OUT_PENALTY
        leader = other if leader == view.seat else view.seat
    return 0.0

