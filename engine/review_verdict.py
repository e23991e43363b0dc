"""A decision's verdict: `ok`, `inaccuracy`, `mistake` or `blunder`.

By the marks the choice made lost against the best choice, on average over
the worlds the seat could be in; a verdict is given only when the loss is
clear of its error (the loss less `CLEAR` standard errors still reaches the
threshold), so noise in the estimate is never called a mistake. The
thresholds and the data behind them are in docs/review.md.

Bluffs are judged as bluffs: the hard player toeps on a close call now and
then, and plays on quietly now and then with a hand worth a toep, so neither
can be read. A toep or a quiet card that it would make at least `MIXED` of
the time, at the same estimated gain, is sound play and `ok`; so is a call
it would make against a likely serial toeper (engine/bots/hard.py).
"""

from __future__ import annotations

import logging

from engine import events as ev
from engine.bots.hard import calls_serial, station_in_round, toep_chance
from engine.events import Event
from engine.views import SeatView

log = logging.getLogger(__name__)

INACCURACY = 0.2
MISTAKE = 0.5
BLUNDER = 1.0
THRESHOLDS = (("blunder", BLUNDER), ("mistake", MISTAKE), ("inaccuracy", INACCURACY))
CLEAR = 2.0  # standard errors
MIXED = 0.2  # a choice the sound policy makes this often is sound

VERDICTS = ("ok", "inaccuracy", "mistake", "blunder")


def by_loss(lost: float, se: float) -> str:
    for name, threshold in THRESHOLDS:
        if lost - CLEAR * se >= threshold:
            return name
    return "ok"


def sound_mix(view: SeatView, chosen: Event, marks: dict[Event, float]) -> bool:
    """Whether `chosen` is a choice the hard player also makes often enough."""
    if chosen.do in (ev.CALL, ev.FOLD):
        fold, call = marks[ev.act(ev.FOLD, view.seat)], marks[ev.act(ev.CALL, view.seat)]
        return chosen.do == ev.CALL and calls_serial(fold - call, view)
    toep = ev.act(ev.TOEP, view.seat)
    if toep not in marks:
        return False
    cards = [m for e, m in marks.items() if e.do == ev.PLAY]
    if not cards:
        return False
    best_card = min(cards)
    chance = toep_chance(best_card - marks[toep], station_in_round(view))
    if chosen == toep:
        return chance >= MIXED
    return marks[chosen] <= best_card and 1.0 - chance >= MIXED


def verdict(view: SeatView, chosen: Event, marks: dict[Event, float], lost: float,
            se: float) -> str:
    if lost <= 0.0 or sound_mix(view, chosen, marks):
        return "ok"
    return by_loss(lost, se)
