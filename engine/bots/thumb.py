"""The normal player's rules of thumb, on small ints.

Every function here sees only what one seat may see: its own hand, the cards
on the table, the cards played this round, and how many cards the others
hold. The normal player uses them directly; the hard player uses them as the
policy of every seat in its simulations and as its model of why opponents
toep and call.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from random import Random

from engine.bots.cardints import FULL, higher_in_suit, legal_cards
from engine.bots.sim import RoundSim

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Seen:
    """What one seat knows when it decides, in the round being played."""

    hand: list[int]
    table: list[tuple[int, int]]
    tricks_left: int
    unknown: int  # mask of the cards this seat cannot see
    opp_cards: int  # cards in the hands of the others still in the round
    after_me: int  # players still to play to this trick after this seat
    stake: int
    seat: int = -1  # the deciding seat: its own card may be on the table


def own_card_on_table(seen: Seen) -> int:
    """The card this seat played to the trick on the table, or -1."""
    return next((c for s, c in seen.table if s == seen.seat), -1)


def seen_in_sim(sim: RoundSim, seat: int) -> Seen:
    hand = sim.hands[seat]
    own = 0
    for c in hand:
        own |= 1 << c
    opp = 0
    for s in range(sim.n):
        if s != seat and sim.in_round[s]:
            opp += len(sim.hands[s])
    after = 0
    for s in range(sim.n):
        if s != seat and sim.in_round[s] and not sim.played[s]:
            after += 1
    return Seen(hand, sim.table, sim.tricks_left, FULL & ~own & ~sim.gone, opp, after, sim.stake,
                seat)


# --- which card ---------------------------------------------------------------------


def keeper(hand: list[int]) -> int:
    """The strongest card: the one to keep for the last trick."""
    return max(hand, key=lambda c: c & 7)


def table_best(table: list[tuple[int, int]]) -> int:
    """The best card of the led suit on the table (-1 on an empty table)."""
    if not table:
        return -1
    led = table[0][1] >> 3
    return max(c for _, c in table if c >> 3 == led)


def choose_card(hand: list[int], table: list[tuple[int, int]], tricks_left: int) -> int:
    """Keep the strongest card for the last trick; win cheaply or dump the lowest."""
    led = table[0][1] >> 3 if table else -1
    legal = legal_cards(hand, led)
    if len(legal) == 1:
        return legal[0]
    keep = keeper(hand)
    spare = [c for c in legal if c != keep] or legal
    if led < 0:
        return min(spare, key=lambda c: c & 7)
    if legal[0] >> 3 != led:
        return min(spare, key=lambda c: c & 7)  # cannot follow: throw the lowest away
    best = table_best(table)
    winners = [c for c in spare if c > best]
    if winners:
        return min(winners)
    if keep in legal and keep > best and tricks_left <= 2:
        return keep
    return min(spare)


def card_reason(hand: list[int], table: list[tuple[int, int]], card: int) -> str:
    """Why `choose_card` picked `card` (a hint key)."""
    led = table[0][1] >> 3 if table else -1
    legal = legal_cards(hand, led)
    if len(legal) == 1:
        return "only_card"
    if table and card >> 3 == led and card > table_best(table):
        return "win_cheaply"
    if len(hand) > 1 and card != keeper(hand):
        return "keep_high_for_last"
    return "dump_lowest"


# --- how strong -----------------------------------------------------------------------


def _free_of_higher(card: int, unknown: int, holders: int, n_unknown: int) -> float:
    """Chance that none of `holders` cards among the unknown beats `card` in its suit."""
    if n_unknown <= 0:
        return 1.0
    higher = (higher_in_suit(card) & unknown).bit_count()
    share = min(1.0, holders / n_unknown)
    return (1.0 - share) ** higher


def win_chance(seen: Seen) -> float:
    """A rough chance of winning the round from here."""
    hand = seen.hand
    n_unknown = seen.unknown.bit_count()
    if not hand:
        return _played_last_chance(seen, n_unknown)
    if seen.tricks_left == 1:
        card = hand[0]
        if seen.table:
            best = table_best(seen.table)
            if card >> 3 != best >> 3 or card < best:
                return 0.0
            return _free_of_higher(card, seen.unknown, seen.after_me, n_unknown)
        return _free_of_higher(card, seen.unknown, seen.opp_cards, n_unknown)
    keep = keeper(hand)
    top = _free_of_higher(keep, seen.unknown, seen.opp_cards, n_unknown)
    high = sum(1 for c in hand if c & 7 >= 5)  # 8, 9, 10
    # A strong last card wins only if it can be played to a trick of its suit.
    return top * min(0.85, 0.45 + 0.15 * high) * (1.0 if keep & 7 >= 5 else 0.6)


def _played_last_chance(seen: Seen, n_unknown: int) -> float:
    """A seat whose last card is already on the table (it answers a toep of
    someone still to play): the round is its if that card leads the trick and
    no one still to play beats it. Read as no chance at all, the hard
    player's play-outs folded such a card, so it bluff-toeped into a winning
    card on the table, and a player who never folds took those rounds. Only
    a `Seen` that names its seat reads this (the play-outs' do)."""
    card = own_card_on_table(seen)
    if card < 0 or seen.tricks_left != 1 or card != table_best(seen.table):
        return 0.0
    return _free_of_higher(card, seen.unknown, seen.after_me, n_unknown)


# --- toep and answer ----------------------------------------------------------------------


def toep_probability(chance: float, tricks_left: int, stake: int) -> float:
    """How often the normal player toeps with this chance of winning. Each
    toep makes calling cheaper for the others (1/(s+1) falls), so a raised
    stake asks for a stronger hand, and bluffs come only late and low."""
    need = 0.0 if stake <= 1 else 0.1 * min(stake - 1, 3)
    if chance >= 0.8 + need / 2:
        return 0.9 if tricks_left <= 2 else 0.15
    if chance >= 0.6 + need:
        return 0.4 if tricks_left <= 2 else 0.03
    if chance >= 0.45 and stake == 1:
        return 0.1
    if stake == 1 and tricks_left <= 2:
        return 0.03  # a bluff now and then
    return 0.005


LOOSE_LEAN = 0.3


def call_threshold(stake: int) -> float:
    """Call pays when the chance of winning beats 1/(s+1), s the stake before the toep."""
    return 1.0 / stake


def call_probability(chance: float, stake: int, loose: float = 0.0) -> float:
    """How often the normal player calls. The toeper is likely strong, so its
    own chance counts for less; but `win_chance` is shy early in a round and
    a fold gives up every chance of winning it, so it leans to calling; and
    the more of a toeper's toeping its cards cannot explain (`loose`, 0-1),
    the less its toep says and the more it gets called."""
    margin = chance * (0.8 + 0.2 * loose) - call_threshold(stake) + 0.35 + LOOSE_LEAN * loose
    if margin > 0.1:
        return 0.97
    if margin > 0.0:
        return 0.75
    if margin > -0.1:
        return 0.3
    return 0.06


def strict_call(chance: float, stake: int) -> bool:
    """The searching player's own later answers in a play-out: call only at
    good odds (it answers by search when the moment really comes)."""
    return chance * 0.8 > call_threshold(stake)


class ThumbPolicy:
    """The rules of thumb as a simulation policy; `me` answers strictly."""

    def __init__(self, me: int = -1) -> None:
        self.me = me

    def card(self, sim: RoundSim, seat: int, rng: Random) -> int:
        return choose_card(sim.hands[seat], sim.table, sim.tricks_left)

    def toep(self, sim: RoundSim, seat: int, rng: Random) -> bool:
        hand = sim.hands[seat]
        if sim.tricks_left > 1 and keeper(hand) & 7 < 5:
            return rng.random() < 0.005
        return rng.random() < toep_probability(win_chance(seen_in_sim(sim, seat)),
                                               sim.tricks_left, sim.stake)

    def call(self, sim: RoundSim, seat: int, rng: Random) -> bool:
        chance = win_chance(seen_in_sim(sim, seat))
        if seat == self.me:
            return strict_call(chance, sim.stake)
        return rng.random() < call_probability(chance, sim.stake)
