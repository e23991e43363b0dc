"""The invitation messages kept until their lobby starts or closes."""

from __future__ import annotations

from data import invitations
from data.db import Database
from data.games import cancel_game
from tests.data.helpers import GUILD, NOW, lobby, playing


async def test_kept_until_taken_once(db: Database) -> None:
    game = await lobby(db)
    other = await lobby(db, (3, 4))
    await invitations.add(db, game.id, 900)
    await invitations.add(db, game.id, 901)
    await invitations.add(db, game.id, 900)  # told twice: kept once
    await invitations.add(db, other.id, 902)
    assert await invitations.left_over(db) == []  # both still lobbies
    assert await invitations.take(db, game.id) == [900, 901]
    assert await invitations.take(db, game.id) == []
    assert await invitations.take(db, other.id) == [902]


async def test_left_over_names_games_no_longer_in_the_lobby(db: Database) -> None:
    waiting = await lobby(db)
    started = await playing(db, (5, 6))
    cancelled = await lobby(db, (7, 8))
    await cancel_game(db, cancelled.id, NOW)
    for game, message in ((waiting, 1), (started, 2), (started, 3), (cancelled, 4)):
        await invitations.add(db, game.id, message)
    assert await invitations.left_over(db) == [
        (started.id, GUILD, started.channel_id, 2), (started.id, GUILD, started.channel_id, 3),
        (cancelled.id, GUILD, cancelled.channel_id, 4)]
    assert await invitations.take(db, started.id) == [2, 3]
    assert [row[0] for row in await invitations.left_over(db)] == [cancelled.id]
