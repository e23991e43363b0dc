"""The replay tool's English for a refusal: one line as REPLAY.md shows it."""

from __future__ import annotations

from engine.cards import parse_card
from engine.errors import REFUSALS, IllegalEvent
from engine.refusal_words import LINES, replay_line
from tests.engine.refusals import every_refusal


def test_the_line_of_replay_md() -> None:
    err = IllegalEvent("R4", "must_follow_suit", 1, cards=(parse_card("8H"), parse_card("9H")))
    assert replay_line(err) == "seat 1 must follow suit (R4): play 8H or 9H"


def test_every_refusal_has_a_line_with_its_seat_and_rule() -> None:
    assert set(LINES) == set(REFUSALS)
    for err in every_refusal():
        line = replay_line(err)
        assert line.startswith("seat 0") and f"({err.rule})" in line, line
        assert "{" not in line and "\n" not in line and "SeatRef" not in line, line


def test_a_refusal_without_a_seat_or_rule() -> None:
    assert replay_line(IllegalEvent("", "unknown_event", do="dance")) == "unknown event 'dance'"
