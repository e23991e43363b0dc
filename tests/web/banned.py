"""A ban for the web table's tests: three public forfeits this week (R19)."""

from __future__ import annotations

from datetime import timedelta

from data import bans, games
from data.bans import Ban
from tests.e2e.toep_world import World


async def banned(world: World, who: str) -> Ban:
    """`who` forfeited three public games in other channels, the last an
    hour ago: a ban from public tables, in force now."""
    assert world.bot is not None
    db, now, user = world.bot.db, world.bot.clock.now(), world.people[who]
    for i in range(3):
        row = await games.create_game(db, guild_id=world.guild.id, channel_id=900 + i,
                                      host_id=1, public=True, rules={}, seed=i, now=now)
        await bans.record_forfeit(db, game_id=row.id, guild_id=world.guild.id,
                                  user_id=user.id, kind="timeout", at=now - timedelta(hours=3 - i))
    ban = await bans.active_ban(db, world.guild.id, user.id, now)
    assert ban is not None
    return ban
