"""Settings: one clear line for a missing or malformed setting; the token
never shows."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from config import DEFAULT_DATABASE, SettingsError, load_settings

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz012345"
ROOT = Path(__file__).parent.parent


def test_defaults_and_a_full_set() -> None:
    settings = load_settings({"DISCORD_TOKEN": TOKEN})
    assert (settings.dev_guild_id, settings.database_path, settings.log_level) == (
        None, DEFAULT_DATABASE, "INFO")
    full = load_settings({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "123456789012345678",
                          "DATABASE_PATH": "x/toep.db", "LOG_LEVEL": "debug"})
    assert (full.dev_guild_id, str(full.database_path), full.log_level) == (
        123456789012345678, "x/toep.db", "DEBUG")


@pytest.mark.parametrize(("env", "message"), [
    ({}, "DISCORD_TOKEN is not set"),
    ({"DISCORD_TOKEN": "nope"}, "does not look like a bot token"),
    ({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "12ab"}, "DEV_GUILD_ID must be a server id"),
    ({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "loud"}, "LOG_LEVEL must be one of"),
    ({"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": "."}, "is a folder"),
    ({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "mysql://u:secret@h/toep"}, "only postgresql://"),
    ({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "toep.sqlite3"}, "is not a URL"),
    ({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "postgresql://u:secret@h:99999/toep"},
     "cannot be read"),
    ({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "postgresql://u:secret@/toep"}, "names no server"),
    ({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "postgresql://u:secret@h:5432"},
     "names no database"),
])
def test_bad_settings_are_one_clear_line(env: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError, match=message) as err:
        load_settings(env)
    assert "\n" not in str(err.value) and TOKEN not in str(err.value)
    assert "secret" not in str(err.value)


def test_a_database_url_is_used_instead_of_the_file_and_its_password_never_shows() -> None:
    url = "postgresql://toep:secret@dbhost:5432/toep"
    settings = load_settings({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url})
    assert settings.database == url
    assert "secret" not in repr(settings) and "toep:***@dbhost:5432/toep" in repr(settings)
    assert load_settings({"DISCORD_TOKEN": TOKEN}).database == DEFAULT_DATABASE


def test_the_token_never_shows_in_a_repr() -> None:
    assert TOKEN not in repr(load_settings({"DISCORD_TOKEN": TOKEN}))


def test_running_without_a_token_exits_1_with_one_line(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": ""}
    run = subprocess.run([sys.executable, str(ROOT / "bot.py")], capture_output=True,
                         text=True, cwd=tmp_path, env=env, timeout=60, check=False)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.strip().count("\n") == 0 and "DISCORD_TOKEN" in run.stderr
