"""Events (what a seat or the clock does) and happenings (what came of it).

An `Event` is the input of `Game.apply`; its names are the record's `do` names
(docs/records.md). Happenings are frozen records that `apply` returns, in order, so
a table can tell its players exactly what happened.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import DECK, Card

PLAY = "play"
TOEP = "toep"
CALL = "call"
FOLD = "fold"
VUILE_WAS = "vuile_was"
CHECK = "check"
BELIEVE = "believe"
CLOSE_WINDOW = "close_window"
PLAY_IN = "play_in"
SIT_OUT = "sit_out"
SUPER_YES = "super_yes"
SUPER_NO = "super_no"
FORFEIT = "forfeit"

SEAT_EVENTS = frozenset({PLAY, TOEP, CALL, FOLD, VUILE_WAS, CHECK, BELIEVE, PLAY_IN, SIT_OUT,
                         SUPER_YES, SUPER_NO, FORFEIT})
ALL_EVENTS = SEAT_EVENTS | {CLOSE_WINDOW}


@dataclass(frozen=True, slots=True)
class Event:
    do: str
    seat: int | None = None
    card: Card | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {}
        if self.seat is not None:
            out["seat"] = self.seat
        out["do"] = self.do
        if self.card is not None:
            out["card"] = self.card.text
        return out

    def __str__(self) -> str:
        who = "" if self.seat is None else f"seat {self.seat} "
        card = "" if self.card is None else f" {self.card.text}"
        return f"{who}{self.do}{card}"


_PLAYS: dict[tuple[int, int], Event] = {}
_SIMPLE: dict[tuple[str, int | None], Event] = {}


def play(seat: int, card: Card) -> Event:
    """The (interned) event of `seat` playing `card`."""
    key = (seat, card.index)
    event = _PLAYS.get(key)
    if event is None:
        event = _PLAYS[key] = Event(PLAY, seat, card)
    return event


def act(do: str, seat: int | None = None) -> Event:
    """The (interned) event `do` by `seat` (no seat for close_window)."""
    key = (do, seat)
    event = _SIMPLE.get(key)
    if event is None:
        event = _SIMPLE[key] = Event(do, seat)
    return event


for _s in range(8):
    for _c in DECK:
        play(_s, _c)


# --- happenings -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundStarted:
    number: int
    kind: str
    leader: int
    stake: int


@dataclass(frozen=True, slots=True)
class Dealt:
    number: int
    redeal: bool


@dataclass(frozen=True, slots=True)
class Reshuffled:
    cards: int


@dataclass(frozen=True, slots=True)
class DeadMansRound:
    dead: tuple[int, ...]
    leader: int


@dataclass(frozen=True, slots=True)
class PlayedIn:
    seat: int
    forced: bool


@dataclass(frozen=True, slots=True)
class SatOut:
    seat: int


@dataclass(frozen=True, slots=True)
class SuperToepAsked:
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SuperToepAnswered:
    seat: int
    yes: bool


@dataclass(frozen=True, slots=True)
class SuperToepDecided:
    super_toep: bool


@dataclass(frozen=True, slots=True)
class VuileWasCalled:
    seat: int


@dataclass(frozen=True, slots=True)
class Checked:
    seat: int


@dataclass(frozen=True, slots=True)
class Believed:
    seat: int


@dataclass(frozen=True, slots=True)
class VuileWasOutcome:
    """How a call ended: `new_cards` (believed, or checked and genuine),
    `caught` (checked and a bluff), `lapsed` (the caller left first) or
    `redeal` (the call completed the row). `genuine` is None when nobody
    may know (nobody checked)."""

    caller: int
    outcome: str
    genuine: bool | None
    checkers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Redealt:
    row: int


@dataclass(frozen=True, slots=True)
class WindowClosed:
    pass


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Toeped:
    seat: int
    stake: int


@dataclass(frozen=True, slots=True)
class Called:
    seat: int
    forced: bool


@dataclass(frozen=True, slots=True)
class Folded:
    seat: int


@dataclass(frozen=True, slots=True)
class MarksTaken:
    """`reason`: fold, check, bluff, sit_out, round or jack_finish."""

    seat: int
    marks: int
    total: int
    reason: str


@dataclass(frozen=True, slots=True)
class TrickWon:
    number: int
    seat: int
    card: Card
    leads_next: int | None


@dataclass(frozen=True, slots=True)
class RoundWon:
    number: int
    seat: int | None
    stake: int
    jack_finish: bool


@dataclass(frozen=True, slots=True)
class PlayerOut:
    """`reason`: limit, forfeit or super_toep."""

    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class Forfeited:
    seat: int


@dataclass(frozen=True, slots=True)
class GameWon:
    seat: int


Happening = (
    RoundStarted | Dealt | Reshuffled | DeadMansRound | PlayedIn | SatOut | SuperToepAsked
    | SuperToepAnswered | SuperToepDecided | VuileWasCalled | Checked | Believed
    | VuileWasOutcome | Redealt | WindowClosed | CardPlayed | Toeped | Called | Folded
    | MarksTaken | TrickWon | RoundWon | PlayerOut | Forfeited | GameWon
)
