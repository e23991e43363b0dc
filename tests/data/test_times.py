from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from data.times import from_db, to_db


def test_round_trip_is_utc() -> None:
    amsterdam = timezone(timedelta(hours=1))
    moment = datetime(2025, 1, 2, 13, 4, 5, 678, tzinfo=amsterdam)
    text = to_db(moment)
    assert text == "2025-01-02T12:04:05.000678+00:00"
    assert from_db(text) == moment
    assert from_db(text).tzinfo == UTC


def test_text_order_is_time_order() -> None:
    early = datetime(2025, 1, 1, 23, 59, 59, 999999, tzinfo=UTC)
    late = datetime(2025, 1, 2, tzinfo=UTC)
    assert to_db(early) < to_db(late)


def test_naive_datetime_is_refused() -> None:
    with pytest.raises(ValueError, match="naive"):
        to_db(datetime(2025, 1, 1))
