"""Timestamps as stored: ISO-8601 text in UTC with microseconds.

One fixed format keeps text comparison in SQL equal to time comparison, so
window queries (forfeits in the last seven days) can use plain `>` and `<=`.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

log = logging.getLogger(__name__)


def to_db(moment: datetime) -> str:
    """The stored text of an aware datetime; a naive one is refused."""
    if moment.tzinfo is None or moment.tzinfo.utcoffset(moment) is None:
        raise ValueError(f"naive datetime {moment!r}: pass a timezone-aware datetime")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def from_db(text: str) -> datetime:
    """The aware UTC datetime of a stored timestamp."""
    return datetime.fromisoformat(text).astimezone(UTC)


def from_db_opt(text: str | None) -> datetime | None:
    """Like from_db, passing NULL through."""
    return None if text is None else from_db(text)
