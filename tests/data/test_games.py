"""Lobby, start, cancel, end and restart recovery."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from data.db import Database
from data.errors import ChannelBusyError, ConstraintError, GameStateError, NotFoundError
from data.games import (
    Seat,
    SeatResult,
    add_invites,
    append_deals,
    append_events,
    cancel_game,
    create_game,
    end_game,
    load_game,
    load_unfinished,
    remove_invite,
    require_status,
    set_message,
    set_rules,
    start_game,
    update_lobby_seats,
)
from tests.data.helpers import (
    CHANNEL,
    DEAL,
    GUILD,
    NOW,
    human_seats,
    lobby,
    playing,
    until_blocked,
)


async def test_create_and_load_a_lobby(db: Database) -> None:
    game = await create_game(
        db,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=7,
        public=False,
        rules={"limit": 10, "next_leader": "winner"},
        seed=123,
        now=NOW,
        seats=[Seat(0, "host", user_id=7)],
        invites=[8, 9, 8],
    )
    assert game.status == "lobby" and not game.public and game.created_at == NOW
    loaded = await load_game(db, game.id)
    assert loaded.game == game
    assert loaded.seats == (Seat(0, "host", user_id=7),)
    assert loaded.invites == frozenset({8, 9})
    assert loaded.events == () and loaded.chance_rows == ()


async def test_lobby_changes(db: Database) -> None:
    game = await lobby(db, (1, 2))
    seats = [*human_seats((1, 3)), Seat(2, "Computer", computer="hard")]
    await update_lobby_seats(db, game.id, seats)
    await set_rules(db, game.id, {"limit": 20})
    await set_message(db, game.id, 555)
    await add_invites(db, game.id, [4, 5])
    await remove_invite(db, game.id, 4)
    loaded = await load_game(db, game.id)
    assert loaded.seats == tuple(seats)
    assert loaded.game.rules == {"limit": 20}
    assert loaded.game.message_id == 555
    assert loaded.invites == frozenset({5})


async def test_seat_must_be_person_or_computer(db: Database) -> None:
    game = await lobby(db)
    with pytest.raises(ConstraintError, match=r"(?i)check"):
        await update_lobby_seats(db, game.id, [Seat(0, "both", user_id=1, computer="easy")])
    assert len((await load_game(db, game.id)).seats) == 2  # unchanged


async def test_start_writes_seats_leader_and_first_deal(db: Database) -> None:
    game = await lobby(db, (1, 2))
    later = NOW + timedelta(minutes=2)
    started = await start_game(
        db, game.id, seats=human_seats((2, 1)), first_leader=1, now=later, deals=[DEAL]
    )
    assert started.status == "playing"
    assert started.first_leader == 1 and started.started_at == later
    loaded = await load_game(db, game.id)
    assert [seat.user_id for seat in loaded.seats] == [2, 1]
    assert loaded.chance_rows == (DEAL,)


async def test_start_refuses_gaps_in_seats(db: Database) -> None:
    game = await lobby(db)
    with pytest.raises(ValueError, match="seats"):
        await start_game(
            db, game.id, seats=[Seat(0, "a", 1), Seat(2, "b", 2)], first_leader=0, now=NOW
        )


async def test_lobby_only_operations_refuse_a_game_in_play(db: Database) -> None:
    game = await playing(db)
    with pytest.raises(GameStateError, match="playing, not lobby"):
        await update_lobby_seats(db, game.id, human_seats((1,)))
    with pytest.raises(GameStateError):
        await cancel_game(db, game.id, NOW)
    with pytest.raises(GameStateError):
        await start_game(db, game.id, seats=human_seats((1, 2)), first_leader=0, now=NOW)


async def test_cancel_a_lobby(db: Database) -> None:
    game = await lobby(db)
    await cancel_game(db, game.id, NOW)
    loaded = await load_game(db, game.id)
    assert loaded.game.status == "cancelled" and loaded.game.finished_at == NOW
    assert await load_unfinished(db) == []


async def test_end_a_game_unrated(db: Database) -> None:
    game = await playing(db)
    await end_game(db, game.id, NOW, [SeatResult(0, 3, None), SeatResult(1, 5, None, True, 1)])
    loaded = await load_game(db, game.id)
    assert loaded.game.status == "ended" and not loaded.game.rated
    assert [(s.marks, s.forfeited, s.forfeit_order) for s in loaded.seats] == [
        (3, False, None),
        (5, True, 1),
    ]
    with pytest.raises(GameStateError):
        await end_game(db, game.id, NOW)


async def test_unknown_game(db: Database) -> None:
    with pytest.raises(NotFoundError):
        await load_game(db, 404)
    with pytest.raises(NotFoundError):
        await set_message(db, 404, 1)


async def test_load_unfinished_round_trip(db: Database) -> None:
    waiting = await lobby(db, (1, 2))
    await add_invites(db, waiting.id, [3])
    running = await playing(db, (4, 5), computers=1)
    await append_deals(db, running.id, 0, [DEAL])
    events: list[dict[str, object]] = [
        {"do": "close_window"},
        {"seat": 0, "do": "play", "card": "7C"},
    ]
    await append_events(db, running.id, 0, events)
    await append_events(db, running.id, 2, [{"seat": 1, "do": "toep"}])
    done = await playing(db, (6, 7))
    await end_game(db, done.id, NOW)

    loaded = await load_unfinished(db)
    assert [item.game.id for item in loaded] == [waiting.id, running.id]
    assert loaded[0].invites == frozenset({3}) and loaded[0].events == ()
    assert loaded[1].events == (*events, {"seat": 1, "do": "toep"})
    assert loaded[1].chance_rows == (DEAL,)
    assert [s.computer for s in loaded[1].seats] == [None, None, "normal"]
    assert loaded[1] == await load_game(db, running.id)


async def test_record_is_a_replay_document(db: Database) -> None:
    game = await playing(db, (1, 2))
    await append_deals(db, game.id, 0, [DEAL])
    await append_events(db, game.id, 0, [{"do": "close_window"}])
    record = (await load_game(db, game.id)).record()
    assert record == {
        "format": "toep-replay/1",
        "rules": {"limit": 15, "max_stake": None},
        "players": ["user1", "user2"],
        "first_leader": 0,
        "seed": 42,
        "deals": [DEAL],
        "events": [{"do": "close_window"}],
    }


async def test_a_channel_holds_one_open_table(db: Database) -> None:
    first = await create_game(db, guild_id=GUILD, channel_id=CHANNEL, host_id=1, public=True,
                              rules={}, seed=1, now=NOW)
    with pytest.raises(ChannelBusyError):
        await create_game(db, guild_id=GUILD, channel_id=CHANNEL, host_id=2, public=True,
                          rules={}, seed=2, now=NOW)
    await cancel_game(db, first.id, NOW)
    again = await create_game(db, guild_id=GUILD, channel_id=CHANNEL, host_id=2, public=True,
                              rules={}, seed=2, now=NOW)
    assert again.status == "lobby"


async def test_a_lobby_cancelled_meanwhile_cannot_be_cancelled_again(db: Database) -> None:
    game = await lobby(db)
    async with db.transaction() as conn:  # cancelled, not yet committed
        await require_status(conn, game.id, ("lobby",))
        await conn.execute("UPDATE games SET status = 'cancelled' WHERE id = ?", (game.id,))
        again = asyncio.create_task(cancel_game(db, game.id, NOW))
        await until_blocked(db, again)
    with pytest.raises(GameStateError, match="is cancelled"):
        await again
