"""One decision judged: the marks of each legal choice, the best, the loss.

Everything here is read from the decision's `SeatView` and the review's
seed: the worlds (engine/review_worlds.py), their play-outs
(engine/review_value.py) and the verdict (engine/review_verdict.py).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from random import Random

from engine import events as ev
from engine.bots.knowledge import know, sim_from_view
from engine.bots.sampling import sample_hands
from engine.bots.search import fold_cost, small_ending
from engine.bots.sim import RoundSim
from engine.bots.thumb import ThumbPolicy
from engine.events import Event
from engine.review_check import check_table
from engine.review_moments import Decision
from engine.review_super import super_table
from engine.review_value import Table, option_of, play_out, table
from engine.review_verdict import CLEAR, Bluffs, band, verdict
from engine.review_window import Rows, window_rows
from engine.review_worlds import dealt_out, guessed
from engine.state import Phase
from engine.views import SeatView

log = logging.getLogger(__name__)

SAMPLES = 160  # worlds per decision at most when they are not all dealt out: bench/review.py
# Sampled worlds come in batches, the first of this many, each next one as
# large as all before it, until the verdict is settled or SAMPLES are in.
FIRST_BATCH = 40


@dataclass(frozen=True)
class Judgement:
    """One decision's review (its JSON form: engine/review.py)."""

    index: int  # into the record's events
    seat: int
    chosen: Event
    best: Event
    marks: dict[Event, float]  # every legal choice
    lost: float
    se: float
    exact: bool
    verdict: str
    round: int


def decision_rng(seed: int, seat: int, index: int) -> Random:
    """The review's draws for one decision: the seed, the seat and the event
    alone, so a decision's review depends on nothing reviewed before it."""
    return Random(f"review:{seed}:{seat}:{index}")


def _dead_man_table(view: SeatView, samples: int, rng: Random) -> Table:
    """Play in (the round played out by all, as the hard player weighs it) or sit out (1 mark)."""
    public = view.public
    policy = ThumbPolicy(view.seat)
    seed = rng.randrange(1 << 30)
    sit_out = fold_cost(view.seat, 1, list(public.marks), public.rules.limit)
    rows = []
    weights = []
    for i, (hands, weight) in enumerate(sample_hands(view, know(view), samples, rng)):
        full = [hands.get(s, []) for s in range(public.seats)]
        sim = RoundSim.fresh(public.rules, full, public.due_leader, stake=public.stake,
                             kind_normal=False, marks=list(public.marks))
        play_in = play_out(sim, view.seat, Random(seed * 7919 + i), policy)
        rows.append([play_in, sit_out])
        weights.append(weight)
    return Table(rows, weights)


def settled(tab: Table, chosen: int) -> bool:
    """Whether more worlds could still move the verdict: against each other
    choice, the loss (or gain) lies in one verdict band at both ends of its
    error."""
    mine = tab.mean(chosen)
    for j in range(len(tab.rows[0])):
        if j == chosen:
            continue
        lost, error = mine - tab.mean(j), CLEAR * tab.se_of_difference(chosen, j)
        if band(lost - error) != band(lost + error):
            return False
    return True


def batched(rows: Rows, chosen: int, samples: int) -> Table:
    """The rows of as many worlds as the verdict needs, up to `samples`."""
    tab = Table([], [])
    batch = min(FIRST_BATCH, samples)
    while batch > 0:
        tab = tab.joined(rows(batch, len(tab.rows)))
        if settled(tab, chosen):
            break
        batch = min(len(tab.rows), samples - len(tab.rows))
    return tab


def _sampled_table(view: SeatView, options: list[Event], chosen: int, samples: int,
                   rng: Random) -> Table:
    seed = rng.randrange(1 << 30)
    steps = [option_of(e) for e in options]
    return batched(lambda count, first: table(guessed(view, count, rng), steps, view.seat,
                                              seed, first), chosen, samples)


def _options(view: SeatView) -> list[Event]:
    phase = view.public.phase
    if phase is Phase.DEAD_MAN_CHOICE:
        return [ev.act(ev.PLAY_IN, view.seat), ev.act(ev.SIT_OUT, view.seat)]
    if phase is Phase.WINDOW:  # calling, or passing: saying nothing till the moment closed
        return [ev.act(ev.VUILE_WAS, view.seat), ev.act(ev.CLOSE_WINDOW)]
    return list(view.legal)


def _table(view: SeatView, options: list[Event], chosen: int, samples: int,
           rng: Random) -> tuple[Table, bool]:
    """The marks of every choice in every world, and whether they are exact."""
    phase = view.public.phase
    if phase is Phase.DEAD_MAN_CHOICE:
        return _dead_man_table(view, samples, rng), False
    if phase is Phase.WINDOW:
        return batched(window_rows(view, rng), chosen, samples), False
    if phase is Phase.CHECK:
        return check_table(view), True
    if phase is Phase.SUPER_QUESTION:
        return super_table(view, options, rng), False
    # Dealt out one by one only where the rest has no chance in it.
    every = dealt_out(view) if small_ending(sim_from_view(view, {})) else None
    if every is not None:
        return table(every, [option_of(e) for e in options], view.seat, 0), True
    return _sampled_table(view, options, chosen, samples, rng), False


def judge(decision: Decision, seed: int, samples: int = SAMPLES,
          bluffs: Bluffs | None = None) -> Judgement:
    """`bluffs`: the seat's credit for bluffs so far in the game (fresh if None)."""
    view = decision.view
    seat = view.seat
    public = view.public
    rng = decision_rng(seed, seat, decision.index)
    options = _options(view)
    chosen_j = options.index(decision.chosen)
    tab, exact = _table(view, options, chosen_j, samples, rng)
    marks = {e: tab.mean(j) for j, e in enumerate(options)}
    # Of equal choices, the one made is the best.
    best_j = min(range(len(options)), key=lambda j: (marks[options[j]], j != chosen_j, j))
    lost = max(0.0, marks[decision.chosen] - marks[options[best_j]])
    se = 0.0 if exact or chosen_j == best_j else tab.se_of_difference(chosen_j, best_j)
    return Judgement(decision.index, seat, decision.chosen, options[best_j], marks, lost, se,
                     exact, verdict(view, decision.chosen, marks, lost, se,
                                    Bluffs() if bluffs is None else bluffs),
                     public.round)
