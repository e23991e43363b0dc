"""What the others' folds and passed toep chances say of their hands.

Two tells the toeps and calls (see `sampling.likelihood`) leave out:

- a fold: the folder's hand was weak at that moment, as the rules of thumb
  read it. A folder's cards are out of the round but not out of the pool, so
  the guesses deal them too (`fold_sizes`), weigh the fold, and drop them:
  what the folders threw away is then mostly low, and the hands still in
  play come out a little stronger;
- a card played where its seat could have toeped: the rules of thumb toep a
  strong last card most of the time, so a seat that played on quietly late
  in a round seldom held one.

Each is a likelihood of one guess (up to a constant), multiplied into the
guess's weight.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from engine import events as ev
from engine.bots import thumb
from engine.bots.cardints import FULL, mask_of
from engine.bots.knowledge import Knowledge, round_events
from engine.state import NORMAL, SUPER_TOEP
from engine.views import SeatView

log = logging.getLogger(__name__)

Hands = dict[int, list[int]]

FLOOR = 0.04  # nobody's folds or quiet plays are fully predictable
# A pass tells something only where the rules of thumb toep often: on the
# last two tricks. Earlier they toep at most 15% of strong hands, and weighing
# those passes costs time for nearly nothing.
PASS_TRICKS = 2


@dataclass(frozen=True)
class Moment:
    """A seat's moment in the play: what it saw then but its hidden cards."""

    seat: int
    table: list[tuple[int, int]]
    gone: int  # the cards played before it
    tricks_left: int
    players: int  # in the round then
    stake: int  # the fold: the stake of the toep it answered


@dataclass(frozen=True)
class Pass:
    moment: Moment
    cards: list[int]  # the card it played then and every card it played after


@dataclass(frozen=True)
class Tells:
    folds: list[Moment]
    passes: list[Pass]

    def __bool__(self) -> bool:
        return bool(self.folds or self.passes)


class _Walk:
    """The round so far, event by event: the state a moment needs."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        public = view.public
        self.plays = 0
        self.stake = 1
        self.last_toeper = -1
        self.in_now = sum(public.in_round)
        self.folds_after = sum(1 for e in round_events(view) if e.do == ev.FOLD)
        self.starts = [0]
        for trick in public.tricks:
            self.starts.append(self.starts[-1] + len(trick.cards))

    def may_toep(self, seat: int) -> bool:
        """Whether `seat` could have toeped before playing its card now (R8, V2, V4)."""
        public = self.view.public
        rules = public.rules
        if public.kind != NORMAL or seat == self.last_toeper:
            return False
        if rules.max_stake is not None and self.stake >= rules.max_stake:
            return False
        return not (rules.no_toep_past_limit
                    and public.marks[seat] + self.stake + 1 > rules.limit)

    def moment(self, seat: int, know: Knowledge) -> Moment:
        p = self.plays
        trick = max(i for i, start in enumerate(self.starts) if start <= p)
        played = know.played
        return Moment(seat, played[self.starts[trick]:p], mask_of(c for _, c in played[:p]),
                      _hand_size(self.view) - trick, self.in_now + self.folds_after,
                      self.stake)


def fold_sizes(view: SeatView, know: Knowledge) -> dict[int, int]:
    """The folders of this round (but this seat) and how many cards each held."""
    size = _hand_size(view)
    played: dict[int, int] = {}
    out: dict[int, int] = {}
    for event in round_events(view):
        if event.seat is None or event.seat == view.seat:
            continue
        if event.do == ev.PLAY:
            played[event.seat] = played.get(event.seat, 0) + 1
        elif event.do == ev.FOLD and event.seat not in know.hands:
            left = size - played.get(event.seat, 0)
            if left > 0:
                out[event.seat] = left
    return out


def _hand_size(view: SeatView) -> int:
    return 8 if view.public.kind == SUPER_TOEP else 4


def read_tells(view: SeatView, know: Knowledge, folds: bool, passes: bool) -> Tells:
    """The folds (if `folds`) and passed toep chances (if `passes`) of the
    seats whose hands are guessed, each with its moment."""
    walk = _Walk(view)
    out = Tells([], [])
    for event in round_events(view):
        seat = event.seat
        if event.do == ev.PLAY and seat is not None:
            if passes and seat in know.hidden and walk.may_toep(seat):
                m = walk.moment(seat, know)
                if m.tricks_left <= PASS_TRICKS:
                    later = [c for s, c in know.played[walk.plays:] if s == seat]
                    out.passes.append(Pass(m, later))
            walk.plays += 1
        elif event.do == ev.TOEP:
            walk.stake += 1
            walk.last_toeper = -1 if seat is None else seat
        elif event.do == ev.FOLD:
            if folds and seat is not None and seat != view.seat and seat not in know.hands:
                out.folds.append(walk.moment(seat, know))
            walk.folds_after -= 1
    return out


def _seen(m: Moment, hand: list[int]) -> thumb.Seen:
    unknown = FULL & ~mask_of(hand) & ~m.gone
    return thumb.Seen(hand, m.table, m.tricks_left, unknown, (m.players - 1) * m.tricks_left,
                      max(0, m.players - 1 - len(m.table)), m.stake, m.seat)


def pass_chance(m: Moment, hand: list[int]) -> float:
    """How often the rules of thumb play on without toeping with `hand`."""
    if m.tricks_left > 1 and thumb.keeper(hand) & 7 < 5:
        return 1.0 - 0.005
    chance = thumb.win_chance(_seen(m, hand))
    return max(FLOOR, 1.0 - thumb.toep_probability(chance, m.tricks_left, m.stake))


def fold_chance(m: Moment, hand: list[int]) -> float:
    """How often the rules of thumb fold with `hand` to a toep of stake `m.stake`."""
    chance = thumb.win_chance(_seen(m, hand))
    return max(FLOOR, 1.0 - thumb.call_probability(chance, m.stake))


def tells_likelihood(tells: Tells, hands: Hands) -> float:
    """The chance (up to a constant) of the folds and quiet plays under `hands`."""
    weight = 1.0
    for m in tells.folds:
        hand = hands.get(m.seat)
        if hand:
            weight *= fold_chance(m, hand)
    for pa in tells.passes:
        weight *= pass_chance(pa.moment, sorted([*hands.get(pa.moment.seat, []), *pa.cards]))
    return weight
