"""Chance events: deals, a leader picked by chance, reshuffles of the discards.

The game never touches a random generator itself; it asks a `Chance`. A
`RandomChance` draws from an injected `random.Random`; a `RecordChance` takes
the outcomes a record fixes and falls back on its seed for the rest. Either
way the game writes every outcome into its own deal log, so its record
replays the same in any engine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from engine.cards import DECK, Card, CardError, parse_cards
from engine.errors import RecordError

Hands = list[list[Card] | None]
_POSITIONS = range(len(DECK))


class Chance(Protocol):
    def first_leader(self, seats: int) -> int: ...

    def deal(self, index: int, dealt: Sequence[bool], hand_size: int) -> tuple[Hands, list[Card]]:
        """Deal `index` (0, 1, ...): a hand of `hand_size` for each seat with
        `dealt[seat]`, None for the others, and the stock, next card first."""
        ...

    def leader(self, index: int, candidates: Sequence[int]) -> int:
        """The leader chance picks among `candidates`, on deal `index`."""
        ...

    def reshuffle(self, index: int, count: int, cards: Sequence[Card]) -> list[Card]:
        """The order of the discards when they go under the stock for the
        `count`-th time (0, 1, ...) in deal `index`."""
        ...


class RandomChance:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def first_leader(self, seats: int) -> int:
        return self.rng.randrange(seats)

    def deal(self, index: int, dealt: Sequence[bool], hand_size: int) -> tuple[Hands, list[Card]]:
        # A uniform permutation: every order of distinct random keys is equally
        # likely, and the sort runs in C (random.shuffle draws in Python).
        rnd = self.rng.random
        keys = [rnd() for _ in _POSITIONS]
        deck = [DECK[i] for i in sorted(_POSITIONS, key=keys.__getitem__)]
        hands: Hands = []
        pos = 0
        for gets in dealt:
            if gets:
                hands.append(deck[pos:pos + hand_size])
                pos += hand_size
            else:
                hands.append(None)
        return hands, deck[pos:]

    def leader(self, index: int, candidates: Sequence[int]) -> int:
        return candidates[self.rng.randrange(len(candidates))]

    def reshuffle(self, index: int, count: int, cards: Sequence[Card]) -> list[Card]:
        out = list(cards)
        self.rng.shuffle(out)
        return out


class SeededChance:
    """Every outcome drawn from its own generator, seeded by the game's seed and
    the outcome's place (deal number, kind, count). A game rebuilt from its
    log after a restart therefore draws exactly what it would have drawn had
    it never stopped. Live tables use this."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def _rng(self, *where: object) -> random.Random:
        return random.Random(":".join(map(str, (self.seed, *where))))

    def first_leader(self, seats: int) -> int:
        return RandomChance(self._rng("first")).first_leader(seats)

    def deal(self, index: int, dealt: Sequence[bool], hand_size: int) -> tuple[Hands, list[Card]]:
        return RandomChance(self._rng(index, "deal")).deal(index, dealt, hand_size)

    def leader(self, index: int, candidates: Sequence[int]) -> int:
        return RandomChance(self._rng(index, "leader")).leader(index, candidates)

    def reshuffle(self, index: int, count: int, cards: Sequence[Card]) -> list[Card]:
        return RandomChance(self._rng(index, "reshuffle", count)).reshuffle(index, count, cards)


class RecordChance:
    """The outcomes of a record's `deals`, checked when they are used; what the
    record leaves open comes from `fallback` (a RandomChance of the record's
    seed when replaying a record, a SeededChance when restoring a table)."""

    def __init__(self, deals: Sequence[object], fallback: random.Random | Chance) -> None:
        self.deals = deals
        self.fallback: Chance = (RandomChance(fallback) if isinstance(fallback, random.Random)
                                 else fallback)

    def first_leader(self, seats: int) -> int:
        return self.fallback.first_leader(seats)

    def _entry(self, index: int) -> dict[str, object] | None:
        if index >= len(self.deals):
            return None
        entry = self.deals[index]
        if not isinstance(entry, dict):
            raise RecordError(f"deals[{index}] must be an object with hands and stock")
        return entry

    def deal(self, index: int, dealt: Sequence[bool], hand_size: int) -> tuple[Hands, list[Card]]:
        entry = self._entry(index)
        if entry is None:
            return self.fallback.deal(index, dealt, hand_size)
        return _checked_deal(index, entry, dealt, hand_size)

    def leader(self, index: int, candidates: Sequence[int]) -> int:
        entry = self._entry(index)
        if entry is None or "leader" not in entry:
            return self.fallback.leader(index, candidates)
        leader = entry["leader"]
        if type(leader) is not int or leader not in candidates:
            raise RecordError(f"deals[{index}].leader must be one of seats "
                              f"{', '.join(map(str, candidates))}, got {leader!r}")
        return leader

    def reshuffle(self, index: int, count: int, cards: Sequence[Card]) -> list[Card]:
        entry = self._entry(index)
        lists = None if entry is None else entry.get("reshuffles")
        if lists is None:
            return self.fallback.reshuffle(index, count, cards)
        if not isinstance(lists, list):
            raise RecordError(f"deals[{index}].reshuffles must be a list of card lists")
        if count >= len(lists):
            return self.fallback.reshuffle(index, count, cards)
        where = f"deals[{index}].reshuffles[{count}]"
        order = card_list(where, lists[count])
        if sorted(c.index for c in order) != sorted(c.index for c in cards):
            raise RecordError(f"{where} must hold exactly the {len(cards)} discarded cards: "
                              f"{' '.join(sorted(c.text for c in cards))}")
        return order


def card_list(where: str, value: object) -> list[Card]:
    """The cards of a record's list at `where` (RecordError naming it if not)."""
    if not isinstance(value, list):
        raise RecordError(f"{where} must be a list of cards")
    try:
        return parse_cards(value)
    except CardError as err:
        raise RecordError(f"{where}: {err}") from None


def _checked_deal(index: int, entry: dict[str, object], dealt: Sequence[bool],
                  hand_size: int) -> tuple[Hands, list[Card]]:
    where = f"deals[{index}]"
    raw_hands = entry.get("hands")
    if not isinstance(raw_hands, list) or len(raw_hands) != len(dealt):
        raise RecordError(f"{where}.hands must list one entry per seat ({len(dealt)})")
    hands: Hands = []
    for seat, (raw, gets) in enumerate(zip(raw_hands, dealt, strict=True)):
        if raw is None:
            if gets:
                raise RecordError(f"{where} gives seat {seat} no hand, but seat {seat} "
                                  "takes part in this deal")
            hands.append(None)
            continue
        if not gets:
            raise RecordError(f"{where} gives seat {seat} a hand, but seat {seat} "
                              "is out of the game or not in this round")
        hand = card_list(f"{where}.hands[{seat}]", raw)
        if len(hand) != hand_size:
            raise RecordError(f"{where}: seat {seat}'s hand holds {len(hand)} cards, "
                              f"not {hand_size}")
        hands.append(hand)
    stock = card_list(f"{where}.stock", entry.get("stock"))
    _check_whole_deck(where, [c for h in hands if h for c in h] + stock)
    return hands, stock


def _check_whole_deck(where: str, cards: list[Card]) -> None:
    seen: set[int] = set()
    for card in cards:
        if card.index in seen:
            raise RecordError(f"{where} holds {card.text} twice")
        seen.add(card.index)
    missing = [c.text for c in DECK if c.index not in seen]
    if missing:
        raise RecordError(f"{where} misses {' '.join(missing)}")
