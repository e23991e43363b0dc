"""`yardstick`: a solid rule-of-thumb player to measure the computer players by.

It is what a sound club player does without counting much: keep the strongest
card for the last trick, win a trick cheaply or throw the lowest card away;
toep on a strong last card (and now and then with a strong hand on the last
two tricks); call a toep when its chance of winning is worth the stake (pot
odds, with some respect for the toeper); call vuile was only with a genuine
hand; check a call now and then; play a dead man's round with a fair hand.
It is a duel seat only, written apart from `normal` so that `hard` is not
measured against its own model of the others.
"""

from __future__ import annotations

import logging

from engine import events as ev
from engine.bots import normal, reading, thumb
from engine.bots.base import decision_rng
from engine.bots.cardints import NINE, to_card
from engine.events import Event
from engine.state import Phase
from engine.views import SeatView

log = logging.getLogger(__name__)

CHECK = 0.15  # "now and then"
TOEP_LAST = 0.7  # chance of winning the last trick that makes a toep
TOEP_TWO_LEFT = 0.75  # ... or with two tricks left and a 9 or 10 kept
RESPECT = 0.85  # a toeper is likely strong: its own chance counts for less
LEAN = 0.3  # but the chance is read shyly early in a round, and a fold gives it all up


class YardstickBot:
    level = "yardstick"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def decide(self, view: SeatView) -> Event | None:
        if not view.legal:
            return None
        phase = view.public.phase
        if phase in (Phase.PLAY, Phase.TOEP_ANSWER, Phase.WINDOW):
            return {Phase.PLAY: self._play, Phase.TOEP_ANSWER: self._answer,
                    Phase.WINDOW: _genuine_only}[phase](view)
        rng = decision_rng(self.seed, view)
        if phase is Phase.CHECK:
            checks = not view.public.checkers and rng.random() < CHECK
            return reading.legal_of(view, ev.CHECK) if checks else None
        # The dead man's round and the super toep as the normal player does.
        return normal.normal_choice(view, rng).event

    def _play(self, view: SeatView) -> Event:
        seen = reading.seen_of(view)
        toep = reading.legal_of(view, ev.TOEP)
        if toep is not None:
            chance = thumb.win_chance(seen)
            kept = thumb.keeper(seen.hand) & 7 >= NINE
            if seen.tricks_left == 1 and chance >= TOEP_LAST:
                return toep
            if seen.tricks_left == 2 and kept and chance >= TOEP_TWO_LEFT:
                return toep
        card = thumb.choose_card(seen.hand, seen.table, seen.tricks_left)
        return ev.play(view.seat, to_card(card))

    def _answer(self, view: SeatView) -> Event:
        chance = thumb.win_chance(reading.seen_of(view))
        call = chance * RESPECT + LEAN >= thumb.call_threshold(view.public.stake)
        return ev.act(ev.CALL if call else ev.FOLD, view.seat)


def _genuine_only(view: SeatView) -> Event | None:
    return reading.legal_of(view, ev.VUILE_WAS) if reading.genuine(view) else None
