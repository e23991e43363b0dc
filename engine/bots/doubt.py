"""Whether to check a vuile was call: shared by every level.

A genuine vuile was is rare (about 5% of 4-card hands), so a player who calls
often is mostly bluffing, and a bluff that nobody checks is a free new hand.
The players at the table therefore check together at a rate that makes a
bluff cost more than it brings: at least `DETER` of calls get checked, and
every call that is more likely a bluff than `SURE` is checked at once. One
check is enough (the caller takes 1 mark, whoever checked), so the seats
still to answer share that rate between them, and after a check the others
believe. `normal` and `hard` judge a call by the caller's record at this
table (`habits`); `easy` judges every caller as a stranger.
"""

from __future__ import annotations

import logging

from engine import events as ev
from engine.bots import reading
from engine.bots.habits import Habit, bluff_chance, habits
from engine.views import SeatView

log = logging.getLogger(__name__)

# A caught bluff costs its caller 1 mark and a round with an open weak hand;
# a check of a genuine call costs the checker 1 mark. Checking pays, for the
# table, when a call is a bluff more often than this.
SURE = 0.4
# Below that, the table still checks this share of calls: a bluffer then
# loses more by the caught calls than it wins by the free new hands.
DETER = 0.4


def still_to_answer(view: SeatView) -> int:
    """The seats that answer the present call from this one on (this one included)."""
    public = view.public
    answered = 0
    for event in reversed(public.history):
        if event.do == ev.VUILE_WAS:
            break
        if event.do in (ev.CHECK, ev.BELIEVE):
            answered += 1
    others = sum(1 for s in range(public.seats)
                 if public.in_round[s] and s != public.caller)
    return max(1, others - answered)


def call_bluff_chance(view: SeatView, with_record: bool) -> float:
    """How likely the present call is a bluff, by the cards this seat can
    place and (`with_record`) the caller's record at this table."""
    caller = view.public.caller
    record = habits(view)[caller] if with_record and caller is not None else Habit()
    return bluff_chance(record, reading.genuine_chance(view))


def check_chance(view: SeatView, with_record: bool) -> float:
    """How often this seat checks the present call."""
    if view.public.checkers:
        return 0.0  # one check is enough
    wanted = 1.0 if call_bluff_chance(view, with_record) >= SURE else DETER
    k = still_to_answer(view)
    return 1.0 - float((1.0 - wanted) ** (1.0 / k))
