from __future__ import annotations

import pytest

from data.db import Database
from data.guilds import GuildSettings, get_settings, set_language, set_public_rules
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
