"""Settings: one clear line for a missing or malformed setting; the token
never shows."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from config import DEFAULT_DATABASE, SettingsError, load_settings
from tables.shards import UNSHARDED

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


def test_a_database_path_this_user_cannot_write_is_one_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a_file").write_text("")
    with pytest.raises(SettingsError, match="a_file is a file, not a folder"):
        load_settings({"DISCORD_TOKEN": TOKEN,
                       "DATABASE_PATH": str(tmp_path / "a_file" / "toep.sqlite3")})
    # A folder of someone else's, or on a read-only disk (as root, only the latter).
    monkeypatch.setattr("os.access", lambda path, mode: Path(path) != tmp_path)
    with pytest.raises(SettingsError, match="this user may not create files in") as err:
        load_settings({"DISCORD_TOKEN": TOKEN,
                       "DATABASE_PATH": str(tmp_path / "new" / "toep.sqlite3")})
    assert "\n" not in str(err.value) and str(tmp_path) in str(err.value)
    (tmp_path / "toep.sqlite3").write_text("")
    monkeypatch.setattr("os.access", lambda path, mode: Path(path).suffix != ".sqlite3")
    with pytest.raises(SettingsError, match="this user may not write the file"):
        load_settings({"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(tmp_path / "toep.sqlite3")})
    load_settings({"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(tmp_path / "toep.sqlite3"),
                   "DATABASE_URL": "postgresql://toep@dbhost/toep"})  # the file is not used


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


def test_without_shard_settings_the_bot_is_not_sharded() -> None:
    settings = load_settings({"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "", "SHARD_IDS": ""})
    assert settings.shards == UNSHARDED and not settings.shards.sharded


@pytest.mark.parametrize(("count", "ids", "mine"), [
    ("4", "", (0, 1, 2, 3)),
    ("8", "4-7", (4, 5, 6, 7)),
    ("4", "0,2", (0, 2)),
    ("16", " 9, 0-2 ,5 ", (0, 1, 2, 5, 9)),
    ("1", "0", (0,)),
])
def test_shard_settings_name_this_process_s_shards(count: str, ids: str,
                                                   mine: tuple[int, ...]) -> None:
    shards = load_settings({"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": count,
                            "SHARD_IDS": ids}).shards
    assert shards.count == int(count) and shards.mine == mine


@pytest.mark.parametrize(("count", "ids", "message"), [
    ("", "0-3", "SHARD_IDS is '0-3' but SHARD_COUNT is not set"),
    ("four", "", "SHARD_COUNT must be a whole number from 1 to 65536, got 'four'"),
    ("0", "", "SHARD_COUNT must be a whole number"),
    ("-2", "", "SHARD_COUNT must be a whole number"),
    ("4", "3-1", "SHARD_IDS range '3-1' runs backwards: write 1-3"),
    ("4", "4", "SHARD_IDS lists shard 4, but with SHARD_COUNT=4 the shards are 0 to 3"),
    ("4", "2-5", "lists shard 5, but with SHARD_COUNT=4"),
    ("4", "0;2", "SHARD_IDS must list shard numbers and ranges such as 0-3 or 0,2"),
    ("4", "0,,2", "SHARD_IDS must list shard numbers"),
    ("4", "1-", "SHARD_IDS must list shard numbers"),
    ("4", "-1", "SHARD_IDS must list shard numbers"),
    ("4", "a-b", "SHARD_IDS must list shard numbers"),
    ("4", "0-2,2", "SHARD_IDS lists shard 2 twice"),
])
def test_bad_shard_settings_are_one_clear_line(count: str, ids: str, message: str) -> None:
    with pytest.raises(SettingsError, match=re.escape(message)) as err:
        load_settings({"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": count, "SHARD_IDS": ids})
    assert "\n" not in str(err.value)


def test_a_bad_shard_setting_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "2",
           "SHARD_IDS": "1-0"}
    run = subprocess.run([sys.executable, str(ROOT / "bot.py")], capture_output=True,
                         text=True, cwd=tmp_path, env=env, timeout=60, check=False)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.strip() == "toep: SHARD_IDS range '1-0' runs backwards: write 0-1"
