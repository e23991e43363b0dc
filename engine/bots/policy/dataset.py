"""The abstract game's chance events, from real deals.

Each deal is dealt by a seeded generator and played quietly (no toeps) by
the rules of thumb. At every turn in it (a moment), the seat on turn is the
actor of that moment's context; the sample records every seat's strength
bucket and, for every set of answerers who call a toep there, who wins the
round (and whether with a jack) when it is played out by the rules of thumb
from that moment with the folders gone. So the payoffs of the abstract game
are those of real Toepen, card play and R4-R6, R9, R11 included.

A seat's bucket is read from what it knows at that moment, as the hard player
reads its own at the table (see `strength`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from random import Random

from engine.bots.cardints import mask_of
from engine.bots.knowledge import Knowledge
from engine.bots.policy.abstraction import Context, bucket, context_of
from engine.bots.policy.strength import chance, quiet
from engine.bots.sampling import Hands, Play
from engine.bots.sim import OVER, RoundSim
from engine.bots.thumb import choose_card
from engine.rules import TableRules

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Sample:
    """One moment: the buckets of the actor and its answerers (in answer
    order), and per answer mask (bit j-1: answerer j calls) the winner's place
    in that order and whether it won with a jack; the all-call mask is also the
    quiet round's result."""

    context: Context
    buckets: tuple[int, ...]
    winners: tuple[int, ...]
    jacks: tuple[bool, ...]


def outcomes(sim: RoundSim) -> tuple[list[int], tuple[int, ...], tuple[bool, ...]]:
    """The answer order of a toep by the seat on turn, and the winner (place
    in [actor, *order]) and jack for every answer mask."""
    actor = sim.turn
    order = [(actor + k) % sim.n for k in range(1, sim.n) if sim.in_round[(actor + k) % sim.n]]
    places = [actor, *order]
    winners: list[int] = []
    jacks: list[bool] = []
    for mask in range(1 << len(order)):
        play = sim.copy()
        play.may_toep = True
        play.max_stake = None
        play.no_toep_past_limit = False
        play.last_toeper = -1
        play.toep()
        for j in range(len(order)):
            play.answer(bool(mask >> j & 1))
        play.may_toep = False
        end = quiet(play) if play.phase != OVER else play
        winners.append(places.index(end.winner))
        jacks.append(end.jack)
    return order, tuple(winners), tuple(jacks)


def deal(n: int, rng: Random) -> RoundSim:
    cards = list(range(32))
    rng.shuffle(cards)
    hands = [sorted(cards[4 * s:4 * s + 4]) for s in range(n)]
    sim = RoundSim.fresh(TableRules(), hands, rng.randrange(n))
    sim.may_toep = False
    return sim


@dataclass(frozen=True)
class Played:
    """A card played in the deal, and the moment it was played."""

    seat: int
    card: int
    table: list[tuple[int, int]]
    tricks_left: int


def knowledge(sim: RoundSim, seat: int, history: list[Played]) -> tuple[Knowledge, list[Play]]:
    """What `seat` knows at this moment, as the hard player reads it from its view."""
    hand = list(sim.hands[seat])
    hidden = {s: len(sim.hands[s]) for s in range(sim.n)
              if s != seat and sim.in_round[s] and sim.hands[s]}
    placed = mask_of(hand) | sim.gone
    voids: dict[int, int] = {}
    for p in history:
        if p.table and p.card >> 3 != p.table[0][1] >> 3:
            voids[p.seat] = voids.get(p.seat, 0) | 1 << (p.table[0][1] >> 3)
    pool = [c for c in range(32) if not (placed >> c) & 1]
    played = [(p.seat, p.card) for p in history]
    plays = [Play(p.seat, p.card, [q.card for q in history[i + 1:] if q.seat == p.seat],
                  p.table, p.tricks_left)
             for i, p in enumerate(history) if p.seat in hidden]
    return Knowledge(seat, hand, {seat: hand}, hidden, pool, voids, played), plays


def seat_chance(sim: RoundSim, seat: int, history: list[Played], rng: Random,
                guesses: int) -> float:
    know, plays = knowledge(sim, seat, history)

    def make(hands: Hands) -> RoundSim:
        out = sim.copy()
        for s, cards in hands.items():
            out.hands[s] = list(cards)
        return out

    return chance(know, plays, make, rng, guesses)


def moments(n: int, rng: Random, guesses: int) -> Iterator[Sample]:
    """The samples of one deal at a table of `n`."""
    sim = deal(n, rng)
    history: list[Played] = []
    while sim.phase != OVER:
        seat = sim.turn
        odds = [seat_chance(sim, s, history, rng, guesses) if sim.in_round[s] else 0.0
                for s in range(n)]
        order, winners, jacks = outcomes(sim)
        context = context_of(sim.n_in, sim.tricks_left, 1, len(sim.table))
        if context is not None:
            yield Sample(context, tuple(bucket(odds[s]) for s in (seat, *order)),
                         winners, jacks)
        card = choose_card(sim.hands[seat], sim.table, sim.tricks_left)
        history.append(Played(seat, card, list(sim.table), sim.tricks_left))
        sim.play(card)


def samples(n: int, deals: int, guesses: int, seed: int) -> list[Sample]:
    """Every moment of `deals` deals at a table of `n`, from `seed`."""
    out: list[Sample] = []
    for d in range(deals):
        out.extend(moments(n, Random(f"{seed}:{n}:{d}"), guesses))
    return out
