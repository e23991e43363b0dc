"""The client's address behind a reverse proxy: X-Forwarded-For is believed
only from a trusted proxy, read from the right, trusted hops skipped."""

from __future__ import annotations

import ipaddress

import pytest

from config import Network
from web.server.remote import client_address

PROXIES: tuple[Network, ...] = (ipaddress.ip_network("127.0.0.1"),
                                ipaddress.ip_network("10.0.0.0/8"),
                                ipaddress.ip_network("fd00::/8"))


def test_without_trusted_proxies_the_peer_is_the_client_whatever_it_says() -> None:
    assert client_address("127.0.0.1", ["203.0.113.9"], ()) == "127.0.0.1"


def test_a_forged_header_from_a_peer_that_is_no_proxy_is_ignored() -> None:
    assert client_address("198.51.100.7", ["203.0.113.9"], PROXIES) == "198.51.100.7"
    assert client_address("198.51.100.7", ["10.0.0.1, 127.0.0.1"], PROXIES) == "198.51.100.7"


def test_through_a_proxy_the_client_is_the_last_hop_it_appended() -> None:
    assert client_address("127.0.0.1", ["203.0.113.9"], PROXIES) == "203.0.113.9"
    # What the client wrote itself stands left of what the proxy appended.
    assert client_address("127.0.0.1", ["1.1.1.1, 203.0.113.9"], PROXIES) == "203.0.113.9"


def test_trusted_hops_are_skipped_from_the_right() -> None:
    # client -> proxy 10.1.2.3 -> proxy 127.0.0.1 -> the bot
    assert client_address("127.0.0.1", ["6.6.6.6, 203.0.113.9, 10.1.2.3"],
                          PROXIES) == "203.0.113.9"
    # Headers given twice count as one list, in the order received.
    assert client_address("127.0.0.1", ["6.6.6.6, 203.0.113.9", "10.1.2.3"],
                          PROXIES) == "203.0.113.9"


def test_only_proxies_all_the_way_is_the_leftmost_of_them() -> None:
    assert client_address("127.0.0.1", ["10.9.9.9, 10.1.2.3"], PROXIES) == "10.9.9.9"
    assert client_address("127.0.0.1", [], PROXIES) == "127.0.0.1"


@pytest.mark.parametrize("junk", ["unknown", "", "not an address", "999.1.1.1"])
def test_a_hop_that_is_no_address_stops_at_the_last_proxy_believed(junk: str) -> None:
    # The client cannot pick its own budget by writing junk the proxy passes on.
    assert client_address("127.0.0.1", [f"{junk}, 10.1.2.3"], PROXIES) == "10.1.2.3"
    assert client_address("127.0.0.1", [junk], PROXIES) == "127.0.0.1"


@pytest.mark.parametrize(("hop", "client"), [
    ("203.0.113.9:51234", "203.0.113.9"),
    ("[2001:db8::5]:443", "2001:db8::5"),
    ("[2001:db8::5]", "2001:db8::5"),
    ("2001:db8::5", "2001:db8::5"),
    ("::ffff:203.0.113.9", "203.0.113.9"),
])
def test_addresses_as_proxies_write_them(hop: str, client: str) -> None:
    assert client_address("127.0.0.1", [hop], PROXIES) == client


def test_a_dual_stack_peer_and_an_ipv6_proxy() -> None:
    assert client_address("::ffff:127.0.0.1", ["203.0.113.9"], PROXIES) == "203.0.113.9"
    assert client_address("fd12::1", ["2001:db8::5"], PROXIES) == "2001:db8::5"
    assert client_address("", ["203.0.113.9"], PROXIES) == ""  # no peer address (a socket file)
    assert client_address(None, ["203.0.113.9"], PROXIES) == ""
