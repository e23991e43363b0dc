"""What one seat knows about the round in play, read from its `SeatView` only.

Cards it can place (its hand, cards played, a caught bluffer's open hand,
laid-down cards it checked), suits a player showed it lacks, the public
toeps and calls of this round, and a `RoundSim` of the present moment given
a guess of the hidden hands.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from engine import events as ev
from engine.bots.cardints import ints, mask_of
from engine.bots.sim import ANSWERING, PLAYING, RoundSim
from engine.events import Event
from engine.state import NORMAL, SUPER_TOEP, Phase
from engine.views import SeatView

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Knowledge:
    seat: int
    hand: list[int]
    hands: dict[int, list[int]]  # seats whose hand is known (own, open)
    hidden: dict[int, int]  # seat -> number of hidden cards to guess
    pool: list[int]  # the cards that may be in a hidden hand or in stock/discards
    voids: dict[int, int]  # seat -> bit mask of suits it showed it lacks
    played: list[tuple[int, int]]  # (seat, card) of this round's plays, in order


def round_events(view: SeatView) -> list[Event]:
    """This round's events since its vuile was window closed (play phases only)."""
    history = view.public.history
    out: list[Event] = []
    for event in reversed(history):
        if event.do == ev.CLOSE_WINDOW:
            break
        out.append(event)
    out.reverse()
    return out


def plays_in_order(view: SeatView) -> list[tuple[int, int]]:
    public = view.public
    out = [(seat, card.index) for trick in public.tricks for seat, card in trick.cards]
    out.extend((seat, card.index) for seat, card in public.table)
    return out


def _voids(view: SeatView) -> dict[int, int]:
    voids: dict[int, int] = {}
    public = view.public
    tricks = [t.cards for t in public.tricks]
    if public.table:
        tricks.append(public.table)
    for cards in tricks:
        led = cards[0][1]
        for seat, card in cards[1:]:
            if card.suit is not led.suit:  # it lacks the suit led, not the one it played
                voids[seat] = voids.get(seat, 0) | (1 << (led.index >> 3))
    return voids


def know(view: SeatView) -> Knowledge:
    public = view.public
    seat = view.seat
    hand = ints(view.hand)
    hands: dict[int, list[int]] = {seat: hand}
    for s, cards in public.open_hands:
        if s != seat:
            hands[s] = ints(cards)
    placed = mask_of(hand)
    for cards_ in hands.values():
        placed |= mask_of(cards_)
    played = plays_in_order(view)
    placed |= mask_of(c for _, c in played)
    for laid in view.laid_down:
        placed |= mask_of(ints(laid.cards))
    hidden = {s: public.hand_sizes[s] for s in range(public.seats)
              if s not in hands and public.in_round[s] and public.hand_sizes[s] > 0}
    pool = [c for c in range(32) if not (placed >> c) & 1]
    return Knowledge(seat, hand, hands, hidden, pool, _voids(view), played)


def sim_from_view(view: SeatView, hands: dict[int, list[int]]) -> RoundSim:
    """The present moment of a round in play as a `RoundSim`, with `hands`
    giving every hand (the seat's own, known ones and guessed ones)."""
    public = view.public
    n = public.seats
    sim = RoundSim()
    sim.n = n
    sim.hand_size = 8 if public.kind == SUPER_TOEP else 4
    sim.may_toep = public.kind == NORMAL
    sim.jack_counts = public.kind != SUPER_TOEP
    sim.set_rules(public.rules)
    sim.hands = [list(hands.get(s, ())) for s in range(n)]
    sim.in_round = list(public.in_round)
    sim.n_in = sum(sim.in_round)
    sim.folded = list(public.folded)
    sim.marks = list(public.marks)
    sim.taken = [0] * n
    sim.fold_count = list(public.fold_count)
    sim.table = [(s, c.index) for s, c in public.table]
    sim.played = [False] * n
    for s, _ in public.table:
        sim.played[s] = True
    sim.leader = public.trick_leader
    sim.tricks_done = len(public.tricks)
    sim.stake = public.stake
    sim.last_toeper = -1 if public.last_toeper is None else public.last_toeper
    sim.toeper = sim.last_toeper
    sim.gone = mask_of(c for _, c in plays_in_order(view))
    sim.winner = -1
    sim.jack = False
    sim.answer_order = []
    sim.answer_pos = 0
    waiting = public.waiting[0] if public.waiting else 0
    sim.turn = waiting
    if public.phase is Phase.TOEP_ANSWER:
        sim.phase = ANSWERING
        # Those still to answer: from the waiting seat clockwise up to the toeper.
        order = []
        for k in range(n):
            s = (waiting + k) % n
            if s == sim.toeper:
                break
            if sim.in_round[s]:
                order.append(s)
        sim.answer_order = order
    else:
        sim.phase = PLAYING
    return sim
