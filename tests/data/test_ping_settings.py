"""Who wants turn pings: members' choices per server and the server's default."""

from __future__ import annotations

import pytest

from data import ping_settings
from data.db import Database
from data.errors import ConstraintError
from data.guilds import get_settings, set_language
from data.ping_settings import PingChoice
from tests.data.helpers import GUILD

ANNA, BRAM = 111, 222


async def test_nobody_chose_anything_so_when_idle(db: Database) -> None:
    assert await ping_settings.member_choices(db, GUILD, [ANNA, BRAM]) == {}
    assert await ping_settings.guild_default(db, GUILD) is None
    assert ping_settings.choices_for([ANNA], {}, None) == {ANNA: PingChoice.IDLE}


async def test_a_members_choice_is_theirs_in_that_server_only(db: Database) -> None:
    await ping_settings.set_member_choice(db, GUILD, ANNA, PingChoice.NEVER)
    await ping_settings.set_member_choice(db, GUILD, ANNA, PingChoice.ALWAYS)  # changed
    assert await ping_settings.member_choices(db, GUILD, [ANNA, BRAM]) == {
        ANNA: PingChoice.ALWAYS}
    assert await ping_settings.member_choices(db, GUILD + 1, [ANNA]) == {}
    await ping_settings.set_member_choice(db, GUILD, ANNA, None)  # the server's default again
    assert await ping_settings.member_choices(db, GUILD, [ANNA]) == {}


async def test_the_servers_default_leaves_its_other_settings_alone(db: Database) -> None:
    await set_language(db, GUILD, "nl")
    await ping_settings.set_guild_default(db, GUILD, PingChoice.ALWAYS)
    assert await ping_settings.guild_default(db, GUILD) is PingChoice.ALWAYS
    assert (await get_settings(db, GUILD)).language == "nl"
    await ping_settings.set_guild_default(db, GUILD, None)
    assert await ping_settings.guild_default(db, GUILD) is None
    # a member's own choice goes before the server's default
    members = {ANNA: PingChoice.NEVER}
    assert ping_settings.choices_for([ANNA, BRAM], members, PingChoice.ALWAYS) == {
        ANNA: PingChoice.NEVER, BRAM: PingChoice.ALWAYS}


async def test_the_database_takes_no_other_value(db: Database) -> None:
    with pytest.raises(ConstraintError):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO member_settings (guild_id, user_id, ping)"
                               " VALUES (?, ?, ?)", (GUILD, ANNA, "sometimes"))
    assert ping_settings.parse("sometimes") is None and ping_settings.parse("never") is (
        PingChoice.NEVER)
