"""Kept reviews: per game, seat and version, on both backends."""

from __future__ import annotations

import pytest

from data.db import Database
from data.errors import ConstraintError
from data.reviews import get_review, put_review
from tests.data.helpers import NOW, finished

V1, V2 = "toep-review/1;a", "toep-review/1;b"


async def test_a_review_is_kept_per_game_seat_and_version(db: Database) -> None:
    game = await finished(db, (1, 2), (1, 2))
    assert await get_review(db, game.id, 0, V1) is None
    body = {"format": "toep-review/1", "decisions": [{"event": 3, "marks_lost": 0.5}]}
    await put_review(db, game.id, 0, V1, body, NOW)
    assert await get_review(db, game.id, 0, V1) == body
    assert await get_review(db, game.id, 1, V1) is None  # another seat
    assert await get_review(db, game.id, 0, V2) is None  # another version: reviewed anew


async def test_a_second_put_keeps_the_first(db: Database) -> None:
    game = await finished(db, (1, 2), (1, 2))
    await put_review(db, game.id, 1, V1, {"n": 1}, NOW)
    await put_review(db, game.id, 1, V1, {"n": 2}, NOW)
    assert await get_review(db, game.id, 1, V1) == {"n": 1}


async def test_only_an_object_for_a_real_game_and_seat(db: Database) -> None:
    game = await finished(db, (1, 2), (1, 2))
    with pytest.raises(ConstraintError):
        await put_review(db, game.id + 1000, 0, V1, {"n": 1}, NOW)  # no such game
    with pytest.raises(ConstraintError):
        await put_review(db, game.id, -1, V1, {"n": 1}, NOW)
    with pytest.raises(ConstraintError):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO reviews (game_id, seat, version, body, created_at)"
                               " VALUES (?, 0, ?, '[1]', '2025-01-01')", (game.id, V1))
    assert await get_review(db, game.id, 0, V1) is None
