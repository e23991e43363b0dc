"""Cards in Toepen order (R1).

The 32 cards are interned: `Card` objects are created once, so comparing and
hashing them is as cheap as for plain objects, and `parse_card("10H")` and
`card_of(Rank.TEN, Suit.HEARTS)` return the very same object.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from enum import Enum, IntEnum

log = logging.getLogger(__name__)


class Suit(Enum):
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"


class Rank(IntEnum):
    """Ranks from low to high: J < Q < K < A < 7 < 8 < 9 < 10 (R1)."""

    JACK = 0
    QUEEN = 1
    KING = 2
    ACE = 3
    SEVEN = 4
    EIGHT = 5
    NINE = 6
    TEN = 7

    @property
    def label(self) -> str:
        return _RANK_LABELS[self]

    @property
    def is_low(self) -> bool:
        """J, Q, K and A are the "low cards" of a vuile was (R12)."""
        return self <= Rank.ACE


_RANK_LABELS = {
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
    Rank.SEVEN: "7",
    Rank.EIGHT: "8",
    Rank.NINE: "9",
    Rank.TEN: "10",
}


class Card:
    """One of the 32 cards. Never build one directly: use `card_of` or `parse_card`."""

    __slots__ = ("index", "is_low", "rank", "suit", "text")

    rank: Rank
    suit: Suit
    index: int
    is_low: bool
    text: str

    def __init__(self, rank: Rank, suit: Suit, index: int) -> None:
        self.rank = rank
        self.suit = suit
        self.index = index
        self.is_low = rank.is_low
        self.text = rank.label + suit.value

    def __repr__(self) -> str:
        return f"Card({self.text})"

    def __str__(self) -> str:
        return self.text

    def __lt__(self, other: Card) -> bool:
        """Sort order for display: by suit, then by Toepen rank."""
        return self.index < other.index

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Copies and pickles come back as the interned object.
        return (parse_card, (self.text,))


SUITS: tuple[Suit, ...] = tuple(Suit)
RANKS: tuple[Rank, ...] = tuple(Rank)
DECK: tuple[Card, ...] = tuple(
    Card(rank, suit, si * 8 + ri) for si, suit in enumerate(SUITS) for ri, rank in enumerate(RANKS)
)
_BY_TEXT: dict[str, Card] = {card.text: card for card in DECK}


def card_of(rank: Rank, suit: Suit) -> Card:
    return DECK[SUITS.index(suit) * 8 + int(rank)]


class CardError(ValueError):
    """A text that is not one of the 32 cards."""


def parse_card(text: str) -> Card:
    """`"10H"` -> the ten of hearts. Lower case is accepted; anything else is refused."""
    card = _BY_TEXT.get(text) if isinstance(text, str) else None
    if card is None and isinstance(text, str):
        card = _BY_TEXT.get(text.strip().upper())
    if card is None:
        raise CardError(f"{text!r} is not a card: rank 7-10 or J Q K A, then suit C D H S")
    return card


def parse_cards(texts: Sequence[str]) -> list[Card]:
    """Several cards (CardError for a text that is not one); the usual
    upper-case texts are looked up at once, anything else one by one."""
    try:
        return [_BY_TEXT[text] for text in texts]
    except (KeyError, TypeError):
        return [parse_card(text) for text in texts]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(card.text for card in cards)
