"""An aiohttp resolver that sends Discord's host names to the fake, and nothing anywhere else."""

from __future__ import annotations

import socket
import ssl
from collections.abc import Callable
from typing import Any

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult

from .tls import DISCORD_HOSTS, client_context


class FakeDiscordResolver(AbstractResolver):
    """Maps every known Discord host to 127.0.0.1:port; any other host fails loudly."""

    def __init__(
        self, hosts: tuple[str, ...], port: int, on_unknown: Callable[[str], None]
    ) -> None:
        self._hosts = frozenset(hosts)
        self._port = port
        self._on_unknown = on_unknown

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        if host not in self._hosts:
            self._on_unknown(host)
            raise OSError(f"fake Discord resolver: unknown host {host!r}")
        # aiohttp connects to the port in the result, not the one in the URL.
        return [
            ResolveResult(
                hostname=host,
                host="127.0.0.1",
                port=self._port,
                family=socket.AF_INET,
                proto=0,
                flags=socket.AI_NUMERICHOST,
            )
        ]

    async def close(self) -> None:
        return None


Build = Callable[..., aiohttp.TCPConnector]


def make_connector(
    hosts: tuple[str, ...], port: int, client_ssl: ssl.SSLContext,
    on_unknown: Callable[[str], None], build: Build = aiohttp.TCPConnector, **pool: Any,
) -> aiohttp.TCPConnector:
    """`build`: the client under test's own connector (a TCPConnector's arguments
    in), given the fake's resolver and TLS; `pool`: connection limits, by default
    none, like discord.py's own connector. The session owns and closes it."""
    return build(
        **{"limit": 0, **pool},
        ssl=client_ssl,
        resolver=FakeDiscordResolver(hosts, port, on_unknown),
        use_dns_cache=False,
    )


def remote_connector(
    port: int, ca_pem: str, on_unknown: Callable[[str], None],
    build: Build = aiohttp.TCPConnector, **pool: Any,
) -> aiohttp.TCPConnector:
    """`FakeDiscord.connector()` for a bot in another process: the fake's port and CA
    (`fake.port`, `fake.ca_pem`) cross the process boundary, the rules stay the same."""
    return make_connector(DISCORD_HOSTS, port, client_context(ca_pem), on_unknown, build,
                          **pool)
