"""review_record's progress: told before the first decision and after each,
the review itself the same with or without it."""

from __future__ import annotations

from engine.review import review_json, review_record
from tests.engine.review_games import finished

SAMPLES = 6


def test_progress_counts_every_decision_once() -> None:
    record = finished(1)
    told: list[tuple[int, int]] = []
    judged = review_record(record, [0], seed=0, samples=SAMPLES,
                           progress=lambda done, total: told.append((done, total)))
    total = len(judged)
    assert total > 0
    assert told == [(done, total) for done in range(total + 1)]
    assert review_json(judged) == review_json(review_record(record, [0], seed=0,
                                                            samples=SAMPLES))
