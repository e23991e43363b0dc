"""The chaos bench's measures (bench/chaos.py). A whole run, even a quick one
(`--tables 2 --first 1 --every 0.5 --scale 0.1`), takes over a minute: it stays in
bench/."""

from __future__ import annotations

from pathlib import Path

from bench.chaos import count_tracebacks, in_outage

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
