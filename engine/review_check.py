"""A check or a belief of a vuile was call, valued by the marks it costs at once.

The check's worth lies in the caller's hidden hand, which the seat can only
weigh: `g`, the chance that the call is genuine, is read as the hard player
reads it (engine/bots/doubt.py: the cards the seat cannot place and the
caller's record at this table). Then, in the review's marks:

- believe: 0;
- check: `g` times the checker's mark (with the penalty if it puts the seat
  out), less, when this check is the one that decides (nobody checked yet),
  `1 - g` times the credit for putting the caller out with its mark.

That is the whole of it at once, and in closed form (no worlds to sample:
its error is 0). What it leaves out is what a check of a bluff wins later:
the bluffer plays its weak hand open instead of a new one, and callers are
deterred. Those favour the check, so a check is judged by these marks only
where they are not its point: a second check (the first already settled
the bluff, so it can only cost) and a check that risks putting the seat
out (which the deterrent rate the sound players keep, priced at one mark,
does not cover). A first check that risks one mark is sound play
(`sound_answer`). A belief is judged only when it is the last word on the
call; before that, a later seat may still check.
"""

from __future__ import annotations

import logging

from engine import events as ev
from engine.bots.doubt import call_bluff_chance, still_to_answer
from engine.bots.search import OUT_PENALTY, fold_cost
from engine.events import Event
from engine.review_value import Table
from engine.views import SeatView

log = logging.getLogger(__name__)


def check_cost(view: SeatView) -> float:
    """The marks a check costs at once, on average (below 0: it gains)."""
    public = view.public
    limit = public.rules.limit
    genuine = 1.0 - call_bluff_chance(view, with_record=True)
    cost = genuine * fold_cost(view.seat, 1, list(public.marks), limit)
    caller = public.caller
    if not public.checkers and caller is not None and public.marks[caller] + 1 >= limit:
        alive = sum(1 for s, m in enumerate(public.marks) if m < limit and not public.out[s])
        if alive > 1:
            cost -= (1.0 - genuine) * OUT_PENALTY / (alive - 1)
    return cost


def check_table(view: SeatView) -> Table:
    """One row, the seat's choices in the order of its legal events."""
    cost = check_cost(view)
    return Table([[cost if e.do == ev.CHECK else 0.0 for e in view.legal]], [1.0])


def sound_answer(view: SeatView, chosen: Event) -> bool:
    """Whether a check or belief is sound play whatever its marks at once."""
    public = view.public
    if public.checkers:
        return False
    if chosen.do == ev.BELIEVE:
        return still_to_answer(view) > 1
    return fold_cost(view.seat, 1, list(public.marks), public.rules.limit) <= 1.0
