from __future__ import annotations

import pytest

from data.db import Database
from data.errors import GameStateError
from data.games import append_events, end_game
from data.history import list_history, load_finished
from tests.data.helpers import GUILD, NOW, finished, playing


async def test_newest_first_with_paging(db: Database) -> None:
    games = [await finished(db, (1, 2), (1, 2), minutes=m) for m in range(5)]
    await finished(db, (1, 2), (2, 1), guild=GUILD + 1)  # another guild
    await finished(db, (3, 4), (1, 2))  # without the person
    await playing(db, (1, 2))  # not over
    first = await list_history(db, GUILD, 1, limit=3)
    assert [entry.game.id for entry in first] == [g.id for g in reversed(games)][:3]
    rest = await list_history(db, GUILD, 1, limit=3, offset=3)
    assert [entry.game.id for entry in rest] == [games[1].id, games[0].id]
    assert first[0].seat == 0 and [s.user_id for s in first[0].seats] == [1, 2]
    assert first[0].seats[0].place == 1


async def test_ended_games_are_history_too(db: Database) -> None:
    game = await playing(db, (1, 2))
    await end_game(db, game.id, NOW)
    [entry] = await list_history(db, GUILD, 2)
    assert entry.game.status == "ended" and entry.seat == 1


async def test_load_finished_gives_the_record_parts(db: Database) -> None:
    game = await finished(db, (1, 2), (2, 1))
    loaded = await load_finished(db, game.id)
    assert loaded.game.status == "finished" and loaded.game.rated
    assert [s.place for s in loaded.seats] == [2, 1]


async def test_a_game_in_play_is_not_exported(db: Database) -> None:
    game = await playing(db)
    await append_events(db, game.id, 0, [{"do": "close_window"}])
    with pytest.raises(GameStateError, match="not over"):
        await load_finished(db, game.id)
