"""What keeps the bot from running, in one line for whoever runs it, with what to do.

`bot.run` prints `toep: ` and the line of `explain` on stderr and exits with
status 1, instead of a traceback: a refused token, a Discord it cannot reach
(DNS, a proxy, a refused or timed-out connection, a certificate), a gateway close
that no reconnect mends (privileged intents, too few shards), a database it
cannot use or may not (another process holds it).
"""

from __future__ import annotations

import errno
import os
import socket
import ssl

import aiohttp
import discord

from data.errors import DataError

# The gateway's close codes that stop the bot, as the operator can mend them.
GATEWAY_ADVICE = {
    4004: "Discord refused the token: check DISCORD_TOKEN in .env (copy it again "
          "from the Developer Portal, your application's Bot page)",
    4010: "Discord refused the shard: check SHARD_COUNT and SHARD_IDS",
    4011: "this many servers need more shards: set SHARD_COUNT (the README's "
          "'Running at scale' says how) and start again",
    4012: "the API version is not supported: update discord.py (requirements.txt)",
    4013: "the intents asked for are not valid: update Toep",
}
# Discord's names for the privileged intents, as the Developer Portal shows them.
PRIVILEGED = {"members": "Server Members Intent", "presences": "Presence Intent",
              "message_content": "Message Content Intent"}
WHERE = "the Developer Portal (your application, Bot, Privileged Gateway Intents)"
# What a start-up failure may be: anything else is a bug, and keeps its traceback.
FAILURES: tuple[type[BaseException], ...] = (
    discord.LoginFailure, discord.PrivilegedIntentsRequired, discord.ConnectionClosed,
    discord.DiscordServerError, aiohttp.ClientError, DataError)


def explain(err: BaseException, intents: discord.Intents) -> str:
    """The one line for a failure of FAILURES (`intents`: what the bot asked for)."""
    if isinstance(err, discord.LoginFailure):
        return "Discord refused the token: check DISCORD_TOKEN in .env"
    if isinstance(err, discord.PrivilegedIntentsRequired):
        return privileged_intents(err.shard_id, intents)
    if isinstance(err, discord.ConnectionClosed):
        return gateway_refusal(err)
    if isinstance(err, discord.DiscordServerError):
        return (f"Discord answered {err.status} to the login: its side is in trouble; "
                "start again in a few minutes")
    if isinstance(err, aiohttp.ClientError):
        return unreachable(err)
    return f"the database cannot be used: {err}"


def gateway_refusal(err: discord.ConnectionClosed) -> str:
    """What a close code that ends the bot means to whoever runs it."""
    advice = GATEWAY_ADVICE.get(err.code, err.reason or "see Discord's gateway close codes")
    shard = _of_shard(err.shard_id)
    return f"Discord closed the gateway connection{shard} (code {err.code}): {advice}"


def privileged_intents(shard_id: int | None, intents: discord.Intents) -> str:
    """Close code 4014: which privileged intent the bot asked for and where to turn it
    on; or, since Toep asks for none, that the refusal is not the bot's settings'."""
    closed = f"Discord closed the gateway connection{_of_shard(shard_id)} (code 4014)"
    asked = [label for name, label in PRIVILEGED.items() if getattr(intents, name)]
    if asked:
        return (f"{closed}: the bot asks for the privileged {' and '.join(asked)}, which its "
                f"application may not use: turn {'it' if len(asked) == 1 else 'them'} on in "
                f"{WHERE}")
    return (f"{closed} for disallowed intents, but Toep asks for no privileged intent "
            "(only Guilds): nothing needs turning on; check that DISCORD_TOKEN is this "
            "bot's token")


def unreachable(err: aiohttp.ClientError) -> str:
    """Discord could not be reached at all (the login is the first request)."""
    if isinstance(err, aiohttp.ClientProxyConnectionError):
        return (f"Discord cannot be reached: the proxy at {err.host}:{err.port} refused the "
                f"connection ({_reason(err)}): check that the proxy runs and its address")
    if isinstance(err, aiohttp.ClientHttpProxyError):
        return (f"Discord cannot be reached: the proxy answered {err.status} {err.message}: "
                "check the proxy's address and credentials")
    if isinstance(err, aiohttp.ClientConnectorDNSError):
        return (f"Discord cannot be reached: the name {err.host} does not resolve (DNS: "
                f"{_reason(err)}): check this machine's network and DNS settings")
    if isinstance(err, aiohttp.ClientConnectorCertificateError | aiohttp.ClientSSLError):
        return (f"Discord cannot be reached: the TLS connection to {err.host} failed "
                f"({_reason(err)}): check the machine's clock and CA certificates, and any "
                "proxy or firewall that inspects TLS")
    if isinstance(err, aiohttp.ClientConnectorError):
        return (f"Discord cannot be reached: connecting to {err.host}:{err.port} failed "
                f"({_reason(err)}): check this machine's network, firewall or proxy")
    if isinstance(err, aiohttp.ServerTimeoutError):
        return ("Discord cannot be reached: no answer in time: check this machine's network, "
                "firewall or proxy")
    return (f"Discord cannot be reached ({type(err).__name__}: {err}): check this machine's "
            "network, firewall or proxy")


def _reason(err: aiohttp.ClientConnectorError) -> str:
    """The system's words for why: "Connection refused", "Name or service not known"."""
    cause = err.os_error
    if isinstance(cause, ssl.SSLError):
        return cause.reason or str(cause)
    code = cause.errno
    if isinstance(cause, socket.gaierror) or code is None or code not in errno.errorcode:
        return cause.strerror or str(cause)
    return os.strerror(code)


def _of_shard(shard_id: int | None) -> str:
    return "" if shard_id is None else f" of shard {shard_id}"
