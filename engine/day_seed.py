"""The commit-reveal of a day's seed: its SHA-256 is shown when the day
opens, the seed itself when it closes, and anyone can check the one against
the other (`python -m engine.boards --seed S --commitment H`). Drawing a
secret seed needs the operating system's randomness, which the engine never
touches: whoever opens a day draws it and hands it in."""

from __future__ import annotations

import hashlib
import hmac


def commitment(seed: str) -> str:
    """The SHA-256 of the seed's UTF-8 bytes, as 64 lower-case hex digits."""
    return hashlib.sha256(seed.encode()).hexdigest()


def matches(seed: str, shown: str) -> bool:
    """Whether `seed` is the seed whose commitment was `shown`."""
    return hmac.compare_digest(commitment(seed), shown.strip().lower())
