"""A table's timers: the decision clock (R16, R17), the idle end and the
lobby timeout.

Each decision gets one fresh clock, armed once per stamp. An outage stops
them (`pause`); once people can reach the table again, the decision on hand
gets its clock back in full. A decision clock's callback carries the
generation it was armed in, and every stop starts a new one: a callback that
was already on its way when the clock stopped (an outage that began in the
same moment) finds itself stale and does nothing.

A decision clock may also be *held*: armed with its seconds, but not running
until the table message that shows the decision has reached Discord
(`release`), and held again, with the time it has left, while edits to that
message fail (`hold`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from tables.clock import Callback, ClockSource, Timer

Expiry = Callable[[str, int], Awaitable[None]]  # (stamp, generation)


class TableClocks:
    def __init__(self, clock: ClockSource) -> None:
        self.clock = clock
        self._deadline: datetime | None = None  # the running decision clock's
        self.held: float | None = None  # seconds left of a clock that waits to be shown
        self._expire: Expiry | None = None  # a held clock's callback
        self.generation = 0
        self._armed: str | None = None  # the stamp whose clock was armed
        self._decision: Timer | None = None
        self._idle: Timer | None = None
        self._lobby: Timer | None = None
        self._later: Timer | None = None  # a step tried again after a failed save
        self._notice: Timer | None = None  # shows that an outage stopped the clocks

    # --- the decision clock -------------------------------------------------------

    def arm_decision(self, stamp: str, seconds: float | None, expire: Expiry,
                     held: bool = False) -> None:
        """A fresh clock for decision `stamp`, once per stamp (`seconds` None:
        no clock runs for it; `held`: it waits for `release`)."""
        if self._armed == stamp:
            return
        self.stop_decision()
        self._armed = stamp
        if seconds is None:
            return
        if held:
            self.held, self._expire = float(seconds), expire
            return
        self._deadline = self.clock.now() + timedelta(seconds=seconds)
        self._call(self._deadline, stamp, expire)

    @property
    def deadline(self) -> datetime | None:
        """When the decision clock runs out; for a held clock, when it would
        if it started now."""
        if self.held is not None:
            return self.clock.now() + timedelta(seconds=self.held)
        return self._deadline

    def hold(self) -> None:
        """Stop the running decision clock, keeping the time it has left."""
        if self._deadline is None or self._decision is None or self._armed is None:
            return
        expire, left = self._expire, (self._deadline - self.clock.now()).total_seconds()
        self._decision.cancel()
        self._decision, self._deadline = None, None
        self.generation += 1
        self.held = max(0.0, left)
        self._expire = expire

    def release(self, start: datetime) -> datetime | None:
        """Start a held clock as of `start`; its deadline (None: none was held)."""
        if self.held is None or self._expire is None or self._armed is None:
            return None
        self._deadline = start + timedelta(seconds=self.held)
        self.held = None
        self._call(self._deadline, self._armed, self._expire)
        return self._deadline

    def retry_decision(self, delay: float, stamp: str, expire: Expiry) -> None:
        """Run `expire` again in `delay` seconds (its save failed), in the same
        generation; the deadline shown stays the one that ran out."""
        if self._decision is not None:
            self._decision.cancel()
        self._call(self.clock.now() + timedelta(seconds=delay), stamp, expire)

    def current(self, generation: int) -> bool:
        return generation == self.generation

    def stop_decision(self) -> None:
        if self._decision is not None:
            self._decision.cancel()
            self._decision = None
        self._deadline, self.held, self._expire = None, None, None
        self.generation += 1

    def forget_decision(self) -> None:
        """Stop it, so that the next `arm_decision` gives a full clock even
        for the same decision (after an outage, after a restart)."""
        self.stop_decision()
        self._armed = None

    def _call(self, when: datetime, stamp: str, expire: Expiry) -> None:
        self._expire = expire
        generation = self.generation
        self._decision = self.clock.call_at(when, lambda: expire(stamp, generation))

    # --- idle end and lobby timeout -------------------------------------------------

    def touch_idle(self, after: timedelta, callback: Callback) -> None:
        self.stop_idle()
        self._idle = self.clock.call_at(self.clock.now() + after, callback)

    def stop_idle(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None

    def arm_lobby(self, when: datetime, callback: Callback) -> None:
        self.stop_lobby()
        self._lobby = self.clock.call_at(when, callback)

    def stop_lobby(self) -> None:
        if self._lobby is not None:
            self._lobby.cancel()
            self._lobby = None

    def later(self, delay: float, callback: Callback) -> None:
        """Run `callback` in `delay` seconds (a step whose save failed)."""
        if self._later is not None:
            self._later.cancel()
        self._later = self.clock.call_at(self.clock.now() + timedelta(seconds=delay), callback)

    def arm_notice(self, after: timedelta, callback: Callback) -> None:
        if self._notice is not None:
            self._notice.cancel()
        self._notice = self.clock.call_at(self.clock.now() + after, callback)

    def stop_all(self) -> None:
        self.stop_decision()
        self.stop_idle()
        self.stop_lobby()
        for timer in (self._later, self._notice):
            if timer is not None:
                timer.cancel()
        self._later = self._notice = None
