"""The bot's connections to Discord's REST API: one pool for the first answers to
interactions, one for everything else, so an answer never waits behind an edit.

Discord drops a click, a slash command, whose first answer (its callback) does not
arrive within 3 seconds. Past capacity, edits of table messages and hand panels
queue for a connection: in an 800-table burst some 2,000 requests waited for the 64
connections at once, and a click's answer, ready 1.9 s after the click, waited
another 3 s behind them. The first answers have a pool of their own; followups
and edits through an interaction's token are not first answers and use the other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import aiohttp

if TYPE_CHECKING:
    from aiohttp.client_reqrep import ClientRequest
    from aiohttp.connector import Connection
    from aiohttp.tracing import Trace

# Connections at once to one Discord host, in each pool: the gateway's are one per
# shard, to another host. discord.py's own connector has no limit, so in a burst
# of clicks every request in flight opened a TLS connection of its own, with its
# handshake and its buffers, and the pool let them lapse once idle, to open them
# again in the next burst. At 800 tables on one process that was 3,900 handshakes
# in 75 s and a process of 1.5 GB. Past this many, a request waits its turn for a
# connection already open.
CONNECTIONS_PER_HOST = 64
POOL: dict[str, Any] = {"limit": 0, "limit_per_host": CONNECTIONS_PER_HOST}


def is_first_answer(method: str, path: str) -> bool:
    """Whether a request is the first answer to an interaction: Discord's
    `POST /interactions/{id}/{token}/callback`."""
    return method == "POST" and path.endswith("/callback") and "/interactions/" in path


class AnswersFirst(aiohttp.TCPConnector):
    """A connector with a second pool, with the same settings, for first answers."""

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self.answers = aiohttp.TCPConnector(**settings)

    async def connect(self, req: ClientRequest, traces: list[Trace],
                      timeout: aiohttp.ClientTimeout) -> Connection:
        if is_first_answer(req.method, req.url.path):
            # The connection goes back to the pool that gave it.
            return await self.answers.connect(req, traces, timeout)
        return await super().connect(req, traces, timeout)

    async def close(self, *, abort_ssl: bool = False) -> None:
        await self.answers.close(abort_ssl=abort_ssl)
        await super().close(abort_ssl=abort_ssl)


def discord_connector(**settings: Any) -> aiohttp.TCPConnector:
    """The bot's connector: `settings` are aiohttp.TCPConnector's (tests give their
    resolver and TLS); the limits are always POOL's. Call it in the running loop."""
    return AnswersFirst(**{**settings, **POOL})
