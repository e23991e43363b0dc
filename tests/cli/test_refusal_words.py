"""The terminal game's words for a refusal: to the person, others by name."""

from __future__ import annotations

from cli.refusal_words import YOU, refusal_text
from engine.errors import REFUSALS, IllegalEvent, SeatRef
from tests.engine.refusals import every_refusal

NAMES = ["Anna", "Bob"]


def test_every_refusal_has_words() -> None:
    assert set(YOU) == set(REFUSALS)
    for err in every_refusal():
        text = refusal_text(err, NAMES)
        assert text.endswith(f"({err.rule})") and "{" not in text, text
        if any(isinstance(value, SeatRef) for value in err.params.values()):
            assert "Bob" in text, text


def test_a_seat_by_its_name() -> None:
    err = IllegalEvent("R12", "not_checker_turn", 0, waiting=SeatRef(1))
    assert refusal_text(err, NAMES) == "it is Bob's turn to check or believe (R12)"
