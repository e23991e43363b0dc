"""`/toep help`: every /toep and /toep-admin command at a glance, only for the asker, in
their language (the names their client shows)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.i18n import command_key, t
from tests.e2e.toep_world import open_world, original


@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("nl", "nl")])
async def test_help_lists_every_command_in_the_players_language(
        tmp_path: Path, locale: str, lang: str) -> None:
    async with open_world(tmp_path, ("anna",)) as world:
        res = await world.slash("anna", "toep help", locale=locale)
        text = original(res).text
        assert res.ephemeral and t(lang, "help.title") in text
        groups = [c for c in world.fake.commands() if c["name"] in ("toep", "toep-admin")]
        assert len(groups) == 2  # the admin commands are listed too
        for command in groups:
            group = command["name_localizations"]["nl"] if lang == "nl" else command["name"]
            for sub in command["options"]:
                name = sub["name_localizations"]["nl"] if lang == "nl" else sub["name"]
                assert f"/{group} {name}`" in text, name
                assert t(lang, command_key(f"{command['name']} {sub['name']}", "desc")) in text
        assert t(lang, "btn.hand") in text
