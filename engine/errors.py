"""The one error a refused event raises, and the error of a bad record.

A refusal carries a rule id, a key and typed parameters (seats, cards,
moments, numbers), never words: the bot says it in the player's language
(locales/), the terminal game in its own words (cli/), and the replay tool
in the English of its error lines (engine/refusal_words.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.cards import Card
from engine.state import Phase


@dataclass(frozen=True)
class SeatRef:
    """A seat named in a refusal: each renderer shows it its own way (a name)."""

    seat: int


# A parameter: a number, a key (an event name like "vuile_was", a round kind
# like "dead_man"; or the unknown word of a record), a card, cards to choose
# from, the moment of the game, a seat.
Param = int | str | Card | tuple[Card, ...] | Phase | SeatRef

# Every refusal key and the parameters it carries, with their types.
REFUSALS: Mapping[str, Mapping[str, type]] = {
    "game_over": {},
    "no_such_seat": {"number": int},
    "seat_out": {"who": SeatRef},
    "not_in_round": {},
    "not_your_turn": {"waiting": SeatRef},
    "wrong_moment": {"do": str, "moment": Phase},
    "must_follow_suit": {"cards": tuple},
    "not_in_hand": {"card": Card},
    "answer_toep_first": {},
    "last_toeper": {},
    "no_toep_dead_man": {},
    "no_toep_super": {},
    "max_stake": {"max_stake": int},
    "toep_past_limit": {"marks": int, "stake": int, "limit": int},
    "forced_call": {},
    "vuile_was_barred": {},
    "vuile_was_no_cards": {},
    "vuile_was_genuine_only": {"kind": str},
    "vuile_was_pending": {},
    "not_checker_turn": {"waiting": SeatRef},
    "no_choice": {},
    "already_chose": {},
    "dead_man_plays": {},
    "already_answered": {},
    "unknown_event": {"do": str},
    "missing_card": {},
    "missing_seat": {},
}

# Every rule a refusal of the engine can cite (the bot explains each one).
CITABLE_RULES = frozenset({"R4", "R8", "R9", "R10", "R12", "R13", "R14", "R15", "R16",
                           "V2", "V4"})


class IllegalEvent(Exception):
    """A refused event. Nothing changed. `rule` names the rule (R4, V2 ...),
    `seat` the seat that tried, `key` and `params` what was wrong."""

    def __init__(self, rule: str, key: str, seat: int | None = None,
                 **params: Param) -> None:
        if rule and rule not in CITABLE_RULES:
            raise ValueError(f"a refusal cites {rule!r}, which is not in CITABLE_RULES")
        kinds = REFUSALS[key]
        if set(params) != set(kinds) or not all(
                isinstance(value, kinds[name]) for name, value in params.items()):
            raise ValueError(f"refusal {key!r} takes {dict(kinds)}, not {params}")
        self.rule = rule
        self.key = key
        self.seat = seat
        self.params: Mapping[str, Param] = params
        # Its own text names the rule and the key only: a traceback in a log
        # must not show the cards of a refusal (a hand is hidden).
        super().__init__(f"{rule}: {key}" if rule else key)


class RecordError(ValueError):
    """A game record, or a deal in it, that cannot be played."""
