from __future__ import annotations

import pytest

from data.db import Database
from data.guilds import (
    DEFAULT_LIMITS,
    GuildSettings,
    Limits,
    get_limits,
    get_settings,
    set_language,
    set_limit,
    set_public_rules,
)
from tests.data.helpers import GUILD


async def test_defaults_when_never_set(db: Database) -> None:
    assert await get_settings(db, GUILD) == GuildSettings(GUILD, None, {})


async def test_language_and_rules_are_kept_apart(db: Database) -> None:
    await set_public_rules(db, GUILD, {"limit": 10, "max_stake": None, "dead_man": False})
    await set_language(db, GUILD, "nl")
    settings = await get_settings(db, GUILD)
    assert settings.language == "nl"
    assert settings.public_rules == {"limit": 10, "max_stake": None, "dead_man": False}
    await set_language(db, GUILD, None)
    assert (await get_settings(db, GUILD)).language is None
    assert (await get_settings(db, GUILD)).public_rules["limit"] == 10


async def test_unknown_language_is_refused(db: Database) -> None:
    with pytest.raises(ValueError, match="unknown language"):
        await set_language(db, GUILD, "de")  # type: ignore[arg-type]


async def test_limits_are_the_defaults_until_set_and_each_kept_apart(db: Database) -> None:
    assert await get_limits(db, GUILD) == DEFAULT_LIMITS == Limits(2, 3, 25)
    await set_language(db, GUILD, "nl")  # a row without limits: still the defaults
    assert await get_limits(db, GUILD) == DEFAULT_LIMITS
    await set_limit(db, GUILD, "hosted", 4)
    await set_limit(db, GUILD, "tables", 200)
    assert await get_limits(db, GUILD) == Limits(hosted=4, seated=3, tables=200)
    assert await get_limits(db, GUILD + 1) == DEFAULT_LIMITS  # another server's own
    await set_limit(db, GUILD, "hosted", None)  # back to the default
    assert await get_limits(db, GUILD) == Limits(hosted=2, seated=3, tables=200)
    settings = await get_settings(db, GUILD)  # the other settings untouched
    assert settings.language == "nl" and settings.public_rules == {}


@pytest.mark.parametrize(("name", "value"), [("hosted", 0), ("seated", 11), ("tables", 201),
                                             ("channels", 3), ("max_hosted", 2)])
async def test_a_limit_out_of_range_or_unknown_is_refused(db: Database, name: str,
                                                          value: int) -> None:
    await set_limit(db, GUILD, "seated", 5)
    with pytest.raises(ValueError):
        await set_limit(db, GUILD, name, value)
    assert await get_limits(db, GUILD) == Limits(seated=5)  # nothing changed


async def test_limits_not_set_follow_the_defaults_given(db: Database) -> None:
    mine = Limits(hosted=7, seated=8, tables=900)  # an operator's, or a bench's
    assert await get_limits(db, GUILD, mine) == mine
    await set_limit(db, GUILD, "seated", 2)
    assert await get_limits(db, GUILD, mine) == Limits(hosted=7, seated=2, tables=900)
