"""`Game`: the rules of docs/rules.md as a state machine.

The contract (after OpenSpiel and pokerkit): `waiting()` says which seats the
game waits for (public: it never hangs on a hidden card), `legal_events(seat)`
what they may do (private to the seat), `verify(event)` raises an
`IllegalEvent` naming the rule, `apply(event)` changes the state and returns
the happenings in order, `over` and `winner` give the result. Forced steps
(deals, the end of a trick, the next round, a forced call, a forced play-in)
run inside `apply`. Chance comes only from the injected `Chance`.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from engine import events as ev
from engine.cards import DECK, Card, Rank
from engine.chance import Chance
from engine.errors import IllegalEvent, RecordError, SeatRef
from engine.events import Event, Happening
from engine.round_base import RoundBase
from engine.rules import NextLeader, TableRules, TwoLeft
from engine.state import (
    DEAD_MAN,
    NORMAL,
    SUPER_TOEP,
    WINDOW_PHASES,
    DealEntry,
    LaidDown,
    Phase,
    RoundSummary,
    Trick,
    is_genuine,
)

log = logging.getLogger(__name__)

_RULE_OF: dict[str, str] = {
    ev.PLAY: "R4", ev.TOEP: "R8", ev.CALL: "R9", ev.FOLD: "R9", ev.VUILE_WAS: "R12",
    ev.CHECK: "R12", ev.BELIEVE: "R12", ev.CLOSE_WINDOW: "R12", ev.PLAY_IN: "R13",
    ev.SIT_OUT: "R13", ev.SUPER_YES: "R15", ev.SUPER_NO: "R15", ev.FORFEIT: "R16",
}

PLAYING = Phase.PLAY
ANSWERING = Phase.TOEP_ANSWER
WINDOW = Phase.WINDOW
CHECKING = Phase.CHECK
CHOOSING = Phase.DEAD_MAN_CHOICE
ASKING = Phase.SUPER_QUESTION
OVER = Phase.OVER


@dataclass(frozen=True)
class Waiting:
    """Who the game waits for. `window` means silence is an answer (R17);
    otherwise it is a turn with a clock (R16)."""

    phase: Phase
    seats: tuple[int, ...]
    window: bool


class Game:
    def __init__(self, rules: TableRules, players: Sequence[str], chance: Chance,
                 first_leader: int | None = None) -> None:
        n = len(players)
        if not 2 <= n <= rules.max_players:
            raise RecordError(f"a table seats 2 to {rules.max_players} players (V12), "
                              f"not {n}")
        if first_leader is not None and not 0 <= first_leader < n:
            raise RecordError(f"first_leader must be a seat from 0 to {n - 1}")
        self.rules = rules
        self.players = tuple(players)
        self.n = n
        self.chance = chance
        self.first_leader = chance.first_leader(n) if first_leader is None else first_leader
        self.marks = [0] * n
        self.out = [False] * n
        self.forfeited = [False] * n
        self.forfeit_order: list[int] = []
        self.fold_count = [0] * n
        self.had_dead_man = [False] * n
        # Checked vuile was calls per caller, this game: caught as a bluff, or
        # shown genuine. Public: the table announces every outcome (R12).
        self.caught = [0] * n
        self.shown_genuine = [0] * n
        self.two_left_done = False
        self.rounds: list[RoundSummary] = []
        self.winner: int | None = None
        self.events: list[Event] = []
        self.deal_log: list[DealEntry] = []
        self.phase = WINDOW
        self.round_no = 0
        self.kind = NORMAL
        self._due_dead: list[int] = []
        self._out: list[Happening] = []
        self._reset_round()
        self._start_round()
        self.opening: tuple[Happening, ...] = tuple(self._out)

    # --- the state contract -----------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is OVER

    @property
    def round_number(self) -> int:
        """The round in play, or about to start, or (game over) the last one."""
        return self.round_no + (1 if self.phase is ASKING else 0)

    def alive(self) -> list[int]:
        return [s for s in range(self.n) if not self.out[s]]

    def waiting(self) -> Waiting:
        phase = self.phase
        if phase is PLAYING:
            return Waiting(phase, (self.turn,), False)
        if phase is ANSWERING:
            return Waiting(phase, (self.toep_turn,), False)
        if phase is WINDOW:
            # R12: everyone in the round is waited for, whether or not they may
            # call: who may call hangs on hidden cards (a dead man's round, a
            # super toep), and `legal_events(seat)` keeps that private.
            return Waiting(phase, tuple(s for s in range(self.n) if self.in_round[s]), True)
        if phase is CHECKING:
            return Waiting(phase, (self.call_turn,), True)
        if phase is CHOOSING:
            return Waiting(phase, tuple(sorted(self.choosers)), False)
        if phase is ASKING:
            asked = tuple(s for s in self.super_asked if s not in self.super_yes)
            return Waiting(phase, asked, True)
        return Waiting(phase, (), False)

    def legal_events(self, seat: int | None = None) -> list[Event]:
        """The legal events of `seat`, or of everyone (close_window included)
        when `seat` is None. A forfeit, always possible, is not listed."""
        phase = self.phase
        if phase is PLAYING:
            return self._legal_play(self.turn) if seat is None or seat == self.turn else []
        if phase is ANSWERING:
            s = self.toep_turn
            if seat is not None and seat != s:
                return []
            return [_CALLS[s], _FOLDS[s]]
        if phase is WINDOW:
            out = [_CALLS_VW[s] for s in self._window_seats(seat) if self._may_call(s)]
            if seat is None:
                out.append(_CLOSE)
            return out
        if phase is CHECKING:
            s = self.call_turn
            if seat is not None and seat != s:
                return []
            return [_CHECKS[s], _BELIEVES[s]]
        if phase is CHOOSING:
            choosers = [s for s in sorted(self.choosers) if seat is None or s == seat]
            return [e for s in choosers for e in (ev.act(ev.PLAY_IN, s), ev.act(ev.SIT_OUT, s))]
        if phase is ASKING:
            asked = [s for s in self.waiting().seats if seat is None or s == seat]
            return [e for s in asked for e in (ev.act(ev.SUPER_YES, s), ev.act(ev.SUPER_NO, s))]
        return []

    def _window_seats(self, seat: int | None) -> range:
        return range(self.n) if seat is None else range(seat, seat + 1)

    def can(self, event: Event) -> bool:
        try:
            self.verify(event)
        except IllegalEvent:
            return False
        return True

    def apply(self, event: Event) -> tuple[Happening, ...]:
        self.verify(event)
        out: list[Happening] = []
        self._out = out
        # Counted before it runs, so a round it begins has its base after it.
        self.events.append(event)
        _HANDLERS[event.do](self, event)
        return tuple(out)

    @classmethod
    def at_round(cls, rules: TableRules, players: Sequence[str], chance: Chance,
                 first_leader: int, base: RoundBase, events: Sequence[Event],
                 deal_log: Sequence[DealEntry]) -> Game:
        """The game as it was when the round of `base` began, without
        replaying the rounds before it: `events` and `deal_log` are the
        game's first `base.events` events and `base.deals` deals (or more;
        the rest are ignored), and `chance` deals the round from its record.
        The caller applies the events after `base.events`."""
        if len(events) < base.events or len(deal_log) < base.deals:
            raise RecordError("the round base lies beyond the log")
        base.check(rules.limit)
        game = cls.__new__(cls)
        game.rules, game.players, game.n = rules, tuple(players), len(players)
        game.chance, game.first_leader = chance, first_leader
        game.marks, game.out = list(base.marks), list(base.out)
        game.forfeited, game.forfeit_order = list(base.forfeited), list(base.forfeit_order)
        game.fold_count, game.had_dead_man = list(base.fold_count), list(base.had_dead_man)
        game.caught, game.shown_genuine = list(base.caught), list(base.shown_genuine)
        game.two_left_done, game._due_dead = base.two_left_done, list(base.due_dead)
        game.rounds, game.round_no, game.winner = list(base.rounds), base.round_no, None
        game.events, game.deal_log = list(events[:base.events]), list(deal_log[:base.deals])
        game.phase, game.kind, game._out = WINDOW, NORMAL, []
        if base.previous is not None:  # so the round's own base comes out as saved
            game.round_base = base.previous
        game._reset_round()
        game._begin_round(base.kind)
        game.opening = tuple(game._out)  # the round's beginning, as a live game told it
        return game

    def clone(self, chance: Chance | None = None) -> Game:
        """An independent copy (for a computer player's look-ahead), drawing
        further chance from `chance` if given."""
        other = copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, list):
                setattr(other, name, list(value))
            elif isinstance(value, set):
                setattr(other, name, set(value))
        other.hands = [list(h) for h in self.hands]
        if self.deal_log:
            last = self.deal_log[-1]
            other.deal_log[-1] = DealEntry(last.hands, last.stock, last.leader,
                                           list(last.reshuffles))
        if chance is not None:
            other.chance = chance
        return other

    # --- verification -------------------------------------------------------------

    def verify(self, event: Event) -> None:
        """Raise `IllegalEvent` (rule id and reason) unless `event` is legal now."""
        do = event.do
        if self.phase is OVER:
            if do not in _RULE_OF:
                raise IllegalEvent("", "unknown_event", do=do)
            raise IllegalEvent("R14", "game_over")
        if do == ev.CLOSE_WINDOW:
            if self.phase is not WINDOW:
                raise self._wrong_moment(do)
            return
        verifier = _VERIFIERS.get(do)
        if verifier is None and do != ev.FORFEIT:
            raise IllegalEvent("", "unknown_event", do=do)
        seat = event.seat
        if seat is None:
            raise IllegalEvent("", "missing_seat")
        if not 0 <= seat < self.n:
            raise IllegalEvent("", "no_such_seat", number=seat)
        if self.out[seat]:
            raise IllegalEvent("R16" if self.forfeited[seat] else "R14", "seat_out", seat,
                               who=SeatRef(seat))
        if verifier is not None:
            verifier(self, seat, event)

    def _wrong_moment(self, do: str, seat: int | None = None) -> IllegalEvent:
        return IllegalEvent(_RULE_OF[do], "wrong_moment", seat, do=do, moment=self.phase)

    def _not_your_turn(self, do: str, seat: int, waiting: int) -> IllegalEvent:
        return IllegalEvent(_RULE_OF[do], "not_your_turn", seat,
                            waiting=SeatRef(waiting))

    def _verify_play(self, seat: int, event: Event) -> None:
        if self.phase is ANSWERING:
            if seat == self.toep_turn:
                raise IllegalEvent("R9", "answer_toep_first", seat)
            raise IllegalEvent("R9", "wrong_moment", seat, do=ev.PLAY, moment=ANSWERING)
        if self.phase is not PLAYING:
            raise self._wrong_moment(ev.PLAY, seat)
        if seat != self.turn:
            raise self._not_your_turn(ev.PLAY, seat, self.turn)
        card = event.card
        if card is None:
            raise IllegalEvent("R4", "missing_card", seat)
        hand = self.hands[seat]
        if card not in hand:
            raise IllegalEvent("R4", "not_in_hand", seat, card=card)
        if self.table:
            led = self.table[0][1].suit
            if card.suit is not led:
                follow = [c for c in hand if c.suit is led]
                if follow:
                    raise IllegalEvent("R4", "must_follow_suit", seat,
                                       cards=tuple(sorted(follow)))

    def _verify_toep(self, seat: int, event: Event) -> None:
        if self.phase is not PLAYING:
            raise self._wrong_moment(ev.TOEP, seat)
        if seat != self.turn:
            raise self._not_your_turn(ev.TOEP, seat, self.turn)
        reason = self._toep_refusal(seat)
        if reason is not None:
            raise reason

    def _toep_refusal(self, seat: int) -> IllegalEvent | None:
        if self.kind == DEAD_MAN:
            return IllegalEvent("R13", "no_toep_dead_man", seat)
        if self.kind == SUPER_TOEP:
            return IllegalEvent("R15", "no_toep_super", seat)
        if self.last_toeper == seat:
            return IllegalEvent("R8", "last_toeper", seat)
        rules = self.rules
        if rules.max_stake is not None and self.stake + 1 > rules.max_stake:
            return IllegalEvent("V2", "max_stake", seat, max_stake=rules.max_stake)
        if rules.no_toep_past_limit and self.marks[seat] + self.stake + 1 > rules.limit:
            return IllegalEvent("V4", "toep_past_limit", seat, marks=self.marks[seat],
                                stake=self.stake + 1, limit=rules.limit)
        return None

    def _verify_answer(self, seat: int, event: Event) -> None:
        if self.phase is not ANSWERING:
            raise self._wrong_moment(event.do, seat)
        if seat != self.toep_turn:
            pending = self.toep_order[self.toep_pos:]
            if seat in pending and self._forced_caller(seat):
                raise IllegalEvent("R10", "forced_call", seat)
            raise self._not_your_turn(event.do, seat, self.toep_turn)

    def _verify_vuile_was(self, seat: int, event: Event) -> None:
        if self.phase is CHECKING:
            raise IllegalEvent("R12", "vuile_was_pending", seat)
        if self.phase is not WINDOW:
            raise self._wrong_moment(ev.VUILE_WAS, seat)
        if not self.in_round[seat]:
            raise IllegalEvent("R12", "not_in_round", seat)
        if self.barred[seat]:
            raise IllegalEvent("R12", "vuile_was_barred", seat)
        if len(self.stock) + len(self.discards) < self.hand_size:
            raise IllegalEvent("R12", "vuile_was_no_cards", seat)
        if self.kind != NORMAL and not self._genuine(seat):
            rule = "R13" if self.kind == DEAD_MAN else "R15"
            raise IllegalEvent(rule, "vuile_was_genuine_only", seat, kind=self.kind)

    def _verify_check(self, seat: int, event: Event) -> None:
        if self.phase is not CHECKING:
            raise self._wrong_moment(event.do, seat)
        if seat != self.call_turn:
            raise IllegalEvent("R12", "not_checker_turn", seat, waiting=SeatRef(self.call_turn))

    def _verify_choice(self, seat: int, event: Event) -> None:
        if self.phase is not CHOOSING:
            raise self._wrong_moment(event.do, seat)
        if seat in self.dead_men:
            raise IllegalEvent("R13", "dead_man_plays", seat)
        if seat not in self.choosers:
            if seat in self.chose:
                raise IllegalEvent("R13", "already_chose", seat)
            raise IllegalEvent("R13", "no_choice", seat)

    def _verify_super(self, seat: int, event: Event) -> None:
        if self.phase is not ASKING:
            raise self._wrong_moment(event.do, seat)
        if seat in self.super_yes:
            raise IllegalEvent("R15", "already_answered", seat)

    # --- legal-move helpers ---------------------------------------------------------

    def _legal_play(self, seat: int) -> list[Event]:
        hand = self.hands[seat]
        cards = hand
        if self.table:
            led = self.table[0][1].suit
            follow = [c for c in hand if c.suit is led]
            if follow:
                cards = follow
        plays = _PLAYS[seat]
        out = [plays[c.index] for c in cards]
        if self._may_toep(seat):
            out.append(_TOEPS[seat])
        return out

    def _may_toep(self, seat: int) -> bool:
        """The fast twin of `_toep_refusal`, for listing legal events."""
        if self.kind != NORMAL or self.last_toeper == seat:
            return False
        rules = self.rules
        if rules.max_stake is not None and self.stake >= rules.max_stake:
            return False
        return not (rules.no_toep_past_limit
                    and self.marks[seat] + self.stake + 1 > rules.limit)

    def _may_call(self, seat: int) -> bool:
        if not self.in_round[seat] or self.barred[seat]:
            return False
        if len(self.stock) + len(self.discards) < self.hand_size:
            return False
        return self.kind == NORMAL or self._genuine(seat)

    def _genuine(self, seat: int) -> bool:
        return is_genuine(self.hands[seat], self.hand_size, self.rules.seven_counts)

    def _forced_caller(self, seat: int) -> bool:
        threshold = self.rules.small_players
        return threshold is not None and self.fold_count[seat] >= threshold

    # --- rounds -------------------------------------------------------------------

    def _reset_round(self) -> None:
        n = self.n
        self.in_round = [not o for o in self.out]
        self.n_in_round = sum(self.in_round)
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.stock: list[Card] = []
        self.discards: list[Card] = []
        self.table: list[tuple[int, Card]] = []
        self.played = [False] * n
        self.tricks: list[Trick] = []
        self.trick_leader = 0
        self.turn = 0
        self.stake = 1
        self.last_toeper: int | None = None
        self.round_marks = [0] * n
        self.folded = [False] * n
        self.sat_out = [False] * n
        self.open_hand = [False] * n
        self.barred = [False] * n
        self.row = 0
        self.laid_down: list[LaidDown] = []
        self.dead_men: tuple[int, ...] = ()
        self.choosers: set[int] = set()
        self.chose: set[int] = set()
        self.due_leader = 0
        self.first_card_seat: int | None = None
        self.deal_in_round = 0
        self.reshuffles = 0
        self.hand_size = 4
        self.toep_order: list[int] = []
        self.toep_pos = 0
        self.toep_turn = 0
        self.toeper = 0
        self.call_caller = 0
        self.call_order: list[int] = []
        self.call_pos = 0
        self.call_turn = 0
        self.call_checkers: list[int] = []
        self.super_asked: tuple[int, ...] = ()
        self.super_yes: set[int] = set()

    def _start_round(self) -> None:
        """Between rounds: the two-players-left question (R15), then the deal."""
        alive = self.alive()
        if not self.two_left_done and self.n > 2 and len(alive) == 2:
            self.two_left_done = True
            if self.rules.two_left is TwoLeft.SUPER_TOEP:
                self._begin_round(SUPER_TOEP)
                return
            if self.rules.two_left is TwoLeft.ASK:
                self.phase = ASKING
                self.super_asked = tuple(alive)
                self.super_yes = set()
                self._out.append(ev.SuperToepAsked(self.super_asked))
                return
        self._begin_round(DEAD_MAN if self._due_dead else NORMAL)

    def _begin_round(self, kind: str) -> None:
        # The base of the round that ends here (none before the first round).
        ended: RoundBase | None = getattr(self, "round_base", None)
        self.round_base = RoundBase(
            len(self.events), len(self.deal_log), kind, self.round_no, tuple(self.marks),
            tuple(self.out), tuple(self.forfeited), tuple(self.forfeit_order),
            tuple(self.fold_count), tuple(self.had_dead_man), tuple(self.caught),
            tuple(self.shown_genuine), self.two_left_done,
            tuple(self._due_dead), tuple(self.rounds), None if ended is None else ended.alone())
        self._reset_round()
        self.round_no += 1
        self.kind = kind
        self.hand_size = 8 if kind == SUPER_TOEP else 4
        self.stake = 2 if kind == DEAD_MAN else 1
        self._deal(redeal=False)
        if kind == DEAD_MAN:
            self.dead_men = tuple(self._due_dead)
            for s in self.dead_men:
                self.had_dead_man[s] = True
            if len(self.dead_men) == 1:
                self.due_leader = self.dead_men[0]
            else:
                leader = self.chance.leader(len(self.deal_log) - 1, self.dead_men)
                self.deal_log[-1].leader = leader
                self.due_leader = leader
        else:
            self.due_leader = self._next_round_leader()
        self._due_dead = []
        self._out.append(ev.RoundStarted(self.round_no, kind, self.due_leader, self.stake))
        if kind == DEAD_MAN:
            self._begin_dead_mans_choice()
        else:
            self.phase = WINDOW

    def _next_round_leader(self) -> int:
        """R7 and V5: who leads the first trick of this round."""
        if not self.rounds:
            return self._from(self.first_leader, include_self=True)
        last = self.rounds[-1]
        rule = self.rules.next_leader
        if rule is NextLeader.AFTER_LEADER or last.winner is None:
            return self._from(last.leader, include_self=False)
        if rule is NextLeader.AFTER_WINNER:
            return self._from(last.winner, include_self=False)
        return self._from(last.winner, include_self=True)

    def _from(self, seat: int, include_self: bool) -> int:
        """`seat` itself (if asked and in the round), else the next one
        clockwise who is in the round, with `seat` itself last."""
        if include_self and self.in_round[seat]:
            return seat
        for k in range(1, self.n + 1):
            s = (seat + k) % self.n
            if self.in_round[s]:
                return s
        return seat

    def _deal(self, redeal: bool) -> None:
        index = len(self.deal_log)
        hands, stock = self.chance.deal(index, list(self.in_round), self.hand_size)
        self.deal_log.append(DealEntry([None if h is None else list(h) for h in hands],
                                       list(stock)))
        self.hands = [[] if h is None else h for h in hands]
        self.stock = stock
        self.discards = []
        self.reshuffles = 0
        self.open_hand = [False] * self.n  # new cards are hidden cards
        self.deal_in_round += 1
        self._out.append(ev.Dealt(self.round_no, redeal))

    def _begin_dead_mans_choice(self) -> None:
        self._out.append(ev.DeadMansRound(self.dead_men, self.due_leader))
        limit = self.rules.limit
        for s in range(self.n):
            if not self.in_round[s] or s in self.dead_men:
                continue
            if self.marks[s] + 1 >= limit:
                self._out.append(ev.PlayedIn(s, True))
            else:
                self.choosers.add(s)
        if self.choosers:
            self.phase = CHOOSING
        else:
            self.phase = WINDOW

    def _leave_round(self, seat: int) -> None:
        """The seat leaves the round; an unplayed hand goes face down on the discards."""
        self.in_round[seat] = False
        self.n_in_round -= 1
        hand = self.hands[seat]
        if hand:
            self.discards.extend(hand)
            self.hands[seat] = []

    def _round_left_alone(self) -> bool:
        """R6 ruling: all but one have left the round: it ends at once."""
        if self.n_in_round > 1:
            return False
        left = [s for s in range(self.n) if self.in_round[s]]
        self._end_round(left[0] if left else None, jack=False)
        return True

    def _take_marks(self, seat: int, marks: int, reason: str) -> bool:
        """Give `seat` marks; True if that put it out (R14)."""
        self.marks[seat] += marks
        self.round_marks[seat] += marks
        self._out.append(ev.MarksTaken(seat, marks, self.marks[seat], reason))
        if self.marks[seat] >= self.rules.limit and not self.out[seat]:
            self.out[seat] = True
            self._out.append(ev.PlayerOut(seat, "limit"))
            return True
        return False

    def _round_leader(self) -> int:
        """"Whoever led" a round (R7 ruling)."""
        if self.first_card_seat is not None:
            return self.first_card_seat
        return self._from(self.due_leader, include_self=True)

    def _end_round(self, winner: int | None, jack: bool) -> None:
        leader = self._round_leader()
        if self.kind == SUPER_TOEP:
            summary = RoundSummary(self.round_no, SUPER_TOEP, leader, 1, winner, False,
                                   (0,) * self.n)
            self.rounds.append(summary)
            self._out.append(ev.RoundWon(self.round_no, winner, 1, False))
            losers = [s for s in self.alive() if s != winner]
            for s in losers:
                self.out[s] = True
                self._out.append(ev.PlayerOut(s, "super_toep"))
            self._game_over(losers)
            return
        stake = self.stake * (2 if jack else 1)
        just_out = []
        for s in range(self.n):
            if self.in_round[s] and s != winner and self._take_marks(
                    s, stake, "jack_finish" if jack else "round"):
                just_out.append(s)
        self.rounds.append(RoundSummary(self.round_no, self.kind, leader, self.stake, winner,
                                        jack, tuple(self.round_marks)))
        self._out.append(ev.RoundWon(self.round_no, winner, self.stake, jack))
        if self._game_over(just_out):
            return
        edge = self.rules.edge
        self._due_dead = [s for s in self.alive() if self.rules.dead_man
                          and self.marks[s] == edge and not self.had_dead_man[s]]
        self._start_round()

    def _game_over(self, just_out: list[int]) -> bool:
        """End the game if one (or nobody) is left, or V6's rounds are played."""
        alive = self.alive()
        if len(alive) == 1:
            self._win(alive[0])
        elif not alive:
            self._win(self._tie_break(just_out))
        elif self.rules.rounds is not None and len(self.rounds) >= self.rules.rounds:
            self._win(self._tie_break(alive))
        else:
            return False
        return True

    def _tie_break(self, seats: list[int]) -> int:
        """R14 ruling: fewest marks; then that round's winner; then the first
        clockwise from that round's leader, the leader last."""
        fewest = min(self.marks[s] for s in seats)
        tied = [s for s in seats if self.marks[s] == fewest]
        if len(tied) == 1:
            return tied[0]
        last = self.rounds[-1] if self.rounds else None
        if last is not None and last.winner in tied:
            return last.winner
        lead = last.leader if last is not None else self.first_leader
        for k in range(1, self.n + 1):
            s = (lead + k) % self.n
            if s in tied:
                return s
        return tied[0]

    def _win(self, seat: int) -> None:
        self.winner = seat
        self.phase = OVER
        for s in range(self.n):
            if s != seat:
                self.out[s] = True
        self._out.append(ev.GameWon(seat))

    # --- vuile was (R12) -----------------------------------------------------------

    def _on_vuile_was(self, event: Event) -> None:
        seat = event.seat
        assert seat is not None
        self._out.append(ev.VuileWasCalled(seat))
        if self.kind != NORMAL:
            # Only a genuine call is allowed here, so there is nothing to check.
            self._out.append(ev.VuileWasOutcome(seat, self._new_cards_outcome(), True, ()))
            self._new_cards(seat)
            return
        self.call_caller = seat
        self.call_order = [(seat + k) % self.n for k in range(1, self.n)
                           if self.in_round[(seat + k) % self.n]]
        self.call_pos = 0
        self.call_checkers = []
        self.phase = CHECKING
        self._advance_check()

    def _on_check(self, event: Event) -> None:
        seat = event.seat
        assert seat is not None
        if event.do == ev.CHECK:
            self.call_checkers.append(seat)
            self._out.append(ev.Checked(seat))
        else:
            self._out.append(ev.Believed(seat))
        self.call_pos += 1
        self._advance_check()

    def _advance_check(self) -> None:
        order = self.call_order
        while self.call_pos < len(order) and not self.in_round[order[self.call_pos]]:
            self.call_pos += 1
        if self.call_pos < len(order):
            self.call_turn = order[self.call_pos]
            return
        self._resolve_call()

    def _new_cards_outcome(self) -> str:
        return "redeal" if self.row + 1 >= self.rules.redeal_after else "new_cards"

    def _resolve_call(self) -> None:
        caller = self.call_caller
        checkers = tuple(s for s in self.call_checkers if self.in_round[s])
        self.phase = WINDOW
        if not checkers:
            self._out.append(ev.VuileWasOutcome(caller, self._new_cards_outcome(), None, ()))
            self._new_cards(caller)
            return
        if self._genuine(caller):
            self.shown_genuine[caller] += 1
            self.laid_down.append(LaidDown(caller, tuple(self.hands[caller]), checkers))
            self._out.append(ev.VuileWasOutcome(caller, self._new_cards_outcome(), True,
                                                checkers))
            for s in checkers:
                if self._take_marks(s, 1, "check"):
                    self._leave_round(s)
            if self._round_left_alone():
                return
            self._new_cards(caller)
            return
        self._out.append(ev.VuileWasOutcome(caller, "caught", False, checkers))
        self.caught[caller] += 1
        self.open_hand[caller] = True
        self.barred[caller] = True
        self.row = 0
        if self._take_marks(caller, 1, "bluff"):
            self._leave_round(caller)
            self._round_left_alone()

    def _new_cards(self, caller: int) -> None:
        """A call that brings new cards: the caller draws, or the row is complete."""
        self.row += 1
        if self.row >= self.rules.redeal_after:
            self.row = 0
            self._out.append(ev.Redealt(self.rules.redeal_after))
            self._deal(redeal=True)
            self.phase = WINDOW
            return
        size = self.hand_size
        if len(self.stock) < size:
            order = self.chance.reshuffle(len(self.deal_log) - 1, self.reshuffles,
                                          self.discards)
            self.deal_log[-1].reshuffles.append(list(order))
            self.reshuffles += 1
            self.stock.extend(order)
            self._out.append(ev.Reshuffled(len(order)))
            self.discards = []
        new = self.stock[:size]
        del self.stock[:size]
        self.discards.extend(self.hands[caller])
        self.hands[caller] = new
        self.open_hand[caller] = False

    def _on_close_window(self, event: Event) -> None:
        self._out.append(ev.WindowClosed())
        self.trick_leader = self._from(self.due_leader, include_self=True)
        self.played = [False] * self.n
        self.table = []
        self._continue_play()

    # --- the dead man's round (R13) and the super toep question (R15) ----------------

    def _on_choice(self, event: Event) -> None:
        seat = event.seat
        assert seat is not None
        self.choosers.discard(seat)
        self.chose.add(seat)
        if event.do == ev.PLAY_IN:
            self._out.append(ev.PlayedIn(seat, False))
        else:
            self.sat_out[seat] = True
            self._out.append(ev.SatOut(seat))
            self._take_marks(seat, 1, "sit_out")
            self._leave_round(seat)
            if self._round_left_alone():
                return
        if not self.choosers:
            self.phase = WINDOW

    def _on_super(self, event: Event) -> None:
        seat = event.seat
        assert seat is not None
        yes = event.do == ev.SUPER_YES
        self._out.append(ev.SuperToepAnswered(seat, yes))
        if yes:
            self.super_yes.add(seat)
            if len(self.super_yes) < len(self.super_asked):
                return
        self._out.append(ev.SuperToepDecided(yes))
        due = [s for s in self._due_dead if not self.out[s]]
        self._due_dead = due
        self._begin_round(SUPER_TOEP if yes else (DEAD_MAN if due else NORMAL))

    # --- tricks, toep, call and fold (R4-R11) ----------------------------------------

    def _on_play(self, event: Event) -> None:
        seat = event.seat
        card = event.card
        assert seat is not None and card is not None
        self.hands[seat].remove(card)
        self.table.append((seat, card))
        self.played[seat] = True
        if self.first_card_seat is None:
            self.first_card_seat = seat
        self._out.append(ev.CardPlayed(seat, card))
        self._continue_play()

    def _continue_play(self) -> None:
        """Next in the trick: the first seat clockwise from its leader (the leader
        first) that is in the round and has not played; or the trick is done."""
        n = self.n
        lead = self.trick_leader
        in_round = self.in_round
        played = self.played
        for k in range(n):
            s = (lead + k) % n
            if in_round[s] and not played[s]:
                self.turn = s
                self.phase = PLAYING
                return
        self._finish_trick()

    def _finish_trick(self) -> None:
        table = self.table
        led = table[0][1].suit
        best_seat, best = -1, None
        best_open_seat, best_open = -1, None
        for seat, card in table:
            if card.suit is not led:
                continue
            if best is None or card.rank > best.rank:
                best_seat, best = seat, card
            if not self.folded[seat] and (best_open is None or card.rank > best_open.rank):
                best_open_seat, best_open = seat, card
        if not self.rules.folded_card_wins and best_open is not None:
            best_seat, best = best_open_seat, best_open  # V3
        assert best is not None
        number = len(self.tricks) + 1
        self.tricks.append(Trick(number, tuple(table), best_seat, best))
        self.table = []
        owner_in = self.in_round[best_seat]
        leads = best_seat if owner_in else self._from(best_seat, include_self=False)  # R5
        last = number == self.hand_size
        self._out.append(ev.TrickWon(number, best_seat, best, None if last else leads))
        if last:
            jack = owner_in and best.rank is Rank.JACK and self.kind != SUPER_TOEP
            self._end_round(leads, jack)
            return
        self.trick_leader = leads
        self.played = [False] * self.n
        self._continue_play()

    def _on_toep(self, event: Event) -> None:
        seat = event.seat
        assert seat is not None
        self.stake += 1
        self.last_toeper = seat
        self.toeper = seat
        self._out.append(ev.Toeped(seat, self.stake))
        n = self.n
        self.toep_order = [(seat + k) % n for k in range(1, n) if self.in_round[(seat + k) % n]]
        self.toep_pos = 0
        self.phase = ANSWERING
        self._advance_toep()

    def _advance_toep(self) -> None:
        order = self.toep_order
        while self.toep_pos < len(order):
            s = order[self.toep_pos]
            if not self.in_round[s]:
                self.toep_pos += 1
            elif self._forced_caller(s):
                # R10: the call is made for them when their turn comes.
                self.fold_count[s] = 0
                self._out.append(ev.Called(s, True))
                self.toep_pos += 1
            else:
                self.toep_turn = s
                return
        self._continue_play()

    def _on_answer(self, event: Event) -> None:
        seat = event.seat
        assert seat is not None
        self.toep_pos += 1
        if event.do == ev.CALL:
            self.fold_count[seat] = 0
            self._out.append(ev.Called(seat, False))
        else:
            self.fold_count[seat] += 1
            self.folded[seat] = True
            self._out.append(ev.Folded(seat))
            self._take_marks(seat, self.stake - 1, "fold")
            self._leave_round(seat)
            if self._round_left_alone():
                return
        self._advance_toep()

    # --- forfeits (R16) ---------------------------------------------------------------

    def _on_forfeit(self, event: Event) -> None:
        seat = event.seat
        assert seat is not None
        self.forfeited[seat] = True
        self.out[seat] = True
        self.forfeit_order.append(seat)
        self._out.append(ev.Forfeited(seat))
        self._out.append(ev.PlayerOut(seat, "forfeit"))
        if self.phase is ASKING:
            self.super_asked = tuple(s for s in self.super_asked if s != seat)
            self._game_over([seat])
            return
        was_in = self.in_round[seat]
        if was_in:
            self._leave_round(seat)
        self.choosers.discard(seat)
        lapsed = self.phase is CHECKING and seat == self.call_caller
        if lapsed:
            # R12 ruling: the call lapses: no marks, no new cards; the row ends.
            self.row = 0
            self.phase = WINDOW
            self._out.append(ev.VuileWasOutcome(seat, "lapsed", None, ()))
        if (was_in and self._round_left_alone()) or self._game_over([seat]):
            return
        phase = self.phase
        if phase is CHOOSING and not self.choosers:
            self.phase = WINDOW
        elif phase is CHECKING:
            self._advance_check()
        elif phase is PLAYING:
            self._continue_play()
        elif phase is ANSWERING:
            self._advance_toep()


_PLAYS = [[ev.play(seat, card) for card in DECK] for seat in range(8)]
_TOEPS = [ev.act(ev.TOEP, seat) for seat in range(8)]
_CALLS = [ev.act(ev.CALL, seat) for seat in range(8)]
_FOLDS = [ev.act(ev.FOLD, seat) for seat in range(8)]
_CALLS_VW = [ev.act(ev.VUILE_WAS, seat) for seat in range(8)]
_CHECKS = [ev.act(ev.CHECK, seat) for seat in range(8)]
_BELIEVES = [ev.act(ev.BELIEVE, seat) for seat in range(8)]
_CLOSE = ev.act(ev.CLOSE_WINDOW)

_HANDLERS = {
    ev.PLAY: Game._on_play,
    ev.TOEP: Game._on_toep,
    ev.CALL: Game._on_answer,
    ev.FOLD: Game._on_answer,
    ev.VUILE_WAS: Game._on_vuile_was,
    ev.CHECK: Game._on_check,
    ev.BELIEVE: Game._on_check,
    ev.CLOSE_WINDOW: Game._on_close_window,
    ev.PLAY_IN: Game._on_choice,
    ev.SIT_OUT: Game._on_choice,
    ev.SUPER_YES: Game._on_super,
    ev.SUPER_NO: Game._on_super,
    ev.FORFEIT: Game._on_forfeit,
}

_VERIFIERS = {
    ev.PLAY: Game._verify_play,
    ev.TOEP: Game._verify_toep,
    ev.CALL: Game._verify_answer,
    ev.FOLD: Game._verify_answer,
    ev.VUILE_WAS: Game._verify_vuile_was,
    ev.CHECK: Game._verify_check,
    ev.BELIEVE: Game._verify_check,
    ev.PLAY_IN: Game._verify_choice,
    ev.SIT_OUT: Game._verify_choice,
    ev.SUPER_YES: Game._verify_super,
    ev.SUPER_NO: Game._verify_super,
}

__all__ = ["WINDOW_PHASES", "Game", "Phase", "Waiting"]
