"""The easy computer player, for beginners: legal moves with little sense.

It plays a random legal card more often than not, rarely toeps, calls most
toeps, calls vuile was now and then and only with a genuine hand, checks
every caller as a stranger (see `doubt`), always plays a dead man's round
and answers the super toep question on a coin flip.
"""

from __future__ import annotations

import logging
from random import Random

from engine import events as ev
from engine.bots import doubt, reading, thumb
from engine.bots.base import decision_rng
from engine.bots.cardints import to_card
from engine.events import Event
from engine.state import Phase
from engine.views import SeatView

log = logging.getLogger(__name__)

SENSE = 0.4  # share of cards chosen by the rules of thumb
TOEP = 0.05
TOEP_STRONG = 0.3  # when its last card is a 9 or a 10
CALL = 0.85
VUILE_WAS = 0.35


class EasyBot:
    level = "easy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def decide(self, view: SeatView) -> Event | None:
        if not view.legal:
            return None
        rng = decision_rng(self.seed, view)
        phase = view.public.phase
        if phase is Phase.PLAY:
            return self._play(view, rng)
        if phase is Phase.TOEP_ANSWER:
            return ev.act(ev.CALL if rng.random() < CALL else ev.FOLD, view.seat)
        if phase is Phase.WINDOW:
            call = reading.legal_of(view, ev.VUILE_WAS)
            if call is not None and reading.genuine(view) and rng.random() < VUILE_WAS:
                return call
            return None
        if phase is Phase.CHECK:
            if view.public.checkers or rng.random() >= doubt.check_chance(view, False):
                return None
            return reading.legal_of(view, ev.CHECK)
        if phase is Phase.DEAD_MAN_CHOICE:
            return ev.act(ev.PLAY_IN, view.seat)
        return ev.act(ev.SUPER_YES, view.seat) if rng.random() < 0.5 else None

    def _play(self, view: SeatView, rng: Random) -> Event:
        toep = reading.legal_of(view, ev.TOEP)
        cards = [e for e in view.legal if e.do == ev.PLAY]
        if toep is not None:
            strong = max(c.rank for c in view.hand) >= 6
            if rng.random() < (TOEP_STRONG if strong and len(view.hand) == 1 else TOEP):
                return toep
        if rng.random() < SENSE:
            seen = reading.seen_of(view)
            return ev.play(view.seat, to_card(thumb.choose_card(seen.hand, seen.table,
                                                                seen.tricks_left)))
        return rng.choice(cards)
