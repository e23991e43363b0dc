"""Guesses of the hidden hands, consistent with what one seat has seen.

A guess deals the unplaced cards to the hidden hands so that nobody holds a
suit it showed it lacks. Guesses are then kept with the chance that the
normal rules of thumb would have made the toeps and calls that seat made this
round with that hand (importance weights), so a toeper's hand comes out
strong about as often as toepers' hands are; and a guess is kept less often
for every card a seat played that the rules of thumb would not have played
from that guessed hand (rejection sampling): a normal player's leads and
follows give its hand away.

`Evidence` can weigh by more: the folds and the toep chances passed (see
`tells`) and the vuile was window (see `laundry`); the hard player (`HARD`)
keeps what the paired duels showed pays. The uniform mode (`UNIFORM`) weighs
and rejects nothing, to measure what the rest buys (the duel's measuring
seats, cli/seats.py).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from random import Random

from engine import events as ev
from engine.bots import thumb
from engine.bots.cardints import FULL, mask_of
from engine.bots.habits import habits, loose_toeper, serial_toeper
from engine.bots.knowledge import Knowledge, round_events
from engine.bots.laundry import read_window, window_likelihood
from engine.bots.tells import fold_sizes, read_tells, tells_likelihood
from engine.views import SeatView

log = logging.getLogger(__name__)

Hands = dict[int, list[int]]

_FLOOR = 0.04  # nobody's toeps or calls are fully predictable
# A guess under which a seat's card play would not have been the rules-of-thumb
# card is kept this much less often, per such play: the normal player's card
# play gives its hand away, anyone else's only a little.
PLAY_FLOOR = 0.15
ATTEMPTS = 6  # candidate deals per guess wanted, at most


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


@dataclass(frozen=True)
class Play:
    """One card a hidden hand played this round, and what its seat saw then."""

    seat: int
    card: int
    later: list[int]  # the cards it played after this one
    table: list[tuple[int, int]]
    tricks_left: int


def plays(view: SeatView, know: Knowledge) -> list[Play]:
    """The cards played this round by the seats whose hands are guessed."""
    starts = _trick_starts(view)
    hand_size = 8 if view.public.kind == "super_toep" else 4
    played = know.played
    out = []
    trick = 0
    for p, (seat, card) in enumerate(played):
        while trick + 1 < len(starts) and starts[trick + 1] <= p:
            trick += 1
        if seat not in know.hidden:
            continue
        later = [c for s, c in played[p + 1:] if s == seat]
        out.append(Play(seat, card, later, played[starts[trick]:p], hand_size - trick))
    return out


def play_likelihood(plays_: list[Play], hands: Hands, stop: float = 0.0) -> float:
    """How well the rules-of-thumb card play explains the cards played; it
    stops counting once the answer is at most `stop`."""
    weight = 1.0
    for pl in plays_:
        hand = sorted([*hands.get(pl.seat, []), pl.card, *pl.later])
        if thumb.choose_card(hand, pl.table, pl.tricks_left) != pl.card:
            weight *= PLAY_FLOOR
            if weight <= stop:
                break
    return weight


def likelihood(moments_: list[Moment], hands: Hands,
               loose: Sequence[float] = ()) -> float:
    """The chance (up to a constant) the rules of thumb would have sent these
    signals. A toep says less the looser its toeper (`loose[seat]`, 0-1: the
    share of its toeps its cards do not explain, see `habits`)."""
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
            b = loose[sig.seat] if sig.seat < len(loose) else 0.0
            weight *= (1.0 - b) * max(_FLOOR, p) / 0.9 + b
        else:
            weight *= max(_FLOOR, thumb.call_probability(chance, sig.stake)) / 0.97
    return weight


@dataclass(frozen=True)
class Evidence:
    """What the guesses are weighed by: all of it, but for measuring what each part buys."""

    signals: bool = True  # toeps, calls, and cards played (by rejection)
    folds: bool = True  # see `tells`
    passes: bool = True  # toep chances passed, see `tells`
    window: bool = True  # the vuile was window, see `laundry`


ALL = Evidence()
# Toeps, calls and cards only: what the review weighs its worlds by
# (engine/review_worlds.py counts the same weights when it deals every world).
SIGNALS = Evidence(signals=True, folds=False, passes=False, window=False)
# Voids respected, nothing weighed, nothing rejected: the yardstick of the rest.
UNIFORM = Evidence(signals=False, folds=False, passes=False, window=False)
# What the hard player weighs by. The folds, passes and window were measured
# on top of it (paired duels, 2000 first rounds each: docs/strength.md, "The
# hard player's guesses") and did not pay: against three normal players, whose
# play is the very model, each cost +0.006 to +0.011 marks per round and
# all three +0.027 [+0.009, +0.045]; against yardsticks and heads-up none
# told apart from 0. More weights on 32 guesses spread them thinner (a fold
# weighs hands no longer in play) and the search leans on what it believes.
HARD = SIGNALS


def uniform_hands(know: Knowledge, count: int, rng: Random) -> list[tuple[Hands, float]]:
    """`count` deals of the pool that respect the known voids, each of weight 1."""
    out: list[tuple[Hands, float]] = []
    for attempt in range(count * ATTEMPTS):
        if len(out) == count:
            break
        hands = deal_guess(know, rng, respect_voids=attempt < count * (ATTEMPTS - 2))
        if hands is not None:
            out.append((hands, 1.0))
    return out


class Weigher:
    """The importance weight of one guess under the chosen `Evidence`."""

    def __init__(self, view: SeatView, know: Knowledge, evidence: Evidence) -> None:
        self.know = know
        self.moments = moments(view, know) if evidence.signals else []
        # A serial toeper's toep says nothing of its cards: weigh it as loose as that.
        self.loose = ([max(loose_toeper(h), serial_toeper(h)) for h in habits(view)]
                      if self.moments else [])
        self.tells = read_tells(view, know, evidence.folds, evidence.passes)
        self.window = read_window(view, know.hidden) if evidence.window else None
        self.played: dict[int, list[int]] = {}
        for seat, card in know.played:
            self.played.setdefault(seat, []).append(card)
        folders = fold_sizes(view, know) if self.tells.folds else {}
        # The folders' cards are dealt too, so their folds can be weighed.
        self.deal_know = replace(know, hidden={**know.hidden, **folders}) if folders else know
        self.folders = folders

    def weight(self, hands: Hands) -> float:
        w = likelihood(self.moments, hands, self.loose) if self.moments else 1.0
        if self.tells:
            w *= tells_likelihood(self.tells, hands)
        if self.window:
            w *= window_likelihood(self.window, hands, self.played, self._rest(hands))
        return w

    def _rest(self, hands: Hands) -> list[int]:
        dealt = 0
        for seat in self.deal_know.hidden:
            dealt |= mask_of(hands.get(seat, ()))
        return [c for c in self.know.pool if not (dealt >> c) & 1]

    def strip(self, hands: Hands) -> Hands:
        for seat in self.folders:
            hands.pop(seat, None)
        return hands


def guesses_by_play(know: Knowledge, plays_: list[Play], count: int,
                    rng: Random) -> tuple[list[Hands], list[tuple[float, Hands]]]:
    """Up to `count` deals of the pool kept by the card-play rejection (the
    voids respected but for the last attempts), and, if fewer than half pass,
    the best-fitting rejected ones (with their fit) to make up half."""
    passed: list[Hands] = []
    spare: list[tuple[float, Hands]] = []
    for attempt in range(count * ATTEMPTS):
        if len(passed) == count:
            break
        hands = deal_guess(know, rng, respect_voids=attempt < count * (ATTEMPTS - 2))
        if hands is None:
            continue
        draw = rng.random() if plays_ else 0.0
        fit = play_likelihood(plays_, hands, draw) if plays_ else 1.0
        if fit <= draw:
            spare.append((fit, hands))  # rejected, kept in case too few pass
        else:
            passed.append(hands)
    spare.sort(key=lambda fh: -fh[0])  # stable: the earlier of equal fits first
    return passed, spare[:max(0, count // 2 - len(passed))]


def sample_hands(view: SeatView, know: Knowledge, count: int, rng: Random,
                 evidence: Evidence = SIGNALS) -> list[tuple[Hands, float]]:
    """`count` guesses of all hands, each with its weight: how well it
    explains what the others did (importance sampling), cards played by
    rejection; with `UNIFORM` evidence, plain deals."""
    if evidence == UNIFORM:
        return uniform_hands(know, count, rng)
    weigher = Weigher(view, know, evidence)
    plays_ = plays(view, know) if evidence.signals else []
    passed, extra = guesses_by_play(weigher.deal_know, plays_, count, rng)
    out: list[tuple[Hands, float]] = []
    for fit, hands in [(1.0, h) for h in passed] + extra:
        weight = fit * weigher.weight(hands)
        out.append((weigher.strip(hands), weight))
    return out
