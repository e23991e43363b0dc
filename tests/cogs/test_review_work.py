"""What a worker sends back for a seat: its decisions only, and nothing that
depends on a card that seat never saw (the seat's view export shows no more)."""

from __future__ import annotations

from cogs.review_work import review_seat, version
from engine.record import replay_json
from tests.engine.review_games import finished, twin

SAMPLES = 6


def test_twin_records_give_the_same_body() -> None:
    for seed in range(3):
        record, seat = finished(seed), seed % 3
        other = twin(record, seat)
        assert other is not None and other["deals"] != record["deals"]
        body = review_seat("k", record, seat, SAMPLES)
        assert review_seat("k", other, seat, SAMPLES) == body
        assert {d["seat"] for d in body["decisions"]} == {seat}
        assert body["version"] == version(SAMPLES) and body["seat"] == seat


def test_the_body_holds_the_public_marks_and_stakes() -> None:
    record = finished(1)
    body = review_seat("k", record, 0, SAMPLES)
    rounds = body["rounds"]
    assert rounds and all(isinstance(m, int) and m >= 0 for m in rounds)
    final = replay_json(record).marks[0]
    assert sum(rounds) == final  # the slate round by round adds up to the last one
    assert all(d["stake"] >= 1 for d in body["decisions"])
