"""Small value types of a game's state: phases, round kinds, round summaries."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from engine.cards import Card, Rank


class Phase(Enum):
    SUPER_QUESTION = "super_question"  # R15: both asked, a window
    DEAD_MAN_CHOICE = "dead_man_choice"  # R13: play or sit out, turns
    WINDOW = "window"  # R12: the vuile was moment
    CHECK = "check"  # R12: one player's check-or-believe window
    PLAY = "play"  # R4/R8: a turn to play a card (toep first if you like)
    TOEP_ANSWER = "toep_answer"  # R9: a turn to call or fold
    OVER = "over"


WINDOW_PHASES = frozenset({Phase.SUPER_QUESTION, Phase.WINDOW, Phase.CHECK})

NORMAL = "normal"
DEAD_MAN = "dead_man"
SUPER_TOEP = "super_toep"


@dataclass(frozen=True)
class RoundSummary:
    """One finished round, as the replay output lists it."""

    number: int
    kind: str
    leader: int
    stake: int
    winner: int | None
    jack_finish: bool
    marks: tuple[int, ...]

    def to_json(self) -> dict[str, object]:
        return {"number": self.number, "kind": self.kind, "leader": self.leader,
                "stake": self.stake, "winner": self.winner, "jack_finish": self.jack_finish,
                "marks": list(self.marks)}


@dataclass(frozen=True)
class Trick:
    number: int
    cards: tuple[tuple[int, Card], ...]
    winner: int
    card: Card


@dataclass(frozen=True)
class LaidDown:
    """A checked, genuine vuile was: only the checkers saw these cards."""

    caller: int
    cards: tuple[Card, ...]
    checkers: tuple[int, ...]


@dataclass
class DealEntry:
    """One deal as the record writes it, with the chance outcomes that came after."""

    hands: list[list[Card] | None]
    stock: list[Card]
    leader: int | None = None
    reshuffles: list[list[Card]] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "hands": [None if h is None else [c.text for c in h] for h in self.hands],
            "stock": [c.text for c in self.stock],
        }
        if self.leader is not None:
            out["leader"] = self.leader
        if self.reshuffles:
            out["reshuffles"] = [[c.text for c in r] for r in self.reshuffles]
        return out


def is_genuine(hand: list[Card], hand_size: int, seven_counts: bool) -> bool:
    """R12: four low cards (V7: or three and a 7); a super toep's eight cards
    need at least seven low ones (V7: or six and a 7)."""
    need = hand_size if hand_size == 4 else hand_size - 1
    lows = 0
    seven = False
    for card in hand:
        if card.is_low:
            lows += 1
        elif card.rank is Rank.SEVEN:
            seven = True
    return lows >= need or (seven_counts and seven and lows >= need - 1)
