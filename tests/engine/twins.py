"""Twin deals: two games with the same public history but other hidden cards.

Game A is played by a random policy that seeks out the moments where hidden
cards matter: vuile was calls (checked and believed), dead man's rounds with
redeals (V8 at 2), super toeps, forfeits in windows. Twin B takes A's record
and swaps cards in its deals, keeping a swap only when A's events are all
legal in B and give the very same happenings (the public narrative: who
played what, genuine or caught, marks) and the same hands shown openly.
What stays hidden may differ: the cards of a hand that leaves a round
unplayed (a redeal, a vuile was, a forfeit), the stock. Deals are biased
toward low cards, so genuine hands (and the calls only they allow) are
common enough to reach.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine import events as ev
from engine.cards import DECK, Card, Rank
from engine.chance import Hands, RandomChance, RecordChance
from engine.events import Event, Happening
from engine.game import Game
from engine.record import to_record
from engine.rules import TableRules, TwoLeft
from engine.state import NORMAL, Phase

LOW = frozenset({Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE})
SWAP_TRIES = 60
# What everyone learns from an event: its happenings and the hands shown openly.
Told = tuple[tuple[Happening, ...], tuple[tuple[int, tuple[Card, ...]], ...]]


class LowChance(RandomChance):
    """Deals where low cards tend to come first: genuine hands are common."""

    def deal(self, index: int, dealt: Sequence[bool], hand_size: int) -> tuple[Hands, list[Any]]:
        rnd = self.rng.random
        bias = rnd()
        keys = [rnd() * (bias if card.rank in LOW else 1.0) for card in DECK]
        deck = [DECK[i] for i in sorted(range(len(DECK)), key=keys.__getitem__)]
        hands: Hands = []
        pos = 0
        for gets in dealt:
            hands.append(deck[pos:pos + hand_size] if gets else None)
            pos += hand_size if gets else 0
        return hands, deck[pos:]


@dataclass(frozen=True)
class Twins:
    rules: TableRules
    players: tuple[str, ...]
    first_leader: int
    events: tuple[Event, ...]
    passes: tuple[frozenset[int], ...]  # before each event: who passed in the window
    deals_a: tuple[Any, ...]
    deals_b: tuple[Any, ...]

    def game(self, deals: Sequence[Any]) -> Game:
        return Game(self.rules, self.players, RecordChance(deals, random.Random(0)),
                    self.first_leader)

    def steps(self) -> Iterator[tuple[Game, Game, frozenset[int], tuple[Happening, ...]]]:
        """Both games before each event (with the passes before it) and after
        the last; the happenings that led there."""
        a, b = self.game(self.deals_a), self.game(self.deals_b)
        happened: tuple[Happening, ...] = a.opening
        for event, passed in zip(self.events, self.passes, strict=True):
            yield a, b, passed, happened
            happened = a.apply(event)
            assert b.apply(event) == happened
        yield a, b, frozenset(), happened


def twin_rules(rng: random.Random) -> TableRules:
    return TableRules(limit=rng.choice([5, 5, 6]), dead_man=True,
                      two_left=rng.choice([TwoLeft.SUPER_TOEP, TwoLeft.ASK]),
                      redeal_after=2, seven_counts=rng.random() < 0.5,
                      small_players=rng.choice([None, 2]))


def make_twins(seed: int, max_events: int = 600) -> Twins:
    rng = random.Random(seed)
    rules = twin_rules(rng)
    players = tuple(f"P{i}" for i in range(rng.choice([3, 4, 4])))
    game = Game(rules, players, LowChance(random.Random(rng.getrandbits(64))))
    events: list[Event] = []
    passes: list[frozenset[int]] = []
    narrative: list[Told] = []
    for _ in range(max_events):
        if game.over:
            break
        event = _pick(game, rng)
        passes.append(_passes(game, event, rng))
        events.append(event)
        narrative.append((game.apply(event), shown_hands(game)))
    record = to_record(game, 0)
    twins = Twins(rules, players, game.first_leader, tuple(events), tuple(passes),
                  tuple(record["deals"]), tuple(record["deals"]))
    return _swapped(twins, narrative, rng)


def _pick(game: Game, rng: random.Random) -> Event:
    phase = game.phase
    # Forfeits leave hands unplayed (hidden): likeliest where the leak was,
    # the window of a dead man's round or a super toep.
    chance_out = 0.003
    if phase in (Phase.WINDOW, Phase.CHECK, Phase.DEAD_MAN_CHOICE):
        chance_out = 0.03 if game.kind == NORMAL else 0.12
    if rng.random() < chance_out:
        return ev.act(ev.FORFEIT, rng.choice(game.alive()))
    legal = game.legal_events()
    if phase is Phase.WINDOW:
        calls = [e for e in legal if e.do == ev.VUILE_WAS]
        if calls and game.kind != NORMAL and rng.random() < 0.4:
            # A genuine hand that leaves unplayed: B may hold a hand that is not.
            return ev.act(ev.FORFEIT, rng.choice(calls).seat)
        if calls and rng.random() < 0.6:
            return rng.choice(calls)
        return ev.act(ev.CLOSE_WINDOW)
    if phase is Phase.PLAY:
        plays = [e for e in legal if e.do == ev.PLAY]
        toep = [e for e in legal if e.do == ev.TOEP]
        return toep[0] if toep and rng.random() < 0.2 else rng.choice(plays)
    return rng.choice(legal)


def _passes(game: Game, event: Event, rng: random.Random) -> frozenset[int]:
    """Seats that passed in an open window before `event`, picked from public
    facts only (who is in the round), never all of them."""
    if game.phase is not Phase.WINDOW:
        return frozenset()
    seats = [s for s in range(game.n) if game.in_round[s] and s != event.seat]
    return frozenset(rng.sample(seats, rng.randrange(len(seats)))) if seats else frozenset()


def _swapped(twins: Twins, narrative: Sequence[Told],
             rng: random.Random) -> Twins:
    """Swap pairs of cards in B's deals while the public history stays the same."""
    deals = copy.deepcopy(list(twins.deals_a))
    for _ in range(SWAP_TRIES):
        index = rng.randrange(len(deals))
        hands = [(h, i) for h, hand in enumerate(deals[index]["hands"]) if hand
                 for i in range(len(hand))]
        stock = [(-1, i) for i in range(len(deals[index]["stock"]))]
        if stock and rng.random() < 0.6:  # a hand card for a stock card changes a hand most
            (h1, i1), (h2, i2) = rng.choice(hands), rng.choice(stock)
        else:
            (h1, i1), (h2, i2) = rng.sample(hands + stock, 2)
        trial = copy.deepcopy(deals)
        one = trial[index]["stock"] if h1 < 0 else trial[index]["hands"][h1]
        two = trial[index]["stock"] if h2 < 0 else trial[index]["hands"][h2]
        one[i1], two[i2] = two[i2], one[i1]
        if _same_history(twins, trial, narrative):
            deals = trial
    return Twins(twins.rules, twins.players, twins.first_leader, twins.events, twins.passes,
                 twins.deals_a, tuple(deals))


def _same_history(twins: Twins, deals: Sequence[Any],
                  narrative: Sequence[Told]) -> bool:
    try:
        game = twins.game(deals)
        for event, (told, shown) in zip(twins.events, narrative, strict=True):
            if game.apply(event) != told or shown_hands(game) != shown:
                return False
    except Exception:  # an event illegal in B, or a deal B's discards contradict
        return False
    return True


def shown_hands(game: Game) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    """The hands open to everyone (a caught bluffer's): public cards too."""
    return tuple((s, tuple(sorted(game.hands[s]))) for s in range(game.n) if game.open_hand[s])


def hidden_differs(a: Game, b: Game) -> bool:
    """The twins hold other hidden cards now (a hand or the stock)."""
    return (any(sorted(x) != sorted(y) for x, y in zip(a.hands, b.hands, strict=True))
            or sorted(a.stock) != sorted(b.stock))
