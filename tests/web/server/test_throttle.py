"""The login's throttle: a few logins a minute from one address, a few
exchanges with Discord at a time overall, and a bounded memory."""

from __future__ import annotations

import pytest

from web.server import throttle
from web.server.throttle import Throttle


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_an_address_gets_its_logins_then_waits_for_the_oldest_to_age() -> None:
    clock = Clock()
    gate = Throttle(per_address=3, window=60.0, clock=clock)
    for _ in range(3):
        assert gate.wait_for("1.2.3.4") is None
        gate.done()
        clock.now += 10.0
    assert gate.wait_for("1.2.3.4") == 30.0  # the first login ages out at 1060
    assert gate.wait_for("5.6.7.8") is None  # another address is not held up
    gate.done()
    clock.now = 1060.0
    assert gate.wait_for("1.2.3.4") is None  # a refusal is not counted against it


def test_exchanges_in_flight_are_capped_over_all_addresses() -> None:
    gate = Throttle(at_once=2, clock=Clock())
    assert gate.wait_for("a") is None and gate.wait_for("b") is None
    assert gate.wait_for("c") == 1.0
    gate.done()
    assert gate.wait_for("c") is None
    gate.done()
    gate.done()
    gate.done()  # one too many: never below zero
    assert gate.in_flight == 0


def test_only_so_many_addresses_are_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(throttle, "ADDRESSES", 5)
    gate = Throttle(per_address=1, clock=Clock())
    for i in range(20):
        assert gate.wait_for(f"10.0.0.{i}") is None
        gate.done()
    assert len(gate._seen) == 5
    assert gate.wait_for("10.0.0.19") is not None  # the newest are kept
    assert gate.wait_for("10.0.0.0") is None  # the oldest were forgotten
