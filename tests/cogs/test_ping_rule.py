"""The turn ping rule (issue 26): pings people want."""

from __future__ import annotations

import dataclasses

from hypothesis import given
from hypothesis import strategies as st

from cogs.ping_rule import (
    IDLE_AFTER,
    LAST_CALL,
    Reason,
    Watch,
    idle_after,
    last_call_before,
    next_look,
    ping_due,
)
from data.ping_settings import PingChoice

FRESH = Watch(choice=PingChoice.IDLE, waited=0.0, length=20.0, left=20.0, looked=False,
              panel_shows=False, pinged=False, last_called=False)


def at(waited: float, **changes: object) -> Watch:
    w = dataclasses.replace(FRESH, **changes)  # type: ignore[arg-type]
    left = None if w.length is None else w.length - waited
    return dataclasses.replace(w, waited=waited, left=left)


def test_when_idle_waits_a_few_seconds_then_pings_who_did_nothing() -> None:
    assert ping_due(at(0)) is None
    assert ping_due(at(IDLE_AFTER - 0.1)) is None
    assert ping_due(at(IDLE_AFTER)) is Reason.IDLE


def test_when_idle_never_pings_who_looked_or_whose_panel_shows_the_decision() -> None:
    assert ping_due(at(IDLE_AFTER + 1, looked=True)) is None
    assert ping_due(at(IDLE_AFTER + 1, panel_shows=True)) is None


def test_always_pings_at_once_and_once() -> None:
    assert ping_due(at(0, choice=PingChoice.ALWAYS)) is Reason.TURN
    assert ping_due(at(0, choice=PingChoice.ALWAYS, panel_shows=True)) is Reason.TURN
    assert ping_due(at(3, choice=PingChoice.ALWAYS, pinged=True)) is None


def test_never_is_silent_until_the_last_call() -> None:
    for waited in (0, IDLE_AFTER, 10):
        assert ping_due(at(waited, choice=PingChoice.NEVER)) is None
    assert ping_due(at(20 - LAST_CALL, choice=PingChoice.NEVER)) is Reason.LAST_CALL


def test_the_last_call_comes_once_whatever_the_choice_the_panel_or_an_earlier_ping() -> None:
    for choice in PingChoice:
        late = at(20 - LAST_CALL, choice=choice, panel_shows=True, looked=True, pinged=True)
        assert ping_due(late) is Reason.LAST_CALL
        assert ping_due(dataclasses.replace(late, last_called=True)) is None


def test_no_clock_no_last_call() -> None:
    assert ping_due(at(600, length=None, choice=PingChoice.NEVER)) is None
    assert ping_due(at(600, length=None)) is Reason.IDLE  # R18: the game waits for them
    assert next_look(at(IDLE_AFTER + 1, length=None, pinged=True)) is None


def test_past_capacity_only_last_calls() -> None:
    assert ping_due(at(0, choice=PingChoice.ALWAYS, busy=True)) is None
    assert ping_due(at(IDLE_AFTER, busy=True)) is None
    assert ping_due(at(20 - LAST_CALL, busy=True)) is Reason.LAST_CALL


def test_a_short_clock_brings_both_moments_forward_and_keeps_them_apart() -> None:
    assert idle_after(10) == 3.0 and last_call_before(10) == 4.0  # at 3 s and at 6 s
    assert idle_after(60) == IDLE_AFTER and last_call_before(60) == LAST_CALL
    assert ping_due(at(3, length=10)) is Reason.IDLE
    assert ping_due(at(5.9, length=10, pinged=True)) is None
    assert ping_due(at(6, length=10, pinged=True)) is Reason.LAST_CALL


def test_next_look_is_the_idle_moment_then_the_last_call() -> None:
    assert next_look(at(0)) == IDLE_AFTER
    assert next_look(at(1, looked=True)) == 20 - LAST_CALL - 1
    assert next_look(at(IDLE_AFTER, pinged=True)) == 20 - LAST_CALL - IDLE_AFTER
    assert next_look(at(20 - LAST_CALL, pinged=True, last_called=True)) is None


@given(waited=st.floats(0, 120), length=st.one_of(st.none(), st.floats(10, 60)),
       choice=st.sampled_from(list(PingChoice)), looked=st.booleans(),
       shows=st.booleans(), pinged=st.booleans(), called=st.booleans(), busy=st.booleans())
def test_a_ping_is_never_due_twice_and_the_next_look_lies_ahead(
        waited: float, length: float | None, choice: PingChoice, looked: bool, shows: bool,
        pinged: bool, called: bool, busy: bool) -> None:
    w = at(waited, length=length, choice=choice, looked=looked, panel_shows=shows,
           pinged=pinged, last_called=called, busy=busy)
    reason = ping_due(w)
    if reason is not None:
        after = dataclasses.replace(w, pinged=True,
                                    last_called=called or reason is Reason.LAST_CALL)
        # Only the last call may follow another ping in the same turn.
        assert ping_due(after) in (None, Reason.LAST_CALL)
        if reason is Reason.LAST_CALL:
            assert ping_due(after) is None
    look = next_look(w)
    assert look is None or look > 0
    quiet = choice is PingChoice.NEVER or (choice is PingChoice.IDLE and (looked or shows))
    if quiet or busy:
        # Who plays along with the panel open, or asked for none, hears
        # nothing before the last call.
        assert reason in (None, Reason.LAST_CALL)
