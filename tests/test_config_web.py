"""The web table's settings (issue 30): off without WEB_PORT, one clear line
per problem, the client secret never shown."""

from __future__ import annotations

import ipaddress
import subprocess
import sys
from pathlib import Path

import pytest

from config import SettingsError, WebSettings, load_settings

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz012345"
ROOT = Path(__file__).resolve().parent.parent
CLIENT = {"DISCORD_CLIENT_ID": "123456789012345678", "DISCORD_CLIENT_SECRET": "s3cr3t-value"}


def _load(**env: str) -> WebSettings | None:
    return load_settings({"DISCORD_TOKEN": TOKEN, **env}).web


def test_off_unless_a_port_is_set() -> None:
    assert _load() is None


def test_a_full_set_and_the_secret_never_shows() -> None:
    web = _load(WEB_PORT="8080", WEB_HOST="0.0.0.0", ACTIVITY="true", **CLIENT)
    assert web == WebSettings(8080, "0.0.0.0", 123456789012345678, "s3cr3t-value",
                              dev_login=False, activity=True)
    settings = load_settings({"DISCORD_TOKEN": TOKEN, "WEB_PORT": "8080", **CLIENT})
    assert "s3cr3t" not in repr(settings) and "s3cr3t" not in repr(settings.web)


def test_a_development_login_needs_no_client() -> None:
    web = _load(WEB_PORT="8080", WEB_DEV_LOGIN="yes")
    assert web is not None and web.dev_login and web.client_secret is None


@pytest.mark.parametrize(("env", "message"), [
    ({"WEB_PORT": "http"}, "WEB_PORT must be a port number from 1 to 65535, got 'http'"),
    ({"WEB_PORT": "70000"}, "WEB_PORT must be a port number from 1 to 65535, got '70000'"),
    ({"ACTIVITY": "true"}, "ACTIVITY is set but WEB_PORT is not"),
    ({"DISCORD_CLIENT_ID": "123456789012345678"}, "DISCORD_CLIENT_ID is set but WEB_PORT"),
    ({"WEB_PORT": "8080"}, "WEB_PORT is set but DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET "
                           "are not"),
    ({"WEB_PORT": "8080", "DISCORD_CLIENT_ID": "123456789012345678"},
     "DISCORD_CLIENT_SECRET is not set"),
    ({"WEB_PORT": "8080", "DISCORD_CLIENT_ID": "12", "DISCORD_CLIENT_SECRET": "x"},
     "DISCORD_CLIENT_ID must be the application's id (15-20 digits), got '12'"),
    ({"WEB_PORT": "8080", "WEB_DEV_LOGIN": "maybe"},
     "WEB_DEV_LOGIN must be true or false, got 'maybe'"),
    ({"WEB_PORT": "8080", "WEB_DEV_LOGIN": "true", "ACTIVITY": "true"},
     "ACTIVITY is on but DISCORD_CLIENT_SECRET is not set"),
    ({"WEB_PORT": "8080", "WEB_HOST": "http://x", **CLIENT},
     "WEB_HOST must be a host name or address, got 'http://x'"),
    ({"WEB_TRUSTED_PROXIES": "127.0.0.1"}, "WEB_TRUSTED_PROXIES is set but WEB_PORT is not"),
    ({"WEB_PORT": "8080", "WEB_TRUSTED_PROXIES": "127.0.0.1, proxy.local", **CLIENT},
     "WEB_TRUSTED_PROXIES must list the addresses or networks of your reverse proxies, "
     "such as 127.0.0.1 or 10.0.0.0/8, got 'proxy.local'"),
    ({"WEB_PORT": "8080", "WEB_TRUSTED_PROXIES": "10.0.0.1/8", **CLIENT},
     "WEB_TRUSTED_PROXIES must list the addresses or networks of your reverse proxies: "
     "write 10.0.0.0/8, got '10.0.0.1/8'"),
    ({"WEB_PORT": "8080", "WEB_TRUSTED_PROXIES": "10.0.0.0/33", **CLIENT},
     "got '10.0.0.0/33'"),
    ({"WEB_PORT": "8080", "WEB_TRUSTED_PROXIES": "0.0.0.0/0", **CLIENT},
     "WEB_TRUSTED_PROXIES '0.0.0.0/0' trusts every address: name only your reverse proxies"),
    ({"WEB_PORT": "8080", "WEB_TRUSTED_PROXIES": "::/0", **CLIENT}, "trusts every address"),
    ({"WEB_PORT": "8080", "WEB_TRUSTED_PROXIES": "1.2.3.4/0", **CLIENT},
     "such as 127.0.0.1 or 10.0.0.0/8, got '1.2.3.4/0'"),
])
def test_one_clear_line_per_problem(env: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError) as err:
        _load(**env)
    assert message in str(err.value) and "\n" not in str(err.value)
    assert "s3cr3t" not in str(err.value)


def test_trusted_proxies_are_addresses_and_networks() -> None:
    web = _load(WEB_PORT="8080", **CLIENT)
    assert web is not None and web.trusted_proxies == ()  # none: the peer is the client
    web = _load(WEB_PORT="8080", WEB_TRUSTED_PROXIES=" 127.0.0.1, ::1 10.0.0.0/8,", **CLIENT)
    assert web is not None and web.trusted_proxies == (
        ipaddress.ip_network("127.0.0.1/32"), ipaddress.ip_network("::1/128"),
        ipaddress.ip_network("10.0.0.0/8"))


def test_a_malformed_trusted_proxy_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": TOKEN, "WEB_PORT": "8080", **CLIENT,
           "WEB_TRUSTED_PROXIES": "nginx"}
    run = subprocess.run([sys.executable, str(ROOT / "bot.py")], capture_output=True,
                         text=True, cwd=tmp_path, env=env, timeout=60, check=False)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.strip() == (
        "toep: WEB_TRUSTED_PROXIES must list the addresses or networks of your reverse "
        "proxies, such as 127.0.0.1 or 10.0.0.0/8, got 'nginx'")
