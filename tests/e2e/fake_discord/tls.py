"""Throwaway TLS material: a trustme CA, a server certificate for Discord's hosts."""

from __future__ import annotations

import ssl
from dataclasses import dataclass

import trustme

# Every host discord.py 2.7.1 contacts: REST (discord.com), the default gateway,
# the resume gateway the fake hands out in READY, and the two CDN hosts (assets).
DISCORD_HOSTS: tuple[str, ...] = (
    "discord.com",
    "gateway.discord.gg",
    "gateway-us-east1-b.discord.gg",
    "cdn.discordapp.com",
    "media.discordapp.net",
)


@dataclass(frozen=True)
class TlsPair:
    """The server context (certificate) and the client context (trusts the CA only)."""

    server: ssl.SSLContext
    client: ssl.SSLContext


def make_tls(hosts: tuple[str, ...] = DISCORD_HOSTS) -> TlsPair:
    ca = trustme.CA()
    cert = ca.issue_cert(*hosts)
    server = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    cert.configure_cert(server)
    # A fresh client context that trusts only the throwaway CA, so nothing can
    # accidentally be verified against the real internet's roots.
    client = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ca.configure_trust(client)
    return TlsPair(server=server, client=client)
