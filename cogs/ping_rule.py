"""When a person on turn is pinged: the rule, as a pure function.

A ping is a push notification and an unread mention; it is worth it only
when the person does not know their turn has come. So, by their choice
(data/ping_settings.py):

- "always": at once, when the turn starts.
- "when idle" (the default): only if, a few seconds into the turn
  (`idle_after`), they have neither acted nor looked (opened or clicked their
  hand panel) since it started, and no live panel of theirs shows the
  decision already. Someone playing along with the panel open hears nothing.
- "never": no turn pings.

Whatever the choice, a person whose clock is about to run out
(`last_call_before`) and who has not been told so this turn gets one last
call: running out forfeits the game (R16), and three forfeits at public
tables bring a ban (R19), so a ping is the smaller nuisance. Windows
(silence is an answer) never ping; a turn without a clock (R18) has no last
call. Past capacity only last calls are posted.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import Enum

from data.ping_settings import PingChoice

log = logging.getLogger(__name__)

IDLE_AFTER = 5.0  # seconds into a turn before "when idle" pings
# Seconds before the clock runs out that the last call comes: time enough to
# pick up a phone, open the panel and click (12 s into a public table's 20).
LAST_CALL = 8.0
IDLE_SHARE = 0.3  # on a short clock the idle ping comes after at most this share of it,
LAST_SHARE = 0.4  # and the last call at most this share before its end


class Reason(Enum):
    TURN = "turn"  # "always": the turn started
    IDLE = "idle"  # nothing done or looked at a few seconds in
    LAST_CALL = "last_call"  # the clock is about to run out


@dataclass(frozen=True)
class Watch:
    """What is known of one person on turn at one moment."""

    choice: PingChoice
    waited: float  # seconds since their turn started
    length: float | None  # the turn's clock in seconds; None: no clock runs
    left: float | None  # seconds until it runs out; None: no clock runs (or it waits)
    looked: bool  # they opened or clicked their hand panel since the turn started
    panel_shows: bool  # a live hand panel of theirs shows this decision
    pinged: bool  # pinged for this turn already
    last_called: bool  # given the last call this turn already
    busy: bool = False  # past capacity: only last calls


def idle_after(length: float | None) -> float:
    """Seconds into a turn before "when idle" pings: sooner on a short clock."""
    return IDLE_AFTER if length is None else min(IDLE_AFTER, length * IDLE_SHARE)


def last_call_before(length: float) -> float:
    """Seconds before the clock runs out that the last call comes."""
    return min(LAST_CALL, length * LAST_SHARE)


def ping_due(w: Watch) -> Reason | None:
    """Whether to ping this person now, and why."""
    if (w.left is not None and w.length is not None and not w.last_called
            and w.left <= last_call_before(w.length)):
        return Reason.LAST_CALL
    if w.pinged or w.busy:
        return None
    if w.choice is PingChoice.ALWAYS:
        return Reason.TURN
    if w.choice is PingChoice.IDLE and w.waited >= idle_after(w.length) and not (
            w.looked or w.panel_shows):
        return Reason.IDLE
    return None


def next_look(w: Watch) -> float | None:
    """Seconds from now when `ping_due` may say yes without anything else
    changing (the idle moment, the last call); None: not by time alone."""
    times = []
    if not w.pinged and not w.busy and w.choice is PingChoice.IDLE and not w.looked:
        times.append(idle_after(w.length) - w.waited)
    if w.left is not None and w.length is not None and not w.last_called:
        times.append(w.left - last_call_before(w.length))
    future = [s for s in times if s > 0]  # a moment passed was judged already
    return min(future) if future else None
