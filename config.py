"""Settings from the environment (and `.env`), checked, with one clear line
per problem. The token never appears in a repr, a log or an error."""

from __future__ import annotations

import ipaddress
import itertools
import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from data.url import shown_url, url_problem
from tables.shards import UNSHARDED, Shards

log = logging.getLogger(__name__)

DEFAULT_DATABASE = Path("data/toep.sqlite3")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
# A bot token is three dot-separated parts of URL-safe base64.
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class SettingsError(ValueError):
    """A missing or malformed setting; the message is one line for the user."""


@dataclass(frozen=True)
class WebSettings:
    """The web table (web/server/): off unless WEB_PORT is set."""

    port: int
    host: str = "127.0.0.1"
    client_id: int | None = None  # the application's OAuth2 client id
    client_secret: str | None = field(default=None, repr=False)
    dev_login: bool = False  # a plain browser may name any member: never in production
    activity: bool = False  # the table message gets "Open the table" (LAUNCH_ACTIVITY)
    # The reverse proxies whose X-Forwarded-For is believed (web/server/remote.py);
    # none: the direct peer is the client.
    trusted_proxies: tuple[Network, ...] = ()


@dataclass(frozen=True)
class Settings:
    discord_token: str = field(repr=False)
    dev_guild_id: int | None = None
    database_path: Path = DEFAULT_DATABASE
    log_level: str = "INFO"
    # A postgresql:// URL: the bot uses that database instead of the file.
    database_url: str | None = field(default=None, repr=False)
    shards: Shards = UNSHARDED
    web: WebSettings | None = None

    def __repr__(self) -> str:
        url = None if self.database_url is None else shown_url(self.database_url)
        return (f"Settings(discord_token=<hidden>, dev_guild_id={self.dev_guild_id}, "
                f"database_path={str(self.database_path)!r}, log_level={self.log_level!r}, "
                f"database_url={url!r}, shards={self.shards!r}, web={self.web!r})")

    @property
    def database(self) -> str | Path:
        """What the bot opens: the PostgreSQL URL if one is set, else the SQLite file."""
        return self.database_url or self.database_path


def load_settings(env: Mapping[str, str]) -> Settings:
    token = env.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise SettingsError("DISCORD_TOKEN is not set: put your bot's token in .env "
                            "(see .env.example)")
    if not _TOKEN.match(token):
        raise SettingsError("DISCORD_TOKEN does not look like a bot token (three parts "
                            "separated by dots); copy it again from the Developer Portal")
    url = _database_url(env.get("DATABASE_URL", "").strip())
    return Settings(
        discord_token=token,
        dev_guild_id=_guild_id(env.get("DEV_GUILD_ID", "").strip()),
        # With a DATABASE_URL the file is not used: where it would be does not matter.
        database_path=_database_path(env.get("DATABASE_PATH", "").strip(), url is None),
        log_level=_log_level(env.get("LOG_LEVEL", "").strip()),
        database_url=url,
        shards=_shards(env.get("SHARD_COUNT", "").strip(), env.get("SHARD_IDS", "").strip()),
        web=_web(env),
    )


def _guild_id(text: str) -> int | None:
    if not text:
        return None
    if not text.isdigit() or not 15 <= len(text) <= 20:
        raise SettingsError(f"DEV_GUILD_ID must be a server id (15-20 digits), got {text!r}")
    return int(text)


def _database_path(text: str, used: bool) -> Path:
    path = Path(text) if text else DEFAULT_DATABASE
    if path.exists() and path.is_dir():
        raise SettingsError(f"DATABASE_PATH {text!r} is a folder; name a file, "
                            "e.g. data/toep.sqlite3")
    problem = _unwritable(path) if used else None
    if problem is not None:
        raise SettingsError(f"DATABASE_PATH {str(path)!r}: {problem}; choose another path "
                            "or let this user write there")
    return path


def _unwritable(path: Path) -> str | None:
    """Why this process could not keep its database at `path`, if it could not. SQLite
    writes the file and, beside it, its journal (-wal, -shm): the folder must let this
    user create files, and the folders on the way are made if missing."""
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return "this user may not write the file"
    folder = next(p for p in (path.absolute().parent, *path.absolute().parents) if p.exists())
    if not folder.is_dir():
        return f"{folder} is a file, not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"this user may not create files in {folder}"
    return None


def _database_url(text: str) -> str | None:
    if not text:
        return None
    problem = url_problem(text)
    if problem is not None:
        raise SettingsError(f"DATABASE_URL {problem}")
    return text


def _log_level(text: str) -> str:
    if not text:
        return "INFO"
    level = text.upper()
    if level not in LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, got {text!r}")
    return level


MAX_SHARDS = 65536  # far beyond any bot's needs; keeps a typo from listing millions


def _shards(count_text: str, ids_text: str) -> Shards:
    if not count_text:
        if ids_text:
            raise SettingsError(f"SHARD_IDS is {ids_text!r} but SHARD_COUNT is not set: "
                                "set SHARD_COUNT to the total number of shards of the bot")
        return UNSHARDED
    if not count_text.isdigit() or not 1 <= int(count_text) <= MAX_SHARDS:
        raise SettingsError(f"SHARD_COUNT must be a whole number from 1 to {MAX_SHARDS}, "
                            f"got {count_text!r}")
    count = int(count_text)
    return Shards(count, parse_shard_ids(ids_text, count) if ids_text else None)


def parse_shard_ids(text: str, count: int) -> tuple[int, ...]:
    """`0-3`, `0,2`, `4-7,9`: the shards of this process, sorted; SettingsError for
    junk, a range that runs backwards, a shard listed twice or one outside the count."""
    shards: list[int] = []
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        if not low.strip().isdigit() or (dash and not high.strip().isdigit()):
            raise SettingsError(f"SHARD_IDS must list shard numbers and ranges such as "
                                f"0-3 or 0,2, got {text!r}")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise SettingsError(f"SHARD_IDS range {part.strip()!r} runs backwards: "
                                f"write {last}-{first}")
        if last >= count:
            raise SettingsError(f"SHARD_IDS lists shard {last}, but with SHARD_COUNT={count} "
                                f"the shards are 0 to {count - 1}")
        shards += range(first, last + 1)
    shards.sort()
    doubles = [a for a, b in itertools.pairwise(shards) if a == b]
    if doubles:
        raise SettingsError(f"SHARD_IDS lists shard {doubles[0]} twice, in {text!r}")
    return tuple(shards)


WEB_NAMES = ("WEB_HOST", "DISCORD_CLIENT_ID", "DISCORD_CLIENT_SECRET", "WEB_DEV_LOGIN", "ACTIVITY",
             "WEB_TRUSTED_PROXIES")
_YES, _NO = ("1", "true", "yes", "on"), ("", "0", "false", "no", "off")


def _web(env: Mapping[str, str]) -> WebSettings | None:
    """The web table's settings; None (off) without WEB_PORT."""
    port_text = env.get("WEB_PORT", "").strip()
    if not port_text:
        stray = [name for name in WEB_NAMES if env.get(name, "").strip()]
        if stray:
            raise SettingsError(f"{stray[0]} is set but WEB_PORT is not: set WEB_PORT to "
                                "open the web table, or remove it")
        return None
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise SettingsError(f"WEB_PORT must be a port number from 1 to 65535, got {port_text!r}")
    client_id, secret = _client(env)
    dev_login = _switch(env, "WEB_DEV_LOGIN")
    activity = _switch(env, "ACTIVITY")
    if secret is None and not dev_login:
        raise SettingsError("WEB_PORT is set but DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET "
                            "are not: copy them from the Developer Portal's OAuth2 page "
                            "(or set WEB_DEV_LOGIN=true for local play only)")
    if activity and secret is None:
        raise SettingsError("ACTIVITY is on but DISCORD_CLIENT_SECRET is not set: the "
                            "Activity logs players in through OAuth2")
    host = env.get("WEB_HOST", "").strip() or "127.0.0.1"
    if any(c.isspace() or c in "/:" for c in host) and not host.startswith("["):
        raise SettingsError(f"WEB_HOST must be a host name or address, got {host!r}")
    proxies = _trusted_proxies(env.get("WEB_TRUSTED_PROXIES", "").strip())
    return WebSettings(int(port_text), host, client_id, secret, dev_login, activity, proxies)


def _trusted_proxies(text: str) -> tuple[Network, ...]:
    """`127.0.0.1`, `10.0.0.0/8, ::1`: the addresses and networks of the
    operator's reverse proxies, separated by commas or spaces."""
    networks: list[Network] = []
    for item in filter(None, re.split(r"[,\s]+", text)):
        try:
            network = ipaddress.ip_network(item)
        except ValueError as err:
            loose = _loose_network(item)
            hint = (f": write {loose}" if loose is not None and loose.prefixlen else
                    ", such as 127.0.0.1 or 10.0.0.0/8")
            raise SettingsError(f"WEB_TRUSTED_PROXIES must list the addresses or networks of "
                                f"your reverse proxies{hint}, got {item!r}") from err
        if network.prefixlen == 0:
            # Every peer's header believed: anyone who reaches the port picks their address.
            raise SettingsError(f"WEB_TRUSTED_PROXIES {item!r} trusts every address: name "
                                "only your reverse proxies")
        networks.append(network)
    return tuple(networks)


def _loose_network(item: str) -> Network | None:
    """`10.0.0.1/8` as the network it lies in (10.0.0.0/8), if it is one."""
    try:
        return ipaddress.ip_network(item, strict=False)
    except ValueError:
        return None


def _client(env: Mapping[str, str]) -> tuple[int | None, str | None]:
    client_text = env.get("DISCORD_CLIENT_ID", "").strip()
    secret = env.get("DISCORD_CLIENT_SECRET", "").strip() or None
    if client_text and (not client_text.isdigit() or not 15 <= len(client_text) <= 20):
        raise SettingsError(f"DISCORD_CLIENT_ID must be the application's id (15-20 digits), "
                            f"got {client_text!r}")
    if bool(client_text) != (secret is not None):
        missing = "DISCORD_CLIENT_SECRET" if client_text else "DISCORD_CLIENT_ID"
        raise SettingsError(f"{missing} is not set: the web table needs both the client id "
                            "and its secret")
    return (int(client_text) if client_text else None), secret


def _switch(env: Mapping[str, str], name: str) -> bool:
    text = env.get(name, "").strip().lower()
    if text in _YES:
        return True
    if text in _NO:
        return False
    raise SettingsError(f"{name} must be true or false, got {env.get(name, '').strip()!r}")
