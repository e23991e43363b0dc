"""A compact simulator of the rest of one round, for the computer players' search.

It plays R4-R11 on small ints (see `cardints`): tricks, toeps, calls, folds,
forced calls (R10), V2/V3/V4, jack finishes, R5 and the R6 ruling. It knows
nothing of windows, vuile was or the next round: search starts after the
vuile was window. Copying it is cheap, which is the point: the hard player
clones it thousands of times per decision where cloning `Game` would be slow.
`tests/engine/bots/test_sim.py` checks it against the real engine.
"""

from __future__ import annotations

import logging
from random import Random
from typing import Protocol

from engine.bots.cardints import JACK
from engine.rules import TableRules

log = logging.getLogger(__name__)

PLAYING = 0
ANSWERING = 1
OVER = 2


class RoundSim:
    __slots__ = (
        "answer_order", "answer_pos", "fold_count", "folded", "folded_card_wins", "gone",
        "hand_size", "hands", "in_round", "jack", "jack_counts", "last_toeper", "leader",
        "limit", "marks", "max_stake", "may_toep", "n", "n_in", "no_toep_past_limit", "phase",
        "played", "small", "stake", "table", "taken", "toeper", "tricks_done", "turn", "winner",
    )

    n: int
    hand_size: int
    may_toep: bool
    jack_counts: bool
    folded_card_wins: bool
    max_stake: int | None
    small: int | None
    no_toep_past_limit: bool
    limit: int
    hands: list[list[int]]
    in_round: list[bool]
    n_in: int
    folded: list[bool]
    marks: list[int]
    taken: list[int]
    fold_count: list[int]
    table: list[tuple[int, int]]
    played: list[bool]
    leader: int
    turn: int
    tricks_done: int
    stake: int
    last_toeper: int
    toeper: int
    answer_order: list[int]
    answer_pos: int
    gone: int
    phase: int
    winner: int
    jack: bool

    @classmethod
    def fresh(cls, rules: TableRules, hands: list[list[int]], leader: int, *, stake: int = 1,
              kind_normal: bool = True, super_toep: bool = False,
              marks: list[int] | None = None) -> RoundSim:
        """A round right after the vuile was window; empty hands are not in it."""
        n = len(hands)
        sim = cls()
        sim.n = n
        sim.hand_size = max(len(h) for h in hands)
        sim.may_toep = kind_normal and not super_toep
        sim.jack_counts = not super_toep
        sim.set_rules(rules)
        sim.hands = [list(h) for h in hands]
        sim.in_round = [bool(h) for h in hands]
        sim.n_in = sum(sim.in_round)
        sim.folded = [False] * n
        sim.marks = list(marks) if marks is not None else [0] * n
        sim.taken = [0] * n
        sim.fold_count = [0] * n
        sim.table = []
        sim.played = [False] * n
        sim.leader = leader
        sim.turn = leader
        sim.tricks_done = 0
        sim.stake = stake
        sim.last_toeper = -1
        sim.toeper = -1
        sim.answer_order = []
        sim.answer_pos = 0
        sim.gone = 0
        sim.phase = PLAYING
        sim.winner = -1
        sim.jack = False
        sim.continue_play()
        return sim

    def set_rules(self, rules: TableRules) -> None:
        self.folded_card_wins = rules.folded_card_wins
        self.max_stake = rules.max_stake
        self.small = rules.small_players
        self.no_toep_past_limit = rules.no_toep_past_limit
        self.limit = rules.limit

    def copy(self) -> RoundSim:
        other = RoundSim.__new__(RoundSim)
        for name in RoundSim.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = [list(h) for h in self.hands]
        other.in_round = list(self.in_round)
        other.folded = list(self.folded)
        other.marks = list(self.marks)
        other.taken = list(self.taken)
        other.fold_count = list(self.fold_count)
        other.table = list(self.table)
        other.played = list(self.played)
        other.answer_order = list(self.answer_order)
        return other

    # --- what may happen ---------------------------------------------------------

    @property
    def answer_seat(self) -> int:
        return self.answer_order[self.answer_pos]

    @property
    def led(self) -> int:
        return self.table[0][1] >> 3 if self.table else -1

    @property
    def tricks_left(self) -> int:
        return self.hand_size - self.tricks_done

    def can_toep(self, seat: int) -> bool:
        """R8 with V2 and V4."""
        if not self.may_toep or self.last_toeper == seat:
            return False
        if self.max_stake is not None and self.stake + 1 > self.max_stake:
            return False
        return not (self.no_toep_past_limit and self.marks[seat] + self.stake + 1 > self.limit)

    def forced(self, seat: int) -> bool:
        return self.small is not None and self.fold_count[seat] >= self.small

    # --- moves ---------------------------------------------------------------------

    def play(self, card: int) -> None:
        seat = self.turn
        self.hands[seat].remove(card)
        self.table.append((seat, card))
        self.played[seat] = True
        self.gone |= 1 << card
        self.continue_play()

    def toep(self) -> None:
        seat = self.turn
        self.stake += 1
        self.last_toeper = seat
        self.toeper = seat
        n = self.n
        self.answer_order = [(seat + k) % n for k in range(1, n) if self.in_round[(seat + k) % n]]
        self.answer_pos = 0
        self.phase = ANSWERING
        self.advance_answers()

    def answer(self, call: bool) -> None:
        seat = self.answer_order[self.answer_pos]
        self.answer_pos += 1
        if call:
            self.fold_count[seat] = 0
        else:
            self.fold_count[seat] += 1
            self.folded[seat] = True
            self.take(seat, self.stake - 1)
            self.leave(seat)
            if self.n_in <= 1:
                self.end_alone()
                return
        self.advance_answers()

    # --- forced steps -----------------------------------------------------------------

    def advance_answers(self) -> None:
        order = self.answer_order
        while self.answer_pos < len(order):
            s = order[self.answer_pos]
            if not self.in_round[s]:
                self.answer_pos += 1
            elif self.forced(s):
                self.fold_count[s] = 0  # R10: a forced call resets the counter
                self.answer_pos += 1
            else:
                self.phase = ANSWERING
                return
        self.phase = PLAYING
        self.continue_play()

    def continue_play(self) -> None:
        n = self.n
        lead = self.leader
        for k in range(n):
            s = (lead + k) % n
            if self.in_round[s] and not self.played[s]:
                self.turn = s
                self.phase = PLAYING
                return
        self.finish_trick()

    def finish_trick(self) -> None:
        table = self.table
        led = table[0][1] >> 3
        best_seat, best = -1, -1
        open_seat, open_best = -1, -1
        for seat, card in table:
            if card >> 3 != led:
                continue
            if card > best:
                best_seat, best = seat, card
            if not self.folded[seat] and card > open_best:
                open_seat, open_best = seat, card
        if not self.folded_card_wins and open_best >= 0:
            best_seat, best = open_seat, open_best  # V3
        owner_in = self.in_round[best_seat]
        leads = best_seat if owner_in else self.next_in(best_seat)  # R5
        self.tricks_done += 1
        if self.tricks_done == self.hand_size:
            self.end_round(leads, owner_in and best & 7 == JACK and self.jack_counts)
            return
        self.leader = leads
        self.table = []
        self.played = [False] * self.n
        self.continue_play()

    def next_in(self, seat: int) -> int:
        for k in range(1, self.n + 1):
            s = (seat + k) % self.n
            if self.in_round[s]:
                return s
        return seat

    def take(self, seat: int, marks: int) -> None:
        self.marks[seat] += marks
        self.taken[seat] += marks

    def leave(self, seat: int) -> None:
        self.in_round[seat] = False
        self.n_in -= 1
        self.hands[seat] = []

    def end_alone(self) -> None:
        """R6 ruling: the one left wins at once, no jack finish."""
        left = [s for s in range(self.n) if self.in_round[s]]
        self.end_round(left[0] if left else -1, False)

    def end_round(self, winner: int, jack: bool) -> None:
        self.winner = winner
        self.jack = jack
        if self.jack_counts:
            stake = self.stake * (2 if jack else 1)
            for s in range(self.n):
                if self.in_round[s] and s != winner:
                    self.take(s, stake)
        self.phase = OVER


class Policy(Protocol):
    """How every seat in a simulated round decides (sees only its own hand)."""

    def card(self, sim: RoundSim, seat: int, rng: Random) -> int: ...

    def toep(self, sim: RoundSim, seat: int, rng: Random) -> bool: ...

    def call(self, sim: RoundSim, seat: int, rng: Random) -> bool: ...


def run(sim: RoundSim, policy: Policy, rng: Random) -> RoundSim:
    """Play the round to its end with `policy` for every seat."""
    while sim.phase != OVER:
        if sim.phase == ANSWERING:
            sim.answer(policy.call(sim, sim.answer_seat, rng))
            continue
        seat = sim.turn
        if sim.can_toep(seat) and policy.toep(sim, seat, rng):
            sim.toep()
            continue
        sim.play(policy.card(sim, seat, rng))
    return sim
