"""A real moment of play read as the abstract betting game sees it.

From a `SeatView`: the context of a toep the seat may make now, or of the
toep it answers (with the answers before its own), and its strength bucket
(see `strength`). Moments the abstraction leaves out give None: rounds that
are not ordinary, more than four players in the round, and marks near the
limit, where going out weighs more than marks (the search weighs that).
"""

from __future__ import annotations

import logging
from random import Random

from engine import events as ev
from engine.bots.knowledge import know, round_events, sim_from_view
from engine.bots.policy.abstraction import TRICKS, Context, context_of
from engine.bots.policy.strength import strength_bucket
from engine.bots.sampling import Hands, plays
from engine.bots.sim import ANSWERING, PLAYING, RoundSim
from engine.state import NORMAL
from engine.views import SeatView

log = logging.getLogger(__name__)


def far_from_limit(view: SeatView, stake: int) -> bool:
    """Whether no player in the round can reach the limit in this round,
    even losing a raised stake with a jack finish."""
    public = view.public
    limit = public.rules.limit
    return all(public.marks[s] + 2 * (stake + 1) < limit
               for s in range(public.seats) if public.in_round[s])


def toep_context(view: SeatView) -> Context | None:
    """The abstract game of a toep the seat may make now."""
    public = view.public
    if public.kind != NORMAL or not far_from_limit(view, public.stake):
        return None
    return context_of(sum(public.in_round), TRICKS - len(public.tricks), public.stake,
                      len(public.table))


def answer_context(view: SeatView) -> tuple[Context, tuple[bool, ...]] | None:
    """The abstract game of the toep the seat answers, and the answers to
    it before this seat's (True: called, a forced call included)."""
    public = view.public
    toeper = public.last_toeper
    if public.kind != NORMAL or toeper is None or not far_from_limit(view, public.stake - 1):
        return None
    events = round_events(view)
    last = max((i for i, e in enumerate(events) if e.do == ev.TOEP), default=-1)
    folded = {e.seat for e in events[last + 1:] if e.do == ev.FOLD}
    before: list[bool] = []
    n = public.seats
    for k in range(1, n):
        s = (toeper + k) % n
        if s == view.seat:
            break
        if public.in_round[s] or s in folded:
            before.append(public.in_round[s])
    players = sum(public.in_round) + len(folded)
    context = context_of(players, TRICKS - len(public.tricks), public.stake - 1,
                         len(public.table))
    return None if context is None else (context, tuple(before))


def own_bucket(view: SeatView, rng: Random) -> int:
    """The seat's strength bucket, read as the policy's data reads it: the
    round from the moment before the present toep, if one is being answered."""
    known = know(view)

    def make(hands: Hands) -> RoundSim:
        sim = sim_from_view(view, hands)
        if sim.phase == ANSWERING:
            sim.phase = PLAYING
            sim.turn = sim.toeper
            sim.answer_order = []
        return sim

    return strength_bucket(known, plays(view, known), make, rng)
