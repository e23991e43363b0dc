"""A live table: lobby, play, clocks and windows (R16-R18), forfeits and bans
(R19), the lock, write-ahead persistence, and the end of a game."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest

from data import bans, games
from data.stats import leaderboard, player_stats
from engine import events as ev
from engine.game import Phase
from engine.rules import TableRules
from tables.clock import FakeClock
from tables.errors import Refusal
from tables.manager import TableManager
from tables.snapshot import Status
from tests.tables.conftest import Recorder, new_table, play_people


async def test_lobby_seats_bots_and_host_rules(manager: TableManager) -> None:
    table = await new_table(manager, humans=2, bots=["easy"], start=False)
    assert [s.name for s in table.seats] == ["Host", "P2", "Bot 1"]
    with pytest.raises(Refusal, match="already_seated"):
        await table.join(2, "P2")
    with pytest.raises(Refusal, match="host_only"):
        await table.add_bot(2, "hard")
    with pytest.raises(Refusal, match="host_only"):
        await table.start(2)
    await table.remove_bot(1, 2)
    await table.leave(2)
    assert [s.name for s in table.seats] == ["Host"]
    with pytest.raises(Refusal, match="need_two_players"):
        await table.start(1)
    with pytest.raises(Refusal, match="channel_busy"):
        await manager.create(guild_id=10, channel_id=20, host_id=5, host_name="X", public=True,
                             rules=TableRules())
    saved = await games.load_game(manager.deps.db, table.id)
    assert [s.name for s in saved.seats] == ["Host"]


async def test_private_table_only_invited_players_sit(manager: TableManager) -> None:
    table = await new_table(manager, public=False, humans=1, bots=[], start=False)
    with pytest.raises(Refusal, match="invited_only"):
        await table.join(7, "Stranger")
    await table.invite(1, 7)
    await table.join(7, "Friend")
    assert table.seat_of(7) == 1


async def test_table_full(manager: TableManager) -> None:
    table = await new_table(manager, humans=1, bots=["easy"] * 5, start=False)
    with pytest.raises(Refusal, match="table_full"):
        await table.join(9, "Late")


async def test_a_lobby_nobody_starts_closes_after_15_minutes(
        manager: TableManager, clock: FakeClock) -> None:
    table = await new_table(manager, humans=1, bots=["easy"], start=False)
    await clock.advance(14 * 60)
    assert table.status is Status.LOBBY
    await clock.advance(61)
    assert table.status is Status.CANCELLED and table.end_reason == "lobby_timeout"
    assert (await games.load_game(manager.deps.db, table.id)).game.status == "cancelled"


async def test_a_whole_game_with_people_and_computers(
        manager: TableManager, recorder: Recorder) -> None:
    table = await new_table(manager, humans=2, bots=["normal", "hard"],
                            rules=TableRules(limit=5))
    await play_people(table)
    assert table.status is Status.FINISHED
    assert recorder.unsaved == []  # every event was saved before anyone heard of it
    saved = await games.load_game(manager.deps.db, table.id)
    assert saved.game.status == "finished" and saved.game.rated
    assert sorted(s.place or 0 for s in saved.seats)[0] == 1
    stats = await player_stats(manager.deps.db, 10, 1)
    assert stats is not None and stats.totals.games == 1 and stats.rated_games == 1
    assert len(await leaderboard(manager.deps.db, 10)) == 2


async def test_turn_clock_runs_out_and_forfeits(manager: TableManager, clock: FakeClock) -> None:
    table = await new_table(manager, humans=2, bots=["normal"])
    game = table.game
    assert game is not None
    await _to_first_turn_of_a_person(table, clock)
    seat = game.waiting().seats[0]
    assert table.snapshot().clock is not None and table.deadline is not None
    assert table.deadline - clock.now() == timedelta(seconds=20)
    await clock.advance(19)
    assert not game.forfeited[seat]
    await clock.advance(1.5)
    assert game.forfeited[seat]
    user = table.seats[seat].user_id
    assert user is not None
    assert len(await bans.forfeits_in_window(manager.deps.db, 10, user, clock.now())) == 1


async def _to_first_turn_of_a_person(table: object, clock: FakeClock) -> None:
    from tables.table import Table

    assert isinstance(table, Table) and table.game is not None
    for _ in range(50):
        await table.settled()
        waiting = table.game.waiting()
        if not waiting.window and any(not table.seats[s].is_bot for s in waiting.seats):
            return
        await clock.advance(10)  # windows close on their own
    raise AssertionError("no person's turn came")


async def test_private_table_clock_is_the_hosts_choice(
        manager: TableManager, clock: FakeClock) -> None:
    table = await new_table(manager, public=False, humans=2, bots=[],
                            rules=TableRules(clock=45))
    await _to_first_turn_of_a_person(table, clock)
    assert table.deadline is not None
    assert table.deadline - clock.now() == timedelta(seconds=45)


async def test_window_closes_on_time_without_forfeit(
        manager: TableManager, clock: FakeClock) -> None:
    table = await new_table(manager, humans=2, bots=[])
    game = table.game
    assert game is not None and game.phase is Phase.WINDOW
    assert table.deadline is not None
    assert table.deadline - clock.now() == timedelta(seconds=10)  # V14 default
    await clock.advance(10)
    assert game.phase is Phase.PLAY and not any(game.forfeited)
    assert game.events[-1] == ev.act(ev.CLOSE_WINDOW)


async def test_window_closes_as_soon_as_all_passed(manager: TableManager) -> None:
    table = await new_table(manager, humans=2, bots=["easy"])
    game = table.game
    assert game is not None
    await table.act(1, "pass", stamp=table.stamp)
    assert game.phase is Phase.WINDOW and table.snapshot().passed == {0, 2}  # 2 is a computer
    await table.act(2, "pass", stamp=table.stamp)
    await table.settled()
    assert game.phase is not Phase.WINDOW or game.events[-1].do == ev.VUILE_WAS


async def test_check_window_silence_is_believe(manager: TableManager, clock: FakeClock) -> None:
    table = await new_table(manager, humans=2, bots=[])
    game = table.game
    assert game is not None
    await table.act(1, ev.VUILE_WAS, stamp=table.stamp)
    assert game.phase is Phase.CHECK and game.waiting().seats == (1,)
    await clock.advance(10)
    assert game.events[-1] == ev.act(ev.BELIEVE, 1) and game.phase is Phase.WINDOW


async def test_lone_person_against_computers_has_no_clock(
        manager: TableManager, clock: FakeClock) -> None:
    table = await new_table(manager, humans=1, bots=["normal", "normal"])
    await _to_first_turn_of_a_person(table, clock)
    assert table.deadline is None  # R18
    await clock.advance(9 * 60)
    assert table.status is Status.PLAYING
    await clock.advance(61)  # nobody acted for 10 minutes: ended, unrated
    assert table.status is Status.ENDED and table.end_reason == "idle"
    saved = await games.load_game(manager.deps.db, table.id)
    assert saved.game.status == "ended" and not saved.game.rated


async def test_stale_stamp_and_strangers_are_refused(manager: TableManager) -> None:
    table = await new_table(manager, humans=2, bots=[])
    old = table.stamp
    await table.act(1, ev.VUILE_WAS, stamp=old)
    with pytest.raises(Refusal, match="moment_passed"):
        await table.act(2, "pass", stamp=old)
    with pytest.raises(Refusal, match="not_seated"):
        await table.act(99, ev.CHECK, stamp=table.stamp)
    with pytest.raises(Refusal) as err:
        await table.act(1, ev.CHECK, stamp=table.stamp)
    assert err.value.rule == "R12"


async def test_two_clicks_racing_apply_one_after_the_other(manager: TableManager) -> None:
    table = await new_table(manager, humans=2, bots=[])
    stamp = table.stamp
    outcome = await asyncio.gather(table.act(1, ev.VUILE_WAS, stamp=stamp),
                                   table.act(2, ev.VUILE_WAS, stamp=stamp),
                                   return_exceptions=True)
    assert outcome[0] is None and isinstance(outcome[1], Refusal)
    assert outcome[1].key == "moment_passed"
    assert table.game is not None and table.game.events == [ev.act(ev.VUILE_WAS, 0)]


async def test_walk_out_mid_round_the_card_stays_marks_stop(
        manager: TableManager, clock: FakeClock) -> None:
    table = await new_table(manager, humans=3, bots=[], rules=TableRules(limit=5))
    game = table.game
    assert game is not None
    await clock.advance(10)  # the window closes
    leader = game.waiting().seats[0]
    card = game.legal_events(leader)[0]
    user = table.seats[leader].user_id
    assert user is not None
    await table.act(user, card.do, card.card, table.stamp)
    marks = game.marks[leader]
    await table.leave(user)
    assert game.forfeited[leader] and game.table[0][0] == leader
    await play_people(table)
    assert game.marks[leader] == marks


async def test_three_forfeits_in_seven_days_ban_from_public_tables(
        manager: TableManager, clock: FakeClock) -> None:
    for _ in range(3):
        table = await new_table(manager, humans=2, bots=[])
        await table.leave(2)
        await table.settled()
        assert table.status is Status.FINISHED
        await clock.advance(3600)
    ban = await bans.active_ban(manager.deps.db, 10, 2, clock.now())
    assert ban is not None
    table = await new_table(manager, humans=1, bots=[], start=False)
    with pytest.raises(Refusal, match="banned") as err:
        await table.join(2, "P2")
    assert err.value.rule == "R19"
    await table.cancel(1)
    await clock.advance(7 * 24 * 3600)
    table = await new_table(manager, humans=1, bots=[], start=False)
    await table.join(2, "P2")  # the ban ran out


async def _ban(manager: TableManager, clock: FakeClock, user: int) -> None:
    """Three forfeits at public tables (in other channels): a ban in guild 10."""
    for game_id in range(3):
        row = await games.create_game(manager.deps.db, guild_id=10, channel_id=900 + game_id,
                                      host_id=user, public=True, rules={}, seed=0,
                                      now=clock.now())
        await bans.record_forfeit(manager.deps.db, game_id=row.id, guild_id=10, user_id=user,
                                  kind="timeout", at=clock.now())
    assert await bans.active_ban(manager.deps.db, 10, user, clock.now()) is not None


async def test_a_banned_person_cannot_host_a_public_table(
        manager: TableManager, clock: FakeClock) -> None:
    await _ban(manager, clock, 1)
    with pytest.raises(Refusal, match="banned") as err:
        await new_table(manager, humans=1, bots=[], start=False)
    assert err.value.rule == "R19" and manager.in_channel(20) is None
    table = await new_table(manager, public=False, humans=1, bots=["easy"])  # R19: private
    assert table.status is Status.PLAYING


async def test_a_ban_that_began_in_the_lobby_stops_the_start(
        manager: TableManager, clock: FakeClock) -> None:
    table = await new_table(manager, humans=2, bots=[], start=False)
    await _ban(manager, clock, 2)
    with pytest.raises(Refusal, match="seat_banned") as err:
        await table.start(1)
    assert err.value.rule == "R19" and err.value.params["name"] == "P2"
    assert table.status is Status.LOBBY
    await table.leave(2)
    await table.add_bot(1, "easy")
    await table.start(1)
    assert table.status is Status.PLAYING


async def test_forfeits_at_private_tables_or_alone_do_not_count(
        manager: TableManager, clock: FakeClock) -> None:
    for public, humans in ((False, 2), (True, 1), (False, 2), (True, 1)):
        table = await new_table(manager, public=public, humans=humans,
                                bots=[] if humans == 2 else ["easy"])
        await table.leave(1)
        await table.settled()
    assert await bans.forfeits_in_window(manager.deps.db, 10, 1, clock.now()) == []


async def test_admin_ends_a_table_unrated_nobody_forfeits(manager: TableManager) -> None:
    table = await new_table(manager, humans=2, bots=[])
    await table.end("admin")
    assert table.status is Status.ENDED
    saved = await games.load_game(manager.deps.db, table.id)
    assert saved.game.status == "ended" and not any(s.forfeited for s in saved.seats)
    with pytest.raises(Refusal, match="table_ended"):
        await table.act(1, "pass")


async def test_two_racing_creates_in_one_channel_make_one_table(manager: TableManager) -> None:
    def create(host: int) -> Any:
        return manager.create(guild_id=10, channel_id=21, host_id=host, host_name=f"H{host}",
                              public=True, rules=TableRules())

    outcomes = await asyncio.gather(create(1), create(2), return_exceptions=True)
    refused = [o for o in outcomes if isinstance(o, Refusal)]
    assert len(refused) == 1 and refused[0].key == "channel_busy"
    table = manager.in_channel(21)
    assert table is not None and table in outcomes
    assert [t.id for t in manager if t.row.channel_id == 21] == [table.id]


async def test_a_closed_table_leaves_the_manager(manager: TableManager) -> None:
    lobby = await new_table(manager, humans=1, bots=[], start=False)
    assert manager.get(lobby.id) is lobby
    await lobby.cancel(1)
    assert manager.get(lobby.id) is None and list(manager) == []
    game = await new_table(manager, humans=2, bots=[])
    await game.end()  # an admin ends it
    assert game.status is Status.ENDED and manager.get(game.id) is None
    played = await new_table(manager, humans=1, bots=["easy"])
    await play_people(played)
    assert played.status is Status.FINISHED and manager.tables == {}
