"""One refusal of every kind the engine gives, with typed parameters, for
the tests of each renderer (replay tool, terminal game, bot)."""

from __future__ import annotations

from engine.cards import parse_card
from engine.errors import CITABLE_RULES, REFUSALS, IllegalEvent, Param, SeatRef
from engine.state import Phase

SAMPLES: dict[str, Param] = {
    "number": 7, "who": SeatRef(1), "waiting": SeatRef(1), "do": "vuile_was",
    "moment": Phase.TOEP_ANSWER, "cards": (parse_card("8H"), parse_card("9H")),
    "card": parse_card("10S"), "max_stake": 3, "marks": 12, "stake": 4, "limit": 15,
    "kind": "dead_man",
}


def every_refusal() -> list[IllegalEvent]:
    """Each refusal key once, from seat 0, citing a rule."""
    rule = sorted(CITABLE_RULES)[0]
    return [IllegalEvent(rule, key, 0, **{name: SAMPLES[name] for name in params})
            for key, params in REFUSALS.items()]
