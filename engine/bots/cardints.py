"""Cards as small ints for the computer players' inner loops.

A card is its `Card.index`: suit * 8 + rank, so `c >> 3` is the suit and
`c & 7` the Toepen rank (0 = jack ... 7 = ten). Sets of cards are bit masks.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from engine.cards import DECK, Card

log = logging.getLogger(__name__)

FULL = (1 << 32) - 1
JACK = 0
ACE = 3
SEVEN = 4
NINE = 6
TEN = 7


def suit(c: int) -> int:
    return c >> 3


def rank(c: int) -> int:
    return c & 7


def to_card(c: int) -> Card:
    return DECK[c]


def ints(cards: Iterable[Card]) -> list[int]:
    return [card.index for card in cards]


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def higher_in_suit(c: int) -> int:
    """The mask of the cards of c's suit that beat c."""
    top = (c | 7) + 1
    return ((1 << top) - 1) & ~((1 << (c + 1)) - 1)


def legal_cards(hand: list[int], led: int) -> list[int]:
    """R4: follow the led suit (-1: free lead) if you can."""
    if led < 0:
        return hand
    follow = [c for c in hand if c >> 3 == led]
    return follow or hand
