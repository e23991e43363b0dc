"""The chaos bench's measures (bench/chaos.py). A whole run, even a quick one
(`--tables 2 --first 1 --every 0.5 --scale 0.1`), takes over a minute: it stays in
bench/."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, cast

from bench.chaos import (
    Chaos,
    ChaosBot,
    RestOutage,
    count_tracebacks,
    in_outage,
    problems_first,
    sigterm_targets_met,
)
from bench.e2e_load import Options, Tally

LOG = """\
WARNING:discord.client:PyNaCl is not installed, voice will NOT be supported
ERROR:discord.client:Attempting a reconnect in 1.63s
Traceback (most recent call last):
aiohttp.client_exceptions.WSServerHandshakeError: 503
ERROR:tables.table:table 3: saving events failed
Traceback (most recent call last):
sqlite3.OperationalError: database is locked

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
RuntimeError: chained
"""


def test_tracebacks_count_once_per_record_and_reconnects_apart(tmp_path: Path) -> None:
    log = tmp_path / "bot-1.log"
    log.write_text(LOG)
    ours, reconnects, samples = count_tracebacks([log])
    assert (ours, reconnects) == (1, 1)
    assert samples == ["bot-1.log: after 'ERROR:tables.table:table 3: saving events failed'"]


def test_a_forfeit_is_wrongful_if_its_turn_met_an_outage() -> None:
    outages = [[100.0, 120.0], [200.0, float("inf")]]
    clock = 10.0
    assert in_outage(outages, 105.0 - clock, 105.0)  # during the outage
    assert in_outage(outages, 125.0 - clock, 125.0)  # its clock ran in the outage
    assert not in_outage(outages, 131.0 - clock, 131.0)  # a full clock after it
    assert not in_outage(outages, 99.0 - clock, 99.0)
    assert in_outage(outages, 250.0 - clock, 250.0)  # an outage still going on


def _chaos(tmp_path: Path, only: frozenset[str] | None) -> Chaos:
    # The schedule needs no world: nothing runs until a fault is awaited.
    return Chaos(Options(), cast(Any, None), Tally(), ChaosBot(), tmp_path, only=only)


def test_only_keeps_the_kinds_asked_for_in_the_seeds_order(tmp_path: Path) -> None:
    every = _chaos(tmp_path, None).schedule(random.Random(2))
    assert len(every) == 17
    chaos = _chaos(tmp_path, frozenset({"sigkill"}))
    assert chaos.schedule(random.Random(2)) == [chaos.kill] * 3


def test_the_problems_of_the_people_come_first() -> None:
    problems = ["log data.lease: took over", "table 8: ClientConnectionResetError()",
                "log discord.client: Attempting a reconnect"]
    assert problems_first(problems, 2) == ["table 8: ClientConnectionResetError()",
                                   "log data.lease: took over"]


def test_sigterm_is_a_kind_of_its_own_and_its_targets(tmp_path: Path) -> None:
    chaos = _chaos(tmp_path, frozenset({"sigterm"}))
    assert chaos.schedule(random.Random(2)) == [chaos.terminate] * 2
    good = {"exit_s": 0.6, "exit_code": 0, "leases_left": 0, "saves_lost": 0,
            "takeover_s": 0.9, "ready_s": 1.5}
    assert sigterm_targets_met([good, good]) and sigterm_targets_met([])
    for bad in ({"exit_code": 1}, {"exit_s": 10.0}, {"leases_left": 1}, {"saves_lost": 2}):
        assert not sigterm_targets_met([good, {**good, **bad}])


def test_a_rest_outage_reports_forfeits_in_it_and_how_fast_tables_caught_up() -> None:
    rest = RestOutage(outages=[[100.0, 115.0]], behind=3, catch_up=[0.4, 0.9, 0.6])
    forfeits = [(1, 0, 112.0), (2, 1, 124.0), (3, 0, 126.0)]  # the last: a full clock after
    report = rest.report(forfeits)
    assert report["wrongful_forfeits"] == 2
    assert report["wrongful_where"] == [{"table": 1, "seat": 0, "seen_s": 12.0},
                                        {"table": 2, "seat": 1, "seen_s": 24.0}]
    assert report["catch_up_s"] == {"median": 0.6, "max": 0.9}
    assert not report["goal_met"]
    assert RestOutage(outages=[[100.0, 115.0]], catch_up=[0.5]).report(forfeits[2:])["goal_met"]
    slow = RestOutage(outages=[[100.0, 115.0]], catch_up=[0.5, 1.4])
    assert not slow.report([])["goal_met"]
