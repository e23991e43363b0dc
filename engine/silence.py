"""What silence means in a window (R17), written once for every place that
needs it: the live table, learn mode, the computer-player runner.

A window is not a turn: saying nothing is an answer. In the check-or-believe
window the seat asked believes; in the super toep question a seat that says
nothing says no (and the first no ends the question); in the vuile was moment
one seat's silence is only a pass, and when every seat is silent (or the time
is up) the moment closes.
"""

from __future__ import annotations

import logging

from engine import events as ev
from engine.events import Event
from engine.game import Game, Phase

log = logging.getLogger(__name__)


def silent_answer(game: Game, seat: int) -> Event | None:
    """The answer `seat`'s silence gives in the window open now: believe or
    no. None in the vuile was moment (a pass is no event) and when no window
    waits for the seat."""
    waiting = game.waiting()
    if not waiting.window or seat not in waiting.seats:
        return None
    if game.phase is Phase.CHECK:
        return ev.act(ev.BELIEVE, seat)
    if game.phase is Phase.SUPER_QUESTION:
        return ev.act(ev.SUPER_NO, seat)
    return None


def everyone_silent(game: Game) -> Event:
    """The event of a window in which nobody answered (all passed, or its
    time ran out): the first seat asked believes or says no; the vuile was
    moment closes."""
    seats = game.waiting().seats
    answer = silent_answer(game, seats[0]) if seats else None
    return answer if answer is not None else ev.act(ev.CLOSE_WINDOW)
