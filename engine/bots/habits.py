"""What the public history says about each player's habits at the table.

`habits(view)` counts, per seat, over the whole game so far: the hands it held
when a vuile was window was open, the vuile was calls it made, how often a
checked call of its was caught as a bluff or shown genuine, the rounds it
played and the toeps it made. Everything comes from the public view (the
event history, the caught and shown-genuine counts), never from hidden cards,
so every seat reads the same habits.

From the counts: `bluff_chance` (how likely a call by a seat is a bluff),
`loose_toeper` (how much of a seat's toeping its cards cannot explain) and
`serial_toeper` (how likely a seat toeps in every round, whatever it holds).
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
# The serial toeper toeps in nearly every round it plays (SERIAL_RATE), whatever
# it holds; SERIAL_PRIOR of the players are taken to be one before they played.
SERIAL_RATE = 0.95
SERIAL_PRIOR = 0.05


@dataclass(frozen=True)
class Habit:
    hands: int = 0  # hands held in a vuile was window (the present one not counted)
    calls: int = 0  # vuile was calls (the one being answered now not counted)
    caught: int = 0  # calls checked and found a bluff
    genuine: int = 0  # calls checked and found genuine
    rounds: int = 0  # rounds in which the cards were played
    toeps: int = 0
    toep_rounds: int = 0  # rounds in which it toeped at least once
    toep_chances: int = 0  # rounds in which it could toep: it toeped or played a card


def habits(view: SeatView) -> list[Habit]:
    public = view.public
    n = public.seats
    calls = [0] * n
    toeps = [0] * n
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
    toeped, chances = toep_rounds(public.history, n)
    if public.caller is not None:
        calls[public.caller] -= 1  # the call being answered is what we judge
    out = []
    for s in range(n):
        # A new hand: every deal that reached the play, and every call (a
        # believed or genuine call brings new cards).
        hands = windows + calls[s]
        out.append(Habit(hands, calls[s], public.caught[s], public.shown_genuine[s],
                         windows, toeps[s], toeped[s], chances[s]))
    return out


# A dead man's round or a super toep follows these; nobody may toep in it.
_NO_TOEP_ROUND = frozenset({ev.PLAY_IN, ev.SIT_OUT, ev.SUPER_YES})


def toep_rounds(history: Sequence[Event], n: int) -> tuple[list[int], list[int]]:
    """Per seat: the rounds in which it toeped, and the rounds in which it
    could have (it toeped or played a card, in a round open to toeps); the
    present round counts as far as it went."""
    toeped = [0] * n
    chances = [0] * n
    seen: set[int] = set()  # who toeped or played in the present round
    toeps: set[int] = set()
    open_to_toeps = True
    next_open = True
    for event in history:
        if event.do == ev.CLOSE_WINDOW:
            _close_round(seen, toeps, open_to_toeps, toeped, chances)
            seen, toeps, open_to_toeps, next_open = set(), set(), next_open, True
        elif event.do in _NO_TOEP_ROUND:
            next_open = False
        elif event.seat is not None and event.do in (ev.PLAY, ev.TOEP):
            seen.add(event.seat)
            if event.do == ev.TOEP:
                toeps.add(event.seat)
    _close_round(seen, toeps, open_to_toeps, toeped, chances)
    return toeped, chances


def _close_round(seen: set[int], toeps: set[int], open_to_toeps: bool,
                 toeped: list[int], chances: list[int]) -> None:
    for s in toeps:
        toeped[s] += 1
    if open_to_toeps:
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
    """The chance that a seat toeps in every round whatever it holds, rather
    than by its cards (in about TOEP_RATE of its rounds), by the rounds it
    toeped in. A round without a toep clears it fast; a run of toeped rounds
    makes it likely (5 in 5: about 0.8)."""
    quiet = max(0, h.toep_chances - h.toep_rounds)
    serial = SERIAL_PRIOR * SERIAL_RATE ** h.toep_rounds * (1 - SERIAL_RATE) ** quiet
    honest = (1 - SERIAL_PRIOR) * TOEP_RATE ** h.toep_rounds * (1 - TOEP_RATE) ** quiet
    return serial / (serial + honest)
