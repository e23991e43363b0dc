"""A vuile was call or a pass, valued: the round played with a new hand or with this one.

A call changes the hand the seat plays the round with (R12): the caller
draws new cards from what it cannot place (the stock and the unseen
discards), and the old hand is gone. A genuine call always brings them (a
check of it costs the checkers, not the caller). A bluff brings them only
when nobody checks; checked, it costs the caller 1 mark and the round is
played with the same hand, open to all. So in each world (the others'
hands, guessed from the seat's view as for any decision) both choices are
played out from the first card, with the same draws:

- pass: the round with the hand held;
- call: with the new hand, and for a bluff, with chance `check_rate`, the
  mark and the round with the hand held.

Left out, and why that is fair: the marks a genuine call costs its checkers
(other seats' marks, which count only when they put a seat out), the calls
of others later in the moment (the same whichever the seat chose), and that
a caught bluffer's hand is open (it makes the bluff cost more, so a bluff is
never judged worse than it is).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from random import Random

from engine import events as ev
from engine.bots import reading
from engine.bots.doubt import DETER
from engine.bots.knowledge import know
from engine.bots.sampling import sample_hands
from engine.bots.search import fold_cost
from engine.bots.sim import RoundSim
from engine.bots.thumb import ThumbPolicy
from engine.review_value import Table, play_out
from engine.state import NORMAL, SUPER_TOEP
from engine.views import SeatView

log = logging.getLogger(__name__)

# The table's check rate is read from the calls it answered this game, on a
# prior of this many calls checked at the deterrent rate the sound players keep.
PRIOR_CALLS = 2.0

Rows = Callable[[int, int], Table]  # (how many worlds, index of the first) -> their rows


def check_rate(view: SeatView) -> float:
    """How often this table checks a call that may be checked, as the seat
    could count it: the calls answered so far in the game (each checked or
    believed by all), on a prior of `PRIOR_CALLS` at `DETER`."""
    answered = checked = 0
    answers: set[str] = set()  # the answers to the call in hand
    for event in (*view.public.history, ev.act(ev.CLOSE_WINDOW)):
        if event.do in (ev.CHECK, ev.BELIEVE):
            answers.add(event.do)
        elif event.do in (ev.VUILE_WAS, ev.CLOSE_WINDOW):
            # A call with no answer could not be checked (a dead man's round, a super toep).
            answered += bool(answers)
            checked += ev.CHECK in answers
            answers = set()
    return (checked + PRIOR_CALLS * DETER) / (answered + PRIOR_CALLS)


def window_rows(view: SeatView, rng: Random) -> Rows:
    """The rows [call, pass] of the worlds of a vuile was moment, batch by batch."""
    public = view.public
    seat = view.seat
    known = know(view)
    bluff = not reading.genuine(view)
    caught = check_rate(view) if bluff else 0.0
    seed = rng.randrange(1 << 30)
    policy = ThumbPolicy(seat)
    marked = list(public.marks)
    marked[seat] += 1
    # A caught bluff's mark, and the round with the hand held unless it puts the seat out.
    mark = fold_cost(seat, 1, list(public.marks), public.rules.limit)
    playing_on = marked[seat] < public.rules.limit

    def fresh(hands: list[list[int]], marks: list[int]) -> RoundSim:
        return RoundSim.fresh(public.rules, hands, public.due_leader, stake=public.stake,
                              kind_normal=public.kind == NORMAL,
                              super_toep=public.kind == SUPER_TOEP, marks=marks)

    def rows(count: int, first: int) -> Table:
        out, weights = [], []
        for i, (hands, weight) in enumerate(sample_hands(view, known, count, rng), first):
            full = [list(hands.get(s, [])) for s in range(public.seats)]
            draws = Random(seed * 7919 + i)
            dealt = {c for h in full for c in h}
            left = [c for c in known.pool if c not in dealt]
            new = list(full)
            # Too few cards it cannot place (seen discards may be drawn too): no new hand.
            if len(left) >= len(full[seat]):
                new[seat] = draws.sample(left, len(full[seat]))
            same = draws.randrange(1 << 30)  # the same draws for every choice's play-out
            keep = play_out(fresh(full, list(public.marks)), seat, Random(same), policy)
            call = play_out(fresh(new, list(public.marks)), seat, Random(same), policy)
            if caught:
                held = mark + (play_out(fresh(full, marked), seat, Random(same), policy)
                               if playing_on else 0.0)
                call = caught * held + (1.0 - caught) * call
            out.append([call, keep])
            weights.append(weight)
        return Table(out, weights)

    return rows
