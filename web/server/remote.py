"""Who is at the other end of a request, behind the operator's reverse proxy.

The web table listens on 127.0.0.1 behind an HTTPS proxy, so the peer of
every request is the proxy, and the login's throttle (web/server/throttle.py)
would give all members one budget. The proxy names the client in
X-Forwarded-For, appending the address it saw to what the request already
carried. Only that last part is the proxy's word; anything left of it came
from the client, who may write what it likes. So the header is believed
only when the peer is one of WEB_TRUSTED_PROXIES, and read from the right:
trusted hops are skipped, and the first address that is not a trusted
proxy is the client. A peer that is no trusted proxy is the client itself,
whatever its header says.

(aiohttp-remotes' XForwardedStrict was weighed: it wants exactly one list of
proxies per hop and answers 400 to a request from any other peer, where the
web table must serve a direct peer as itself; and it would also take the
scheme and host from the headers, which nothing here needs.)
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

from aiohttp import hdrs, web
from aiohttp.typedefs import Handler, Middleware

from config import Network

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def client_address(peer: str | None, forwarded_for: Sequence[str],
                   trusted: Sequence[Network]) -> str:
    """The client's address: `peer` unless it is a trusted proxy, else the
    rightmost hop of the X-Forwarded-For headers (`forwarded_for`, in the
    order received) that is not one. A hop that is no address ends the walk
    at the last proxy believed: nothing left of it can be."""
    nearest = _address(peer or "")
    if nearest is None or not _trusted(nearest, trusted):
        return peer or ""
    hops = [hop for header in forwarded_for for hop in header.split(",")]
    for hop in reversed(hops):
        address = _address(hop)
        if address is None:
            break
        nearest = address
        if not _trusted(address, trusted):
            break
    return str(nearest)


def middleware(trusted: Sequence[Network]) -> Middleware:
    """Every request's `remote` made the client's address, so whatever counts
    by address (the login's throttle) counts clients, not the proxy."""

    @web.middleware
    async def real_remote(request: web.Request, handler: Handler) -> web.StreamResponse:
        remote = client_address(request.remote,
                                request.headers.getall(hdrs.X_FORWARDED_FOR, []), trusted)
        if remote != request.remote:
            request = request.clone(remote=remote)
        return await handler(request)

    return real_remote


def _trusted(address: Address, trusted: Sequence[Network]) -> bool:
    return any(address in network for network in trusted)


def _address(text: str) -> Address | None:
    """An address as proxies write it: bare, `[v6]`, or with a port
    (`1.2.3.4:5678`, `[v6]:5678`); an IPv4 address mapped into IPv6 (a
    dual-stack socket's peer) as IPv4. None for anything else ("unknown")."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:  # IPv4 with a port; IPv6 has two colons at least
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address
