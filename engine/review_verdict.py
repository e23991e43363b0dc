"""A decision's verdict: `ok`, `inaccuracy`, `mistake` or `blunder`.

By the marks the choice made lost against the best choice, on average over
the worlds the seat could be in; a verdict is given only when the loss is
clear of its error (the loss less `CLEAR` standard errors still reaches the
threshold), so noise in the estimate is never called a mistake. The
thresholds and the data behind them are in docs/review.md.

Bluffs are judged as bluffs. The hard player (engine/bots/hard.py) mixes:
it toeps on a close call now and then and plays on quietly now and then
with a hand worth a toep, so neither can be read. A toep or a quiet card
that it would make at least `MIXED` of the time, at the same estimated gain,
is sound play; so is a call it would make against a likely serial toeper.
It also bluffs outright, now and then, with a hand a toep does not pay for:
a seat has credit for as many such bluffs as the hard player would have
made at the seat's chances so far in the game, and one more (`Bluffs`).
A bluff within that credit is `ok`; beyond it, it is judged by its marks.
"""

from __future__ import annotations

import logging

from engine import events as ev
from engine.bots.hard import calls_serial, station_in_round, toep_chance
from engine.events import Event
from engine.review_check import sound_answer
from engine.views import SeatView

log = logging.getLogger(__name__)

INACCURACY = 0.2
MISTAKE = 0.5
BLUNDER = 1.0
THRESHOLDS = (("blunder", BLUNDER), ("mistake", MISTAKE), ("inaccuracy", INACCURACY))
CLEAR = 2.0  # standard errors
MIXED = 0.2  # a choice the sound policy makes this often is sound

VERDICTS = ("ok", "inaccuracy", "mistake", "blunder")


def band(lost: float) -> int:
    """How many thresholds `lost` reaches (0: ok ... 3: blunder)."""
    return sum(lost >= threshold for _, threshold in THRESHOLDS)


def by_loss(lost: float, se: float) -> str:
    for name, threshold in THRESHOLDS:
        if lost - CLEAR * se >= threshold:
            return name
    return "ok"


def sound_mix(view: SeatView, chosen: Event, marks: dict[Event, float]) -> bool:
    """Whether `chosen` is a choice the hard player also makes often enough."""
    if chosen.do in (ev.CHECK, ev.BELIEVE):
        return sound_answer(view, chosen)
    if chosen.do in (ev.CALL, ev.FOLD):
        fold, call = marks[ev.act(ev.FOLD, view.seat)], marks[ev.act(ev.CALL, view.seat)]
        return chosen.do == ev.CALL and calls_serial(fold - call, view)
    gain = toep_gain(view, marks)
    if gain is None:
        return False
    chance = toep_chance(gain, station_in_round(view))
    if chosen.do == ev.TOEP:
        return chance >= MIXED
    return marks[chosen] <= min(m for e, m in marks.items() if e.do == ev.PLAY) \
        and 1.0 - chance >= MIXED


def toep_gain(view: SeatView, marks: dict[Event, float]) -> float | None:
    """Marks a toep saves against the best card, or None if no toep was legal."""
    toep = marks.get(ev.act(ev.TOEP, view.seat))
    cards = [m for e, m in marks.items() if e.do == ev.PLAY]
    return None if toep is None or not cards else min(cards) - toep


class Bluffs:
    """One seat's credit for outright bluffs so far in a game: one, and at
    each chance to toep where a toep does not pay, the chance that the hard
    player would have toeped there. Only what the seat saw up to a decision
    counts toward its verdict: the credit grows with its past chances alone."""

    def __init__(self, credit: float = 1.0) -> None:
        self.credit = credit

    def excuses(self, view: SeatView, chosen: Event, marks: dict[Event, float],
                flagged: bool) -> bool:
        """Note this chance to bluff; whether `chosen` is a bluff within the
        credit (spent only on a bluff that would otherwise be `flagged`)."""
        gain = toep_gain(view, marks)
        if gain is None or gain > 0.0:
            return False
        self.credit += toep_chance(gain, station_in_round(view))
        if not flagged or chosen.do != ev.TOEP or self.credit < 1.0:
            return False
        self.credit -= 1.0
        return True


def verdict(view: SeatView, chosen: Event, marks: dict[Event, float], lost: float,
            se: float, bluffs: Bluffs) -> str:
    found = "ok" if lost <= 0.0 or sound_mix(view, chosen, marks) else by_loss(lost, se)
    return "ok" if bluffs.excuses(view, chosen, marks, found != "ok") else found
