"""How busy this process is, and what it leaves out when it is past its capacity.

The gauge is the event loop's lag: a task sleeps a short while and notes how
late it woke. Late wake-ups mean callbacks queue up, and so does every click
waiting to be acknowledged (Discord allows 3 seconds). Lag is cheap to
measure, needs no knowledge of what runs, and rises with any kind of work.

The smoothed lag sets a level; each level sheds one more kind of optional work
(`shedding`), in this order: longer gaps between table-message edits, hand
panels nobody needs right now (and "My hand" answered before its panel is
drawn), turn pings, slate pictures. Game moves, clocks
and saves are never shed, and when the lag falls everything returns. From the
first level on, the work after a click's acknowledgement and every edit take
turns in fewer and fewer slots (tables/slots.py): the acknowledgements of new
clicks no longer queue behind them. And each new decision's clock runs a few
seconds longer: its question reaches the players that much later.

For the operator: a line at INFO at most once a REPORT_EVERY while the lag is
above the first threshold, a WARNING (as rarely) while the process stays past
its capacity (add a cluster), and a line when it is back. No table or card in
any of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum

from tables.slots import Slots

log = logging.getLogger(__name__)

SAMPLE_EVERY = 0.25  # seconds between two looks at the loop
SMOOTHING = 0.3  # weight of a new sample in the smoothed lag (about a second to follow)
RECOVERY = 0.6  # a level is left once the lag is below this share of its threshold
REPORT_EVERY = 60.0  # seconds between two log lines of one kind
SUSTAINED = 10.0  # seconds past capacity before it is worth a warning
EDIT_INTERVAL = 1.0  # seconds between two edits of one table message, at normal load


class Level(IntEnum):
    """How far past comfortable the process is; each level sheds one more thing."""

    NORMAL = 0
    BUSY = 1  # table messages edited less often
    STRAINED = 2  # and hand panels of people not on turn wait; "My hand" panels follow
    OVERLOADED = 3  # and no turn pings
    SATURATED = 4  # and no slate pictures


# Smoothed lag (seconds) from which each level above NORMAL begins.
THRESHOLDS = {Level.BUSY: 0.05, Level.STRAINED: 0.1, Level.OVERLOADED: 0.2,
              Level.SATURATED: 0.4}
PAST_CAPACITY = Level.OVERLOADED  # sustained this long: the operator is warned
# Moves and edits running at once, by level: few enough that the loop's queue
# stays short, enough that the database's group commit still gathers a batch.
# Fewer than the bot's connections to Discord (bot.py, 64): edits never take
# them all, and the answer to a click does not wait for one to come free.
AT_ONCE: dict[Level, int | None] = {Level.NORMAL: None, Level.BUSY: 48, Level.STRAINED: 32,
                                    Level.OVERLOADED: 16, Level.SATURATED: 8}
# Seconds more on each new decision's clock, by level: about how late its question
# shows there (the loop's lag, a panel's wait for a slot, the table message's gap).
CLOCK_GRACE = {Level.NORMAL: 0.0, Level.BUSY: 1.0, Level.STRAINED: 3.0, Level.OVERLOADED: 5.0,
               Level.SATURATED: 8.0}


@dataclass(frozen=True)
class Shedding:
    """What optional work is done at a load level."""

    edit_interval: float  # seconds between two edits of one table message
    idle_panels: bool  # refresh hand panels whose person has nothing to do now
    pings: bool  # post a turn ping
    pictures: bool  # render slate pictures
    at_once: int | None  # moves and edits running at once (None: no limit)
    # Seconds a new decision's clock gets on top of the rules' (R16, R17): past
    # capacity its question reaches the players late, and that time is not theirs.
    clock_grace: float = 0.0
    # The hand panel is the answer to "My hand". Otherwise (past capacity) the
    # answer is a quick "thinking" one and the panel follows as its edit, in
    # turn: drawing and sending a panel within the answer's 3 seconds was most
    # of what a burst of "My hand" clicks (every table starting at once) cost.
    hand_in_answer: bool = True


def shedding(level: Level) -> Shedding:
    """The optional work done at `level`: a pure function, the order fixed."""
    intervals = {Level.NORMAL: EDIT_INTERVAL, Level.BUSY: 2.0, Level.STRAINED: 3.0,
                 Level.OVERLOADED: 4.0, Level.SATURATED: 5.0}
    return Shedding(edit_interval=intervals[level], idle_panels=level < Level.STRAINED,
                    pings=level < Level.OVERLOADED, pictures=level < Level.SATURATED,
                    at_once=AT_ONCE[level], clock_grace=CLOCK_GRACE[level],
                    hand_in_answer=level < Level.STRAINED)


def level_for(lag: float, current: Level = Level.NORMAL) -> Level:
    """The level for a smoothed `lag`, coming from `current`: up as soon as a
    threshold is passed, down only well below it (no flapping at the edge)."""
    level = Level.NORMAL
    for candidate, threshold in THRESHOLDS.items():
        if lag >= threshold:
            level = candidate
    while level < current and lag >= THRESHOLDS[current] * RECOVERY:
        level = Level(level + 1)
    return level


class LoadGauge:
    """The event loop's lag, smoothed, and the level of load it means.

    `record` takes one sample (the task of `start` feeds it; tests feed it by
    hand with a clock of their own); `force` pins a level (tests, an operator)."""

    def __init__(self, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._monotonic = monotonic
        self.lag = 0.0  # smoothed, seconds
        self._level = Level.NORMAL
        self.forced: Level | None = None
        self.on_level: Callable[[Level], None] | None = None  # told when the level changes
        self.samples = 0
        self.last = 0.0  # the latest single sample
        self.peak = 0.0  # the largest single sample since the last INFO line
        self.worst = 0.0  # the largest single sample since start
        self._past_since: float | None = None  # when the level reached PAST_CAPACITY
        self._warned = False  # a warning was logged in this stretch past capacity
        self._last_info = self._last_warning = float("-inf")
        self._task: asyncio.Task[None] | None = None
        # The work after an acknowledgement and every edit hold one (tables/slots.py).
        self.slots = Slots(lambda: self.shedding.at_once)

    @property
    def level(self) -> Level:
        return self.forced if self.forced is not None else self._level

    @property
    def shedding(self) -> Shedding:
        return shedding(self.level)

    def force(self, level: Level | None) -> None:
        """Pin the level (None: measured again)."""
        before = self.level
        self.forced = level
        self._changed(before)

    def _changed(self, before: Level) -> None:
        if self.level is before:
            return
        self.slots.reconsider()  # a lower level lets more in at once
        if self.on_level is not None:
            self.on_level(self.level)

    def record(self, lag: float) -> None:
        """One sample: the loop woke `lag` seconds late."""
        lag = max(0.0, lag)
        self.samples += 1
        self.peak, self.worst = max(self.peak, lag), max(self.worst, lag)
        self.last = lag
        self.lag += SMOOTHING * (lag - self.lag)
        before = self.level
        self._level = level_for(self.lag, self._level)
        self._report(self._monotonic())
        self._changed(before)

    def _report(self, now: float) -> None:
        if self._level >= PAST_CAPACITY:
            if self._past_since is None:
                self._past_since = now
            if now - self._past_since >= SUSTAINED and now - self._last_warning >= REPORT_EVERY:
                self._last_warning = self._last_info = now
                self._warned = True
                log.warning("past capacity: the event loop has lagged %.0f ms for %.0f s; "
                            "optional work is shed (%s). Add a cluster.", self.lag * 1000,
                            now - self._past_since, _described(self._level))
            return
        self._past_since = None
        if self._warned and self._level is Level.NORMAL:
            self._warned = False
            log.info("back within capacity: event-loop lag %.0f ms", self.lag * 1000)
        if self._level > Level.NORMAL and now - self._last_info >= REPORT_EVERY:
            self._last_info = now
            log.info("busy: event-loop lag %.0f ms (peak %.0f ms); %s", self.lag * 1000,
                     self.peak * 1000, _described(self._level))
            self.peak = 0.0

    def start(self, interval: float = SAMPLE_EVERY) -> None:
        """Measure on the running loop until `stop`."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._measure(interval))

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _measure(self, interval: float) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(interval)
            self.record(loop.time() - before - interval)


def _described(level: Level) -> str:
    """What is shed at `level`, for the log."""
    shed = shedding(level)
    parts = [f"table messages every {shed.edit_interval:.0f} s"]
    if not shed.idle_panels:
        parts.append("idle hand panels wait")
    if not shed.pings:
        parts.append("no turn pings")
    if not shed.pictures:
        parts.append("no slate pictures")
    if shed.at_once is not None:
        parts.append(f"{shed.at_once} moves and edits at once")
    if shed.clock_grace:
        parts.append(f"clocks {shed.clock_grace:.0f} s longer")
    return ", ".join(parts)
