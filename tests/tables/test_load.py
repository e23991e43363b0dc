"""The load gauge (event-loop lag, fed by hand with a clock of our own) and the
shedding policy, a pure function of the level."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from tables.load import (
    EDIT_INTERVAL,
    REPORT_EVERY,
    SUSTAINED,
    THRESHOLDS,
    Level,
    LoadGauge,
    level_for,
    shedding,
)


class Ticks:
    """A monotonic clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def feed(gauge: LoadGauge, ticks: Ticks, lag: float, seconds: float, every: float = 0.25) -> None:
    """Samples of `lag` for `seconds` of the fake clock."""
    for _ in range(round(seconds / every)):
        ticks.now += every
        gauge.record(lag)


# --- the policy -------------------------------------------------------------------------


def test_normal_load_sheds_nothing() -> None:
    normal = shedding(Level.NORMAL)
    assert normal.edit_interval == EDIT_INTERVAL
    assert normal.idle_panels and normal.pings and normal.pictures


def test_each_level_sheds_one_more_thing_in_order() -> None:
    busy, strained = shedding(Level.BUSY), shedding(Level.STRAINED)
    overloaded, saturated = shedding(Level.OVERLOADED), shedding(Level.SATURATED)
    # First the table message waits longer; everything else still goes.
    assert busy.edit_interval > EDIT_INTERVAL
    assert busy.idle_panels and busy.pings and busy.pictures
    # Then idle hand panels wait, then pings go, then pictures.
    assert not strained.idle_panels and strained.pings and strained.pictures
    assert not overloaded.idle_panels and not overloaded.pings and overloaded.pictures
    assert not saturated.idle_panels and not saturated.pings and not saturated.pictures


def test_past_capacity_my_hand_is_answered_before_its_panel_is_drawn() -> None:
    assert [shedding(level).hand_in_answer for level in Level] == [
        level < Level.STRAINED for level in Level]


def test_edit_gaps_only_grow_with_the_load() -> None:
    intervals = [shedding(level).edit_interval for level in Level]
    assert intervals == sorted(intervals)
    assert len(set(intervals)) == len(intervals)


def test_clocks_run_longer_only_past_normal_and_more_with_the_load() -> None:
    graces = [shedding(level).clock_grace for level in Level]
    assert graces[0] == 0.0
    assert graces == sorted(graces) and len(set(graces)) == len(graces)


def test_levels_follow_the_thresholds() -> None:
    assert level_for(0.0) is Level.NORMAL
    for level, threshold in THRESHOLDS.items():
        assert level_for(threshold) is level
        assert level_for(threshold * 0.99) is Level(level - 1)


def test_a_level_is_left_only_well_below_its_threshold() -> None:
    just_below = THRESHOLDS[Level.OVERLOADED] * 0.9
    assert level_for(just_below, Level.OVERLOADED) is Level.OVERLOADED
    assert level_for(just_below, Level.NORMAL) is Level.STRAINED
    assert level_for(0.0, Level.SATURATED) is Level.NORMAL


# --- the gauge --------------------------------------------------------------------------


def test_a_quiet_loop_is_normal() -> None:
    ticks = Ticks()
    gauge = LoadGauge(ticks)
    feed(gauge, ticks, 0.002, 30)
    assert gauge.level is Level.NORMAL
    assert gauge.shedding == shedding(Level.NORMAL)


def test_sustained_lag_raises_the_level_and_its_fall_brings_it_back() -> None:
    ticks = Ticks()
    gauge = LoadGauge(ticks)
    feed(gauge, ticks, 0.5, 5)
    assert gauge.level is Level.SATURATED
    assert not gauge.shedding.pictures
    feed(gauge, ticks, 0.001, 10)
    assert gauge.level is Level.NORMAL
    assert gauge.shedding == shedding(Level.NORMAL)


def test_one_late_wake_up_does_not_shed() -> None:
    ticks = Ticks()
    gauge = LoadGauge(ticks)
    feed(gauge, ticks, 0.001, 5)
    gauge.record(0.12)  # a garbage collection, say
    assert gauge.level < Level.STRAINED
    assert gauge.worst == pytest.approx(0.12)


def test_forcing_a_level_pins_it_and_tells_the_listener() -> None:
    ticks = Ticks()
    gauge = LoadGauge(ticks)
    heard: list[Level] = []
    gauge.on_level = heard.append
    gauge.force(Level.OVERLOADED)
    feed(gauge, ticks, 0.0, 5)
    assert gauge.level is Level.OVERLOADED
    gauge.force(None)
    assert gauge.level is Level.NORMAL
    assert heard == [Level.OVERLOADED, Level.NORMAL]


def test_past_capacity_warns_once_a_while_and_says_when_it_is_back(
        caplog: pytest.LogCaptureFixture) -> None:
    ticks = Ticks()
    gauge = LoadGauge(ticks)
    caplog.set_level(logging.INFO, logger="tables.load")
    feed(gauge, ticks, 0.3, SUSTAINED / 2)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]  # not yet sustained
    feed(gauge, ticks, 0.3, REPORT_EVERY * 3)
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    # Once at SUSTAINED, then once a REPORT_EVERY: a handful, not a line a sample.
    assert 2 <= len(warnings) <= 4
    assert "past capacity" in warnings[0].getMessage()
    assert "Add a cluster" in warnings[0].getMessage()
    feed(gauge, ticks, 0.0, 10)
    assert "back within capacity" in caplog.records[-1].getMessage()
    assert caplog.records[-1].levelno == logging.INFO


def test_busy_but_within_capacity_is_info_at_most_once_a_while(
        caplog: pytest.LogCaptureFixture) -> None:
    ticks = Ticks()
    gauge = LoadGauge(ticks)
    caplog.set_level(logging.INFO, logger="tables.load")
    feed(gauge, ticks, 0.07, REPORT_EVERY * 2)
    assert gauge.level is Level.BUSY
    lines = [r for r in caplog.records if r.name == "tables.load"]
    assert lines and all(r.levelno == logging.INFO for r in lines)
    assert len(lines) <= 3


def test_a_quiet_loop_logs_nothing(caplog: pytest.LogCaptureFixture) -> None:
    ticks = Ticks()
    gauge = LoadGauge(ticks)
    caplog.set_level(logging.DEBUG, logger="tables.load")
    feed(gauge, ticks, 0.01, REPORT_EVERY * 2)
    assert not caplog.records


async def test_the_gauge_measures_a_blocked_loop() -> None:
    gauge = LoadGauge()
    gauge.start(interval=0.01)
    try:
        while gauge.samples < 2:
            await asyncio.sleep(0.01)
        before = gauge.samples
        time.sleep(0.08)  # the loop blocked: the next wake-up is late by about that
        while gauge.samples == before:
            await asyncio.sleep(0.01)
        assert gauge.worst > 0.03
    finally:
        await gauge.stop()
    assert gauge._task is None
