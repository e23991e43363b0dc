"""Memory at a point of a bench run: resident memory, what tracemalloc
traces, and (when asked) the traced memory by source line, to compare two
points and name what grew between them.

Resident memory is taken after a full collection and before anything else
here allocates. Python's allocator keeps freed memory for reuse rather than
giving it back to the system, so resident memory can stay up after the traced
(live) memory went down; `rss_trimmed_mb` is taken after asking the C
allocator to hand back what it holds free (`malloc_trim`, glibc only), which
tells the two apart.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
import sys
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

MB = 2**20
Line = tuple[str, int]  # file, line number


@dataclass(frozen=True)
class MemoryPoint:
    rss_mb: float
    blocks: int  # blocks held by Python's allocator (sys.getallocatedblocks)
    rss_trimmed_mb: float | None  # after malloc_trim; None where there is none
    traced_mb: float | None  # None when tracemalloc is not tracing
    tracer_mb: float | None  # tracemalloc's own memory: part of the resident memory
    lines: dict[Line, tuple[int, int]] | None  # traced bytes and blocks per line, if asked


def memory_point(diagnose: bool = False) -> MemoryPoint:
    """Memory now. `diagnose` adds the traced memory by line and the resident
    memory after a trim; both change the process (the trim hands memory back,
    the snapshot allocates and frees a block per live block), so a run that
    diagnoses does not give the plain resident figure afterwards."""
    gc.collect()
    rss = rss_bytes() / MB
    blocks = sys.getallocatedblocks()
    tracing = tracemalloc.is_tracing()
    traced = tracemalloc.get_traced_memory()[0] / MB if tracing else None
    tracer = tracemalloc.get_tracemalloc_memory() / MB if tracing else None
    lines = _by_line() if tracing and diagnose else None
    trimmed = rss_bytes() / MB if diagnose and _malloc_trim() else None
    return MemoryPoint(rss, blocks, trimmed, traced, tracer, lines)


@contextmanager
def tracing(on: bool) -> Iterator[None]:
    """tracemalloc tracing (one frame per block) for the block, if `on`."""
    if not on or tracemalloc.is_tracing():
        yield
        return
    tracemalloc.start()
    try:
        yield
    finally:
        tracemalloc.stop()


def rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        resident = int(statm.read().split()[1])
    return resident * os.sysconf("SC_PAGE_SIZE")


def growers(before: MemoryPoint, after: MemoryPoint, most: int) -> list[dict[str, Any]]:
    """The `most` source lines whose traced memory grew most between the two points."""
    if before.lines is None or after.lines is None:
        return []
    grown = []
    for line, (size, blocks) in after.lines.items():
        old_size, old_blocks = before.lines.get(line, (0, 0))
        if size > old_size:
            grown.append((size - old_size, blocks - old_blocks, line, size))
    grown.sort(reverse=True)
    return [{"line": f"{_short(file)}:{number}", "grew_kb": round(diff / 1024, 1),
             "blocks": blocks, "now_kb": round(size / 1024, 1)}
            for diff, blocks, (file, number), size in grown[:most]]


def _by_line() -> dict[Line, tuple[int, int]]:
    """Traced memory per source line, kept small: the snapshot itself (one
    object per live block) is dropped before this returns."""
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, tracemalloc.__file__)])
    out = {}
    for stat in snapshot.statistics("lineno"):
        frame = stat.traceback[0]
        out[(frame.filename, frame.lineno)] = (stat.size, stat.count)
    del snapshot
    gc.collect()
    return out


def _short(file: str) -> str:
    """A path from the repository or from the standard library's folder."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for prefix in (root, os.path.dirname(os.__file__)):
        if file.startswith(prefix + os.sep):
            return file[len(prefix) + 1:]
    return file


def _malloc_trim() -> bool:
    """Ask glibc's allocator to return its free memory to the system."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        trim = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return False
    trim(0)
    return True
