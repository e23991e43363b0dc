"""The hard computer player: search over guesses of the hidden hands.

It guesses the hidden hands from everything its seat has seen (see
`sampling`), plays every option out on the same guesses (see `search`) and
takes the one that costs it the fewest marks, with a penalty for going out.
Calling after a toep of stake s costs s+1 on a loss and folding costs s, so
calling pays when the chance of winning beats 1/(s+1); the play-outs weigh
that, jack finishes and later toeps included. Its toeps are mixed: a strong
hand sometimes plays on quietly and a weak one sometimes toeps, so its toeps
cannot be read. The budget is a number of guesses, not time, so it is
deterministic.
"""

from __future__ import annotations

import logging
from random import Random

from engine import events as ev
from engine.bots import normal, reading, search
from engine.bots.base import decision_rng
from engine.bots.knowledge import know, sim_from_view
from engine.bots.sampling import deal_guess, sample_hands
from engine.bots.sim import RoundSim
from engine.events import Event
from engine.state import Phase
from engine.views import SeatView

log = logging.getLogger(__name__)

SAMPLES = 32  # tuned for median <= 20 ms, p99 <= 100 ms: bench/bot_strength.py --timing
BLUFF_TOEP = 0.05
BLUFF_VUILE_WAS = 0.06
CHECK_ABOVE = 0.45
# Calls also when calling costs up to this many marks more than folding on
# average: a fold gives up the round, and the duel targets count rounds won
# as well as marks (bench/bot_strength.py: 0 wins ~19% of rounds vs three
# normal players at 1.02 marks/round, 1.0 wins ~27% at 1.40, normal 1.56).
CALL_BIAS = 1.0
# A round won counts as this many marks saved in the search (the duel counts
# rounds won as well as marks). It makes toeps that the others fold to, and
# calls, pay more (cli.duel, 1600 rounds seed 1, with the reading of card
# play in `sampling`: 0 wins 25% of rounds vs three normal players, 1.0 30%,
# 2.0 32% at 1.50 marks/round against normal's 1.69, 3.0 32.5% at 1.55).
WIN_BONUS = 2.0
# An answer weighs one option only, so it can afford more guesses than a play.
ANSWER_SAMPLES = 1.0


SURE_GAIN = 0.25  # toep (almost) always when toeping saves more than this
CLOSE_GAIN = -0.15  # and now and then when it costs less than this
CLOSE_TOEP = 0.25


def toep_chance(gain: float) -> float:
    """How often to toep when toeping saves `gain` marks on average: mostly
    when it pays, sometimes when it does not, never always."""
    if gain > SURE_GAIN:
        return 0.95
    if gain > 0.0:
        return 0.6 + gain * 0.35 / SURE_GAIN
    if gain > CLOSE_GAIN:
        return CLOSE_TOEP
    return BLUFF_TOEP


class HardBot:
    level = "hard"

    def __init__(self, seed: int = 0, samples: int = SAMPLES) -> None:
        self.seed = seed
        self.samples = samples

    def decide(self, view: SeatView) -> Event | None:
        if not view.legal:
            return None
        rng = decision_rng(self.seed, view)
        phase = view.public.phase
        if phase is Phase.PLAY:
            return self._play(view, rng)
        if phase is Phase.TOEP_ANSWER:
            return self._answer(view, rng)
        if phase is Phase.WINDOW:
            return self._vuile_was(view, rng)
        if phase is Phase.CHECK:
            return normal.choose_check(view, rng, above=CHECK_ABOVE).event
        if phase is Phase.DEAD_MAN_CHOICE:
            return self._dead_man(view, rng)
        return normal.choose_super(view, rng).event

    # --- the play -------------------------------------------------------------------

    def _guesses(self, view: SeatView, rng: Random,
                 factor: float = 1.0) -> list[tuple[RoundSim, float]]:
        known = know(view)
        count = max(1, round(self.samples * factor))
        return [(sim_from_view(view, hands), weight)
                for hands, weight in sample_hands(view, known, count, rng)]

    def _play(self, view: SeatView, rng: Random) -> Event:
        cards = [e for e in view.legal if e.do == ev.PLAY]
        toep = reading.legal_of(view, ev.TOEP)
        if len(cards) == 1 and toep is None:
            return cards[0]
        base = self._guesses(view, rng)
        options = [search.play_option(e.card.index) for e in cards if e.card is not None]
        if toep is not None:
            options.append(search.toep_option)
        costs = search.compare(base, options, view.seat, rng.randrange(1 << 30),
                               self._bonus(view))
        best = min(range(len(cards)), key=lambda i: costs[i])
        if toep is not None:
            gain = costs[best] - costs[-1]
            if rng.random() < toep_chance(gain):
                return toep
        return cards[best]

    def call_gain(self, view: SeatView, rng: Random) -> float:
        """Marks saved on average by calling rather than folding."""
        base = self._guesses(view, rng, ANSWER_SAMPLES)
        fold = float(view.public.stake - 1)
        public = view.public
        if public.marks[view.seat] + fold >= public.rules.limit:
            fold += search.OUT_PENALTY
        (call,) = search.compare(base, [search.call_option], view.seat,
                                 rng.randrange(1 << 30), self._bonus(view))
        return fold - call

    def _bonus(self, view: SeatView) -> float:
        public = view.public
        near_limit = public.marks[view.seat] + 2 * public.stake >= public.rules.limit
        return 0.0 if near_limit else WIN_BONUS

    def _answer(self, view: SeatView, rng: Random) -> Event:
        public = view.public
        near_limit = public.marks[view.seat] + 2 * public.stake >= public.rules.limit
        bias = 0.0 if near_limit else CALL_BIAS  # near the limit, marks are what count
        do = ev.CALL if self.call_gain(view, rng) > -bias else ev.FOLD
        return ev.act(do, view.seat)

    # --- windows and choices ----------------------------------------------------------

    def _vuile_was(self, view: SeatView, rng: Random) -> Event | None:
        call = reading.legal_of(view, ev.VUILE_WAS)
        if call is None:
            return None
        if reading.genuine(view):
            return call
        if reading.weak_hand(view) and rng.random() < BLUFF_VUILE_WAS:
            return call
        return None

    def _dead_man(self, view: SeatView, rng: Random) -> Event:
        """Play out the round on guesses with everyone playing; sit out if
        that costs more than the 1 mark of sitting out."""
        public = view.public
        known = know(view)
        total = 0.0
        count = 0
        for i in range(self.samples):
            hands = deal_guess(known, rng)
            if hands is None:
                continue
            full = [hands.get(s, []) for s in range(public.seats)]
            sim = RoundSim.fresh(public.rules, full, public.due_leader, stake=public.stake,
                                 kind_normal=False, marks=list(public.marks))
            end = search.finish(sim, Random(i))
            total += search.cost_of(end, view.seat, public.marks[view.seat], public.rules.limit)
            count += 1
        sit = 1.0 + (search.OUT_PENALTY if public.marks[view.seat] + 1 >= public.rules.limit
                     else 0.0)
        play = total / count if count else sit
        return ev.act(ev.PLAY_IN if play <= sit else ev.SIT_OUT, view.seat)
