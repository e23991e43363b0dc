"""bench/cpu.py: CPU seconds of a process tree and of the machine, from /proc.
A child burns a known amount of CPU (its own clock, not the wall's)."""

from __future__ import annotations

import os
import subprocess
import sys

from bench.cpu import CpuMeter, machine_busy, tree_cpu_s

BURN = "import time\nwhile time.process_time() < 0.3: pass\n"


def test_a_reaped_child_s_cpu_counts_for_its_parent() -> None:
    before = tree_cpu_s(os.getpid())
    meter = CpuMeter()
    meter.start()
    subprocess.run([sys.executable, "-c", BURN], check=True)
    figures = meter.figures()
    assert (figures["bots_s"] or 0.0) >= 0.25, figures
    assert tree_cpu_s(subprocess.os.getpid()) - before >= 0.25  # type: ignore[attr-defined]
    assert figures["postgres_s"] is None


def test_the_machine_is_never_busier_than_its_time() -> None:
    busy, niced, stolen, total = machine_busy()
    assert 0.0 <= niced <= busy <= total and 0.0 <= stolen <= busy and total > 0.0
