"""The hard computer player: search over guesses of the hidden hands.

It guesses the hidden hands from everything its seat has seen (see
`sampling`), plays every option out on the same guesses (see `search`) and
takes the one that costs it the fewest marks; near the limit its marks are
weighed by the game (see `search.cost_of`): going out costs much, putting
another player out is worth something. It gets no bonus for a round won.
Calling after a toep of stake s costs s+1 on a loss and folding costs s, so
calling pays when the chance of winning beats 1/(s+1); the play-outs weigh
that, jack finishes and later toeps included. With 3 or 4 players in the
round and far from the limit, it toeps and answers by the betting policy
computed offline (engine/bots/policy, docs/policy.md), a mixed action drawn
by its strength bucket; elsewhere it bets by search as follows. Its toeps are mixed: a strong
hand sometimes plays on quietly and a weak one sometimes toeps, so its toeps
cannot be read. A serial toeper (one who toeps at its first turn of every
round, whatever it holds, see `habits.serial_toeper`) is called even at a
small cost in marks: folded to, it takes such rounds for nothing while the
folders pay. Against a calling station (who calls every toep, see
`habits.calling_station`) it toeps for value only: a bluff cannot make it
fold. The budget is a number of guesses, not time, so it is deterministic.
"""

from __future__ import annotations

import logging
from random import Random

from engine import events as ev
from engine.bots import normal, reading, search
from engine.bots.base import decision_rng
from engine.bots.habits import calling_station, habits, serial_toeper
from engine.bots.knowledge import know, sim_from_view
from engine.bots.policy import moment, table
from engine.bots.sampling import HARD, Evidence, deal_guess, sample_hands
from engine.bots.sim import RoundSim
from engine.events import Event
from engine.state import Phase
from engine.views import SeatView

log = logging.getLogger(__name__)

SAMPLES = 32  # tuned for median <= 20 ms, p99 <= 100 ms: bench/bot_time.py
BLUFF_TOEP = 0.05
# Two players in the round: a guess is cheap to play out, and every mark
# taken is the other's gain, so the search takes more guesses.
TWO_FACTOR = 2.0
# An answer weighs one option only, so it can afford more guesses than a play.
ANSWER_SAMPLES = 1.0
# The marks a call may cost on average, against a toeper that is surely
# serial, and still be made. Folded to, it takes the round for nothing while
# each folder takes 1; heads-up against it, a call that wins with chance p
# costs 2(1-p) and the toeper 2p. For the game (marks against the toeper's),
# calling gains on it while 2 - 4p < 1, down to p = 1/4, where the call costs
# 0.5 more than the fold. The price is higher because the defenders share the
# job: the first to answer seldom calls (the others may still), so the last
# one, alone with the toeper, must call nearly always or the toeper takes the
# round whenever the first two folded. At 0.5 three `hard` still folded
# toeping-everything out of a fifth of first rounds; at 0.8 (with a first
# early toep read as 0.83 serial, see `habits.SERIAL_PRIOR`) of 2%, and it
# wins no more first rounds than `normal`. Honest early toeps are rare (about
# 4% of rounds), so the calls this makes against them cost little.
SERIAL_PRICE = 0.8


# A habit (serial toeper, calling station) this likely is answered by the
# search and its rules, not by the policy, which assumes players who mix.
HABIT_SURE = 0.5
# Players in the round for which the computed policy bets. Heads-up it took
# 0.13-0.14 marks a round more than the search's betting against the
# yardstick (docs/policy.md), so there the search bets.
POLICY_PLAYERS = (3, 4)

SURE_GAIN = 0.25  # toep (almost) always when toeping saves more than this
CLOSE_GAIN = -0.15  # and now and then when it costs less than this
CLOSE_TOEP = 0.25


def toep_chance(gain: float, station: float = 0.0) -> float:
    """How often to toep when toeping saves `gain` marks on average: mostly
    when it pays, sometimes when it does not, never always. A toep that does
    not pay by the cards is a bluff, and a bluff only works on a player who
    may fold: with a likely calling station in the round (`station`, 0-1)
    the toeps that cost marks fade out."""
    if gain > SURE_GAIN:
        return 0.95
    if gain > 0.0:
        return 0.6 + gain * 0.35 / SURE_GAIN
    bluff = CLOSE_TOEP if gain > CLOSE_GAIN else BLUFF_TOEP
    return bluff * (1.0 - station)


class HardBot:
    level = "hard"

    def __init__(self, seed: int = 0, samples: int = SAMPLES, policy: bool = True,
                 evidence: Evidence = HARD) -> None:
        self.seed = seed
        self.samples = samples
        self.evidence = evidence  # what the guesses are weighed by (see `sampling`)
        # False: the search's betting alone, as before the computed policy
        # (the duel's measuring seat `hard-search`).
        self.policy = policy
        if not policy:
            self.level = "hard-search"

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
            return normal.choose_check(view, rng).event
        if phase is Phase.DEAD_MAN_CHOICE:
            return self._dead_man(view, rng)
        return normal.choose_super(view, rng).event

    # --- the play -------------------------------------------------------------------

    def _guesses(self, view: SeatView, rng: Random,
                 factor: float = 1.0) -> list[tuple[RoundSim, float]]:
        known = know(view)
        if sum(view.public.in_round) <= 2:
            factor *= TWO_FACTOR
        count = max(1, round(self.samples * factor))
        return [(sim_from_view(view, hands), weight)
                for hands, weight in sample_hands(view, known, count, rng, self.evidence)]

    def _play(self, view: SeatView, rng: Random) -> Event:
        cards = [e for e in view.legal if e.do == ev.PLAY]
        toep = reading.legal_of(view, ev.TOEP)
        if toep is not None:
            bold = self._policy_toep(view, rng)
            if bold is not None:
                if rng.random() < bold:
                    return toep
                toep = None  # the policy said play on: the search picks the card
        if len(cards) == 1 and toep is None:
            return cards[0]
        base = self._guesses(view, rng)
        options = [search.play_option(e.card.index) for e in cards if e.card is not None]
        if toep is not None:
            options.append(search.toep_option)
        costs = search.compare(base, options, view.seat, rng.randrange(1 << 30))
        best = min(range(len(cards)), key=lambda i: costs[i])
        if toep is not None:
            gain = costs[best] - costs[-1]
            if rng.random() < toep_chance(gain, station_in_round(view)):
                return toep
        return cards[best]

    def call_gain(self, view: SeatView, rng: Random) -> float:
        """Marks saved on average by calling rather than folding."""
        base = self._guesses(view, rng, ANSWER_SAMPLES)
        public = view.public
        fold = search.fold_cost(view.seat, public.stake - 1, list(public.marks),
                                public.rules.limit)
        (call,) = search.compare(base, [search.call_option], view.seat,
                                 rng.randrange(1 << 30))
        return fold - call

    def should_call(self, view: SeatView, rng: Random) -> bool:
        """Call when it saves marks; against a likely serial toeper, also
        when it costs a little (up to SERIAL_PRICE times that likelihood)."""
        gain = self.call_gain(view, rng)
        return gain > 0.0 or calls_serial(gain, view)

    def _answer(self, view: SeatView, rng: Random) -> Event:
        bold = self._policy_call(view, rng)
        call = self.should_call(view, rng) if bold is None else rng.random() < bold
        return ev.act(ev.CALL if call else ev.FOLD, view.seat)

    # --- the computed betting policy (see engine/bots/policy) ---------------------------

    def _policy_toep(self, view: SeatView, rng: Random) -> float | None:
        """The policy's chance of toeping now, or None where the search decides:
        outside the abstraction, or against a likely calling station (a bluff
        cannot make it fold, so the search toeps for value only)."""
        if not self.policy or station_in_round(view) >= HABIT_SURE:
            return None
        context = moment.toep_context(view)
        if context is None or context.players not in POLICY_PLAYERS:
            return None
        return table.shipped().toep_chance(context, moment.own_bucket(view, rng))

    def _policy_call(self, view: SeatView, rng: Random) -> float | None:
        """The policy's chance of calling, or None where the search decides:
        outside the abstraction, or against a likely serial toeper."""
        if not self.policy or toeper_serial(view) >= HABIT_SURE:
            return None
        found = moment.answer_context(view)
        if found is None or found[0].players not in POLICY_PLAYERS:
            return None
        context, before = found
        return table.shipped().call_chance(context, before, moment.own_bucket(view, rng))

    # --- windows and choices ----------------------------------------------------------

    def _vuile_was(self, view: SeatView, rng: Random) -> Event | None:
        # Only a genuine hand: the others check callers often enough that a
        # bluff costs more marks than the new hand saves (see `doubt`).
        call = reading.legal_of(view, ev.VUILE_WAS)
        return call if call is not None and reading.genuine(view) else None

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
            total += search.cost_of(end, view.seat)
            count += 1
        sit = search.fold_cost(view.seat, 1, list(public.marks), public.rules.limit)
        play = total / count if count else sit
        return ev.act(ev.PLAY_IN if play <= sit else ev.SIT_OUT, view.seat)


def calls_serial(gain: float, view: SeatView) -> bool:
    """Whether a call that saves `gain` marks (below 0: costs) is still made
    because the toeper is likely serial."""
    return gain > -SERIAL_PRICE * toeper_serial(view)


def station_in_round(view: SeatView) -> float:
    """How likely the likeliest calling station among the others still in the
    round is one (see `habits.calling_station`)."""
    public = view.public
    records = habits(view)
    return max((calling_station(records[s]) for s in range(public.seats)
                if s != view.seat and public.in_round[s]), default=0.0)


def toeper_serial(view: SeatView) -> float:
    """How likely the present toeper toeps at its first turn of every round."""
    toeper = view.public.last_toeper
    return 0.0 if toeper is None else serial_toeper(habits(view)[toeper])
