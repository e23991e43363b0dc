"""The write-ahead event log and the deal log: in order, or not at all."""

from __future__ import annotations

import pytest

from data.db import Database
from data.errors import ConstraintError, GameStateError, LogOrderError, NotFoundError
from data.gamelog import append_deals, append_events
from data.games import end_game, load_game
from tests.data.helpers import DEAL, NOW, lobby, playing

CLOSE = {"do": "close_window"}


def play(seat: int, card: str) -> dict[str, object]:
    return {"seat": seat, "do": "play", "card": card}


async def test_append_in_order(db: Database) -> None:
    game = await playing(db)
    assert await append_events(db, game.id, 0, [CLOSE]) == 1
    assert await append_events(db, game.id, 1, [play(0, "7C"), play(1, "8C")]) == 3
    assert await append_events(db, game.id, 3, []) == 3
    assert (await load_game(db, game.id)).events == (CLOSE, play(0, "7C"), play(1, "8C"))


async def test_gap_is_refused_and_nothing_written(db: Database) -> None:
    game = await playing(db)
    await append_events(db, game.id, 0, [CLOSE])
    with pytest.raises(LogOrderError, match="continues at 1, refusing an append at 2"):
        await append_events(db, game.id, 2, [play(0, "7C")])
    assert len((await load_game(db, game.id)).events) == 1


async def test_duplicate_is_refused(db: Database) -> None:
    game = await playing(db)
    await append_events(db, game.id, 0, [CLOSE, play(0, "7C")])
    with pytest.raises(LogOrderError):
        await append_events(db, game.id, 1, [play(0, "8C")])
    assert (await load_game(db, game.id)).events[1] == play(0, "7C")


async def test_logs_are_numbered_per_game(db: Database) -> None:
    first = await playing(db, (1, 2))
    second = await playing(db, (3, 4))
    await append_events(db, first.id, 0, [CLOSE])
    await append_events(db, second.id, 0, [CLOSE])
    assert len((await load_game(db, second.id)).events) == 1


async def test_deals_follow_the_same_rule(db: Database) -> None:
    game = await playing(db)
    assert await append_deals(db, game.id, 0, [DEAL, DEAL]) == 2
    with pytest.raises(LogOrderError, match="deals log"):
        await append_deals(db, game.id, 0, [DEAL])
    assert len((await load_game(db, game.id)).chance_rows) == 2


async def test_only_a_game_in_play_takes_entries(db: Database) -> None:
    waiting = await lobby(db)
    with pytest.raises(GameStateError, match="lobby"):
        await append_events(db, waiting.id, 0, [CLOSE])
    over = await playing(db)
    await end_game(db, over.id, NOW)
    with pytest.raises(GameStateError, match="ended"):
        await append_events(db, over.id, 0, [CLOSE])
    with pytest.raises(NotFoundError):
        await append_deals(db, 404, 0, [DEAL])


async def test_an_entry_that_is_not_an_object_is_refused(db: Database) -> None:
    game = await playing(db)
    with pytest.raises(TypeError, match="JSON object"):
        await append_events(db, game.id, 0, [CLOSE, ["not", "an", "object"]])  # type: ignore[list-item]
    assert (await load_game(db, game.id)).events == ()


async def test_stored_events_cannot_be_rewritten(db: Database) -> None:
    game = await playing(db)
    await append_events(db, game.id, 0, [CLOSE])
    with pytest.raises(ConstraintError, match="append-only"):
        async with db.transaction() as conn:
            await conn.execute("UPDATE game_events SET body = '{}' WHERE game_id = ?", (game.id,))
