"""Quick readings of a `SeatView` shared by the players and the hints:
the rules-of-thumb `Seen`, whether a hand is a genuine vuile was, how likely
a caller's hand is genuine, how strong a hand is for a dead man's round."""

from __future__ import annotations

import logging
from math import comb

from engine.bots import thumb
from engine.bots.cardints import SEVEN, ints, mask_of
from engine.bots.knowledge import Knowledge, know
from engine.events import Event
from engine.state import SUPER_TOEP, is_genuine
from engine.views import SeatView

log = logging.getLogger(__name__)


def hand_size(view: SeatView) -> int:
    return 8 if view.public.kind == SUPER_TOEP else 4


def seen_of(view: SeatView, known: Knowledge | None = None) -> thumb.Seen:
    """The rules-of-thumb reading of a seat's moment in the play."""
    public = view.public
    k = known if known is not None else know(view)
    unknown = mask_of(k.pool)
    for s, cards in k.hands.items():
        if s != view.seat:
            unknown |= mask_of(cards)  # an open hand still counts as a threat
    seat = view.seat
    opp = sum(public.hand_sizes[s] for s in range(public.seats)
              if s != seat and public.in_round[s])
    played = {s for s, _ in public.table}
    after = sum(1 for s in range(public.seats)
                if s != seat and public.in_round[s] and s not in played)
    tricks_left = hand_size(view) - len(public.tricks)
    return thumb.Seen(k.hand, [(s, c.index) for s, c in public.table], tricks_left, unknown,
                      opp, after, public.stake)


def legal_of(view: SeatView, do: str) -> Event | None:
    for event in view.legal:
        if event.do == do:
            return event
    return None


def genuine(view: SeatView) -> bool:
    return is_genuine(list(view.hand), len(view.hand), view.public.rules.seven_counts)


def genuine_chance(view: SeatView) -> float:
    """The chance that a caller's 4 cards, drawn from what this seat cannot
    place, are a genuine vuile was (R12)."""
    pool = know(view).pool
    size = len(pool)
    if size < 4:
        return 1.0
    lows = sum(1 for c in pool if c & 7 <= 3)
    sevens = sum(1 for c in pool if c & 7 == SEVEN)
    good = comb(lows, 4)
    if view.public.rules.seven_counts:
        good += comb(lows, 3) * sevens
    return good / comb(size, 4)


def weak_hand(view: SeatView) -> bool:
    """No card above a 7: a hand that rarely wins a round."""
    return all(c & 7 <= SEVEN for c in ints(view.hand))


def dead_man_strength(view: SeatView) -> float:
    """A rough chance of winning a dead man's round with this hand."""
    seen = seen_of(view)
    return thumb.win_chance(seen)
