"""Who used the machine's CPU during a benchmark run: this process, its children
(the bot processes, once reaped), a PostgreSQL server's processes, and the
whole machine (others' work included), from Linux's /proc. For saying why a
latency target was missed: when the machine was busy all the time, every
process waited for a core.

`CpuMeter.start()` then `figures()` gives seconds of CPU for each, the run's
wall time and the machine's busy share over it (and how much of that was others' work at a lowered
priority, which yields to ours)."""

from __future__ import annotations

import os
import resource
import time
from dataclasses import dataclass
from pathlib import Path

_TICK = os.sysconf("SC_CLK_TCK")


def _own_and_reaped(pid: int) -> float:
    """A process's CPU seconds, with those of its children it reaped."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = text.rsplit(")", 1)[1].split()  # after the name, which may hold spaces
    utime, stime, cutime, cstime = (int(f) for f in fields[11:15])
    return (utime + stime + cutime + cstime) / _TICK


def tree_cpu_s(pid: int) -> float:
    """CPU seconds of a process and of its children, live or reaped (one level:
    PostgreSQL's postmaster and its backends)."""
    total = _own_and_reaped(pid)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                total += _own_and_reaped(int(entry.name))
    return total


def machine_busy() -> tuple[float, float, float, float]:
    """The machine's CPU seconds (all cores): busy, busy at a lowered priority
    (`nice`: work that yields to ours), stolen (by the virtual machine's host),
    and in all."""
    numbers = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    total = sum(numbers[:8])  # guest time is already counted in user time
    idle = numbers[3] + numbers[4]  # idle and iowait
    return (total - idle) / _TICK, numbers[1] / _TICK, numbers[7] / _TICK, total / _TICK


def _self_and_children() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


@dataclass
class CpuMeter:
    """`postmaster`: a PostgreSQL server's main process, whose tree is measured too."""

    postmaster: int | None = None
    _wall: float = 0.0
    _own: float = 0.0
    _children: float = 0.0
    _pg: float = 0.0
    _busy: float = 0.0
    _niced: float = 0.0
    _stolen: float = 0.0
    _total: float = 0.0

    def start(self) -> None:
        self._wall = time.monotonic()
        self._own, self._children = _self_and_children()
        self._pg = 0.0 if self.postmaster is None else tree_cpu_s(self.postmaster)
        self._busy, self._niced, self._stolen, self._total = machine_busy()

    def figures(self) -> dict[str, float | None]:
        """Since `start`: children count once reaped (after the bots closed)."""
        own, children = _self_and_children()
        busy, niced, stolen, total = machine_busy()
        pg = None if self.postmaster is None else tree_cpu_s(self.postmaster) - self._pg
        spent = max(total - self._total, 1e-9)
        return {
            "wall_s": round(time.monotonic() - self._wall, 1),
            "bench_s": round(own - self._own, 1),
            "bots_s": round(children - self._children, 1),
            "postgres_s": None if pg is None else round(pg, 1),
            "machine_busy_pct": round(100 * (busy - self._busy) / spent, 1),
            # Of which at a lowered priority (others' `nice` runs), yielding to ours.
            "machine_niced_pct": round(100 * (niced - self._niced) / spent, 1),
            "machine_stolen_pct": round(100 * (stolen - self._stolen) / spent, 1),
            "machine_cores": float(os.cpu_count() or 1),
        }
