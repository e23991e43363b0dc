"""R19: three forfeits at public tables within seven days, a seven-day ban."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

from data.bans import (
    Forfeit,
    ForfeitKind,
    ForfeitOutcome,
    Notice,
    Standing,
    active_ban,
    forfeits_in_window,
    lift_ban,
    list_bans,
    mark_told,
    record_forfeit,
    record_forfeit_in,
    standing,
    untold,
    untold_for,
)
from data.db import Database
from tests.data.helpers import GUILD, NOW, playing, until_blocked

USER = 1
DAY = timedelta(days=1)


async def forfeit(
    db: Database, at: datetime, *, user: int = USER, kind: ForfeitKind = "timeout"
) -> ForfeitOutcome:
    game = await playing(db, (user, 99))
    return await record_forfeit(db, game_id=game.id, guild_id=GUILD, user_id=user, kind=kind, at=at)


async def test_third_forfeit_within_seven_days_bans_for_seven_days(db: Database) -> None:
    assert (await forfeit(db, NOW)).ban is None
    assert (await forfeit(db, NOW + 3 * DAY, kind="walkout")).ban is None
    third = NOW + 6 * DAY
    ban = (await forfeit(db, third)).ban
    assert ban is not None
    assert (ban.since, ban.until) == (third, third + 7 * DAY)
    assert await active_ban(db, GUILD, USER, third + DAY) == ban
    assert await active_ban(db, GUILD + 1, USER, third + DAY) is None  # other guild
    assert await active_ban(db, GUILD, USER + 1, third + DAY) is None  # other user


async def test_three_forfeits_spread_over_eight_days_do_not_ban(db: Database) -> None:
    await forfeit(db, NOW)
    await forfeit(db, NOW + 4 * DAY)
    outcome = await forfeit(db, NOW + 8 * DAY)
    assert outcome.recorded and outcome.ban is None
    assert await active_ban(db, GUILD, USER, NOW + 8 * DAY) is None


async def test_ban_expires(db: Database) -> None:
    for days in (0, 1, 2):
        await forfeit(db, NOW + days * DAY)
    end = NOW + 9 * DAY
    assert await active_ban(db, GUILD, USER, end - timedelta(seconds=1)) is not None
    assert await active_ban(db, GUILD, USER, end) is None
    assert await list_bans(db, GUILD, end) == []


async def test_lifting_a_ban(db: Database) -> None:
    for days in (0, 1, 2):
        await forfeit(db, NOW + days * DAY)
    when = NOW + 3 * DAY
    assert len(await list_bans(db, GUILD, when)) == 1
    lifted = await lift_ban(db, GUILD, USER, by=42, now=when)
    assert lifted is not None and lifted.lifted_by == 42 and lifted.lifted_at == when
    assert await active_ban(db, GUILD, USER, when) is None
    assert await list_bans(db, GUILD, when) == []
    assert await lift_ban(db, GUILD, USER, by=42, now=when) is None


async def test_forfeits_already_banned_for_do_not_count_again(db: Database) -> None:
    for days in (0, 1, 2):
        await forfeit(db, NOW + days * DAY)
    await lift_ban(db, GUILD, USER, by=42, now=NOW + 2 * DAY + timedelta(hours=1))
    # a fourth forfeit the next day is the first since that ban, not the fourth in a row
    assert (await forfeit(db, NOW + 3 * DAY)).ban is None
    assert (await forfeit(db, NOW + 4 * DAY)).ban is None
    assert (await forfeit(db, NOW + 5 * DAY)).ban is not None


async def test_forfeit_while_banned_adds_no_second_ban(db: Database) -> None:
    for days in (0, 1, 2):
        await forfeit(db, NOW + days * DAY)
    assert (await forfeit(db, NOW + 3 * DAY)).ban is None  # already in a game when banned
    assert len(await list_bans(db, GUILD, NOW + 3 * DAY)) == 1


async def test_same_forfeit_twice_is_stored_once(db: Database) -> None:
    game = await playing(db, (USER, 2))
    first = await record_forfeit(
        db, game_id=game.id, guild_id=GUILD, user_id=USER, kind="timeout", at=NOW
    )
    again = await record_forfeit(
        db, game_id=game.id, guild_id=GUILD, user_id=USER, kind="walkout", at=NOW
    )
    assert first.recorded and not again.recorded
    assert len(await forfeits_in_window(db, GUILD, USER, NOW)) == 1


async def test_forfeits_in_window(db: Database) -> None:
    for days in (0, 2, 3, 9):
        await forfeit(db, NOW + days * DAY, kind="walkout" if days == 3 else "timeout")
    found = await forfeits_in_window(db, GUILD, USER, NOW + 9 * DAY)
    # exactly seven days back (day 2) is outside: the window is (now - 7 days, now]
    assert [(f.at, f.kind) for f in found] == [
        (NOW + 3 * DAY, "walkout"),
        (NOW + 9 * DAY, "timeout"),
    ]
    assert len(await forfeits_in_window(db, GUILD, USER, NOW + 9 * DAY, days=30)) == 4


async def test_forfeits_saved_at_once_ban_once(db: Database) -> None:
    await forfeit(db, NOW)
    await forfeit(db, NOW + DAY)
    third, fourth = await playing(db, (USER, 99)), await playing(db, (USER, 98))
    async with db.transaction() as conn:  # the third, not yet committed
        banned = await record_forfeit_in(conn, Forfeit(third.id, GUILD, USER, "timeout",
                                                       NOW + 2 * DAY))
        other = asyncio.create_task(record_forfeit(
            db, game_id=fourth.id, guild_id=GUILD, user_id=USER, kind="walkout",
            at=NOW + 2 * DAY + timedelta(minutes=1)))
        await until_blocked(db, other)
    assert banned.ban is not None and (await other).ban is None
    assert len(await list_bans(db, GUILD, NOW + 3 * DAY)) == 1


async def test_standing_counts_what_a_next_forfeit_would_be(db: Database) -> None:
    assert await standing(db, GUILD, USER, NOW) == Standing(0, None)
    await forfeit(db, NOW)
    await forfeit(db, NOW + DAY)
    now = NOW + 2 * DAY
    assert (await standing(db, GUILD, USER, now)).next_bans
    assert await standing(db, GUILD, USER, NOW + 7.5 * DAY) == Standing(1, None)  # one aged out
    ban = (await forfeit(db, now)).ban
    after = await standing(db, GUILD, USER, now + DAY)
    assert after == Standing(0, ban) and not after.next_bans  # answered by the ban


async def test_a_ban_and_its_lifting_are_each_told_once(db: Database) -> None:
    for days in (0, 1, 2):
        await forfeit(db, NOW + days * DAY)
    ban = await active_ban(db, GUILD, USER, NOW + 2 * DAY)
    assert ban is not None
    assert await untold(db) == [(GUILD, USER)]
    assert await untold_for(db, GUILD, USER) == [Notice(ban, "start")]
    await mark_told(db, await untold_for(db, GUILD, USER), NOW + 3 * DAY)
    assert await untold(db) == [] and await untold_for(db, GUILD, USER) == []

    lifted = await lift_ban(db, GUILD, USER, by=7, now=NOW + 4 * DAY)
    assert lifted is not None
    assert await untold_for(db, GUILD, USER) == [Notice(lifted, "lift")]
    await mark_told(db, [Notice(lifted, "lift")], NOW + 5 * DAY)
    await mark_told(db, [Notice(lifted, "lift")], NOW + 6 * DAY)  # told stays told
    assert await untold(db) == []


async def test_a_ban_lifted_before_it_was_told_has_both_notices_in_order(db: Database) -> None:
    for days in (0, 1, 2):
        await forfeit(db, NOW + days * DAY, user=2)
    lifted = await lift_ban(db, GUILD, 2, by=7, now=NOW + 2 * DAY)
    assert lifted is not None
    assert [n.kind for n in await untold_for(db, GUILD, 2)] == ["start", "lift"]
    assert await untold_for(db, GUILD, USER) == []
