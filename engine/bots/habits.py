"""What the public history says about each player's habits at the table.

`habits(view)` counts, per seat, over the whole game so far: the hands it held
when a vuile was window was open, the vuile was calls it made, how often a
checked call of its was caught as a bluff or shown genuine, the rounds it
played, the toeps it made and how it answered the toeps of others.
Everything comes from the public view (the
event history, the caught and shown-genuine counts), never from hidden cards,
so every seat reads the same habits.

From the counts: `bluff_chance` (how likely a call by a seat is a bluff),
`loose_toeper` (how much of a seat's toeping its cards cannot explain),
`serial_toeper` (how likely a seat toeps at its first turn of every round,
whatever it holds) and `calling_station` (how likely a seat calls every toep,
whatever it holds).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from engine import events as ev
from engine.events import Event
from engine.views import SeatView

log = logging.getLogger(__name__)

# Two kinds of caller: the honest one bluffs on HONEST_BLUFF of its
# non-genuine hands, the bluffer on BLUFFER_BLUFF; BLUFFER_PRIOR of the players
# are taken to be bluffers before they have called at all.
HONEST_BLUFF = 0.01
BLUFFER_BLUFF = 0.5
BLUFFER_PRIOR = 0.05
GENUINE = 0.05  # about 5% of 4-card hands are a genuine vuile was
# A seat that plays by its cards toeps in about this share of its rounds; the
# prior weighs like this many rounds.
TOEP_RATE = 0.4
TOEP_PRIOR_ROUNDS = 4.0
# The serial toeper toeps at its first turn of nearly every round it plays
# (SERIAL_RATE), whatever it holds. A player who toeps by its cards does so
# before its first card in about EARLY_RATE of its rounds (the normal player:
# 0.04 with four players, 0.05 with two), as one card of four says little about
# winning the last trick: a toep that early is rare, and a habit of it shows in
# a round or two. SERIAL_PRIOR is not a count of such players but the belief
# that keeps the habit from paying before it shows: with 0.05, a first early
# toep read as half a habit, three `hard` folded to toeping everything in a
# fifth of fresh games' first rounds and it won 7 points more of them than
# `normal`; with 0.2, one early toep makes a seat 0.83 likely serial, and it
# is called (see `hard.SERIAL_PRICE`). An honest early toeper is cleared by its
# next quiet rounds (0.2 after one, 0.01 after two).
SERIAL_RATE = 0.95
SERIAL_PRIOR = 0.2
EARLY_RATE = 0.05
# A player who answers by its cards calls about HONEST_CALL of the toeps it
# answers (the normal player, against `hard`: 0.5-0.7); a calling station
# calls STATION_CALL of them, whatever it holds; STATION_PRIOR of the players
# are taken to be one before they answered. Five calls in five answers make it
# likely (0.4), eight nearly sure (0.7); one fold outweighs five calls.
HONEST_CALL = 0.6
STATION_CALL = 0.98
STATION_PRIOR = 0.05


@dataclass(frozen=True)
class Habit:
    hands: int = 0  # hands held in a vuile was window (the present one not counted)
    calls: int = 0  # vuile was calls (the one being answered now not counted)
    caught: int = 0  # calls checked and found a bluff
    genuine: int = 0  # calls checked and found genuine
    rounds: int = 0  # rounds in which the cards were played
    toeps: int = 0
    early_toeps: int = 0  # rounds in which it toeped before playing its first card
    toep_chances: int = 0  # rounds in which it could have: it toeped or played a card
    toep_calls: int = 0  # toeps of others it called
    toep_folds: int = 0  # toeps of others it folded to


def habits(view: SeatView) -> list[Habit]:
    public = view.public
    n = public.seats
    calls = [0] * n
    toeps = [0] * n
    answers = {ev.CALL: [0] * n, ev.FOLD: [0] * n}
    windows = 0
    for event in public.history:
        if event.do == ev.CLOSE_WINDOW:
            windows += 1
        elif event.seat is None:
            continue
        elif event.do == ev.VUILE_WAS:
            calls[event.seat] += 1
        elif event.do == ev.TOEP:
            toeps[event.seat] += 1
        elif event.do in answers:
            answers[event.do][event.seat] += 1
    early, chances = early_toeps(public.history, n)
    if public.caller is not None:
        calls[public.caller] -= 1  # the call being answered is what we judge
    out = []
    for s in range(n):
        # A new hand: every deal that reached the play, and every call (a
        # believed or genuine call brings new cards).
        hands = windows + calls[s]
        out.append(Habit(hands, calls[s], public.caught[s], public.shown_genuine[s],
                         windows, toeps[s], early[s], chances[s],
                         answers[ev.CALL][s], answers[ev.FOLD][s]))
    return out


# A dead man's round or a super toep follows these; nobody may toep in it.
_NO_TOEP_ROUND = frozenset({ev.PLAY_IN, ev.SIT_OUT, ev.SUPER_YES})


def early_toeps(history: Sequence[Event], n: int) -> tuple[list[int], list[int]]:
    """Per seat: the rounds in which it toeped before playing its first card,
    and the rounds in which it could have (it toeped or played a card, in a
    round open to toeps); the present round counts as far as it went."""
    early = [0] * n
    chances = [0] * n
    played: set[int] = set()  # who played a card in the present round
    toeped: set[int] = set()  # who toeped before its first card in it
    open_to_toeps = next_open = True
    for event in history:
        if event.do == ev.CLOSE_WINDOW:
            _close_round(played | toeped, toeped, open_to_toeps, early, chances)
            played, toeped, open_to_toeps, next_open = set(), set(), next_open, True
        elif event.do in _NO_TOEP_ROUND:
            next_open = False
        elif event.seat is None:
            continue
        elif event.do == ev.PLAY:
            played.add(event.seat)
        elif event.do == ev.TOEP and event.seat not in played:
            toeped.add(event.seat)
    _close_round(played | toeped, toeped, open_to_toeps, early, chances)
    return early, chances


def _close_round(seen: set[int], toeped: set[int], open_to_toeps: bool,
                 early: list[int], chances: list[int]) -> None:
    if open_to_toeps:
        for s in toeped:
            early[s] += 1
        for s in seen:
            chances[s] += 1


def _likelihood(h: Habit, bluff: float) -> float:
    """The chance of a seat's vuile was record if it bluffs on `bluff` of its
    non-genuine hands."""
    g = GENUINE
    unchecked = max(0, h.calls - h.caught - h.genuine)
    quiet = max(0, h.hands - h.calls)
    return (((1 - g) * (1 - bluff)) ** quiet * (g + (1 - g) * bluff) ** unchecked
            * ((1 - g) * bluff) ** h.caught * g ** h.genuine)


def bluff_chance(h: Habit, genuine_now: float) -> float:
    """The chance that a call made now is a bluff, for a seat with this
    record, when a genuine hand has the chance `genuine_now` (from the
    cards the judging seat can place)."""
    honest = (1 - BLUFFER_PRIOR) * _likelihood(h, HONEST_BLUFF)
    bluffer = BLUFFER_PRIOR * _likelihood(h, BLUFFER_BLUFF)
    g = genuine_now
    total = 0.0
    weight = 0.0
    for w, b in ((honest, HONEST_BLUFF), (bluffer, BLUFFER_BLUFF)):
        call = g + (1 - g) * b  # this call, for this kind of caller
        total += w * call * ((1 - g) * b / call)
        weight += w * call
    return total / weight if weight > 0 else 0.0


def loose_toeper(h: Habit) -> float:
    """The share of a seat's toeps its cards do not explain: 0 for a player
    who toeps as often as cards allow, towards 1 for one who toeps always."""
    rate = (h.toeps + TOEP_RATE * TOEP_PRIOR_ROUNDS) / (h.rounds + TOEP_PRIOR_ROUNDS)
    return max(0.0, (rate - TOEP_RATE) / rate)


def serial_toeper(h: Habit) -> float:
    """The chance that a seat toeps at its first turn of every round whatever
    it holds, rather than by its cards, by the rounds it did so in. One early
    toep makes it about even, two in two nearly sure; a round without one
    clears the seat fast."""
    quiet = max(0, h.toep_chances - h.early_toeps)
    serial = SERIAL_PRIOR * SERIAL_RATE ** h.early_toeps * (1 - SERIAL_RATE) ** quiet
    honest = (1 - SERIAL_PRIOR) * EARLY_RATE ** h.early_toeps * (1 - EARLY_RATE) ** quiet
    return serial / (serial + honest)


def calling_station(h: Habit) -> float:
    """The chance that a seat calls every toep whatever it holds, rather than
    by its cards, by how it answered the toeps so far."""
    station = STATION_PRIOR * STATION_CALL ** h.toep_calls * (1 - STATION_CALL) ** h.toep_folds
    honest = ((1 - STATION_PRIOR) * HONEST_CALL ** h.toep_calls
              * (1 - HONEST_CALL) ** h.toep_folds)
    return station / (station + honest)


def bluff_rate(h: Habit) -> float:
    """The share of its non-genuine hands a seat with this record calls
    vuile was on: the two kinds of caller mixed by how well each explains it."""
    honest = (1 - BLUFFER_PRIOR) * _likelihood(h, HONEST_BLUFF)
    bluffer = BLUFFER_PRIOR * _likelihood(h, BLUFFER_BLUFF)
    total = honest + bluffer
    if total <= 0:
        return HONEST_BLUFF
    return (honest * HONEST_BLUFF + bluffer * BLUFFER_BLUFF) / total
