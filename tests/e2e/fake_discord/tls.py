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
    """The server context (certificate), the client context (trusts the CA only), and
    the CA's certificate (PEM), for a client in another process (bench/e2e_load.py)."""

    server: ssl.SSLContext
    client: ssl.SSLContext
    ca_pem: str


def make_tls(hosts: tuple[str, ...] = DISCORD_HOSTS) -> TlsPair:
    ca = trustme.CA()
    cert = ca.issue_cert(*hosts)
    server = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    cert.configure_cert(server)
    ca_pem = ca.cert_pem.bytes().decode("ascii")
    return TlsPair(server=server, client=client_context(ca_pem), ca_pem=ca_pem)


def client_context(ca_pem: str) -> ssl.SSLContext:
    # A fresh client context that trusts only the throwaway CA, so nothing can
    # accidentally be verified against the real internet's roots.
    client = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    client.load_verify_locations(cadata=ca_pem)
    return client
