"""Guesses of the hidden hands, consistent with what one seat has seen.

A guess deals the unplaced cards to the hidden hands so that nobody holds a
suit it showed it lacks. Guesses are then kept with the chance that the
normal rules of thumb would have made the toeps and calls that seat made this
round with that hand (rejection sampling), so a toeper's hand comes out
strong about as often as toepers' hands are.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from random import Random

from engine import events as ev
from engine.bots import thumb
from engine.bots.cardints import FULL, mask_of
from engine.bots.knowledge import Knowledge, round_events
from engine.views import SeatView

log = logging.getLogger(__name__)

Hands = dict[int, list[int]]

_FLOOR = 0.04  # nobody's toeps or calls are fully predictable


def deal_guess(know: Knowledge, rng: Random, respect_voids: bool = True) -> Hands | None:
    """One deal of the pool to the hidden hands, or None if the greedy deal got stuck."""
    pool = list(know.pool)
    rng.shuffle(pool)
    hands: Hands = {s: list(h) for s, h in know.hands.items()}
    used = 0
    order = sorted(know.hidden, key=lambda s: -know.voids.get(s, 0).bit_count())
    for seat in order:
        need = know.hidden[seat]
        void = know.voids.get(seat, 0) if respect_voids else 0
        got: list[int] = []
        for c in pool:
            if (used >> c) & 1 or (void >> (c >> 3)) & 1:
                continue
            got.append(c)
            used |= 1 << c
            if len(got) == need:
                break
        if len(got) < need:
            return None
        hands[seat] = got
    return hands


@dataclass(frozen=True)
class Signal:
    """One opponent's toep or call this round, and the moment it came."""

    seat: int
    toep: bool
    plays_before: int
    stake: int
    players: int


def signals(view: SeatView) -> list[Signal]:
    """The toeps and calls of the others this round."""
    public = view.public
    events = round_events(view)
    folds_after = sum(1 for e in events if e.do == ev.FOLD)
    stake = 1
    plays = 0
    out: list[Signal] = []
    in_now = sum(public.in_round)
    for event in events:
        if event.do == ev.PLAY:
            plays += 1
        elif event.do == ev.FOLD:
            folds_after -= 1
        elif event.do in (ev.TOEP, ev.CALL):
            if event.do == ev.TOEP:
                stake += 1
            if event.seat is not None and event.seat != view.seat:
                out.append(Signal(event.seat, event.do == ev.TOEP, plays, stake,
                                  in_now + folds_after))
    return out


def _trick_starts(view: SeatView) -> list[int]:
    starts = [0]
    for trick in view.public.tricks:
        starts.append(starts[-1] + len(trick.cards))
    return starts


@dataclass(frozen=True)
class Moment:
    """What a signalling seat saw when it toeped or called, but its hidden cards."""

    signal: Signal
    later: list[int]  # the cards it played from then on
    table: list[tuple[int, int]]
    gone: int
    tricks_left: int


def moments(view: SeatView, know: Knowledge) -> list[Moment]:
    """The others' toeps and calls this round, with the moments they came."""
    starts = _trick_starts(view)
    hand_size = 8 if view.public.kind == "super_toep" else 4
    played = know.played
    out = []
    for sig in signals(view):
        p = sig.plays_before
        trick = max(i for i, start in enumerate(starts) if start <= p)
        later = [c for s, c in played[p:] if s == sig.seat]
        out.append(Moment(sig, later, played[starts[trick]:p],
                          mask_of(c for _, c in played[:p]), hand_size - trick))
    return out


def likelihood(moments_: list[Moment], hands: Hands) -> float:
    """The chance (up to a constant) the rules of thumb would have sent these signals."""
    weight = 1.0
    for m in moments_:
        sig = m.signal
        hand = hands.get(sig.seat, []) + m.later
        if not hand:
            continue
        unknown = FULL & ~mask_of(hand) & ~m.gone
        seen = thumb.Seen(hand, m.table, m.tricks_left, unknown,
                          (sig.players - 1) * m.tricks_left,
                          max(0, sig.players - 1 - len(m.table)), sig.stake)
        chance = thumb.win_chance(seen)
        if sig.toep:
            p = thumb.toep_probability(chance, m.tricks_left, sig.stake - 1)
            weight *= max(_FLOOR, p) / 0.9
        else:
            weight *= max(_FLOOR, thumb.call_probability(chance, sig.stake)) / 0.97
    return weight


def sample_hands(view: SeatView, know: Knowledge, count: int,
                 rng: Random) -> list[tuple[Hands, float]]:
    """`count` guesses of all hands, each with its weight: how well it
    explains the others' toeps and calls (importance sampling)."""
    moments_ = moments(view, know)
    out: list[tuple[Hands, float]] = []
    for attempt in range(count * 4):
        if len(out) == count:
            break
        hands = deal_guess(know, rng, respect_voids=attempt < count * 2)
        if hands is not None:
            out.append((hands, likelihood(moments_, hands) if moments_ else 1.0))
    return out
