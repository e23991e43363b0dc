"""How often the login may ask Discord: every `POST /api/token` costs two
requests to Discord (the code exchange and `/users/@me`), so a script posting
made-up codes would make the bot a megaphone. Two bounds, both answered with
429 and a Retry-After: a few logins a minute from one address, and a few
exchanges at a time overall (so a flood from many addresses, or from behind
one proxy, waits its turn without costing Discord more)."""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field

PER_ADDRESS = 10  # logins a minute from one address: a person needs one
WINDOW = 60.0  # seconds
AT_ONCE = 8  # exchanges with Discord in flight, over all addresses
ADDRESSES = 10_000  # addresses remembered at most; the oldest are forgotten first


@dataclass
class Throttle:
    per_address: int = PER_ADDRESS
    window: float = WINDOW
    at_once: int = AT_ONCE
    clock: Callable[[], float] = time.monotonic
    in_flight: int = 0
    _seen: OrderedDict[str, deque[float]] = field(default_factory=OrderedDict)

    def wait_for(self, address: str) -> float | None:
        """Seconds to wait before `address` may log in, or None: it may now
        (and the attempt is counted; call `done` when the exchange ends)."""
        now = self.clock()
        times = self._seen.pop(address, None) or deque()
        while times and now - times[0] >= self.window:
            times.popleft()
        self._seen[address] = times  # most recent last
        while len(self._seen) > ADDRESSES:
            self._seen.popitem(last=False)
        if len(times) >= self.per_address:
            return max(1.0, self.window - (now - times[0]))
        if self.in_flight >= self.at_once:
            return 1.0
        times.append(now)
        self.in_flight += 1
        return None

    def done(self) -> None:
        self.in_flight = max(0, self.in_flight - 1)
