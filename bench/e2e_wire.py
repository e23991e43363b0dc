"""What bench/e2e_load.py (the world: the fake Discord and the scripted people) and
bench/e2e_bot.py (the bot, in a process of its own) say to each other.

The bot's process writes one JSON object a line to the bench (`kind` is "ready",
"tables" or "final"); the bench writes one line, "close", when the run is over.
Both processes count their own problems the same way (`watching`).
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import resource
import statistics
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

from tables.load import LoadGauge
from tables.snapshot import Status

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz012345"
CLOSE = "close"
DISK_FULL = "disk_full"  # "disk_full SECONDS": the bot's database may not grow (bench/chaos.py)
_RATE_LIMIT_LOG = ("We are being rate limited", "Global rate limit")
# Not problems: voice libraries this bot never needs. (discord.py's "Can't keep up" is
# one: the fake acknowledges heartbeats a round trip later, as Discord does, so the
# warning means a heartbeat's ACK really waited 10 s for the bot's loop.)
_BENIGN_LOG = ("PyNaCl is not installed", "davey is not installed")
# The load gauge's word to the operator (tables/load.py): wanted past capacity, counted apart.
_LOAD_LOGGER = "tables.load"


@dataclass(frozen=True)
class BotConfig:
    """How the bot's process finds the fake Discord and sets up the bot."""

    port: int
    ca_pem: str  # the fake's throwaway CA: the only certificate the bot trusts
    database: str  # an SQLite file, or a PostgreSQL URL
    bot_pause: float
    profile: str | None = None  # cProfile the bot's event loop into this file
    shard_count: int | None = None  # SHARD_COUNT and SHARD_IDS of the bot's process
    shard_ids: list[int] | None = None
    # The web table (bench/web_table.py): its port, and the fake's OAuth2 client.
    web_port: int | None = None
    client_id: int | None = None
    client_secret: str | None = None

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> BotConfig:
        return cls(**json.loads(text))


@dataclass
class TableState:
    """What the scripted people may know of a table that the screen does not show
    plainly: who sits where, and whether it is still going. Updated in place."""

    id: int
    channel_id: int
    seats: list[int | None]  # user ids in seat order; None for a computer player
    status: Status
    end_reason: str | None = None
    forfeited: list[int] = field(default_factory=list)  # seats out by a forfeit

    @property
    def open(self) -> bool:
        return self.status in (Status.LOBBY, Status.PLAYING)

    def seated(self, user_id: int) -> bool:
        return user_id in self.seats

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "channel_id": self.channel_id, "seats": self.seats,
                "status": self.status.value, "end_reason": self.end_reason,
                "forfeited": self.forfeited}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableState:
        return cls(int(data["id"]), int(data["channel_id"]), list(data["seats"]),
                   Status(data["status"]), data.get("end_reason"),
                   list(data.get("forfeited", [])))

    def update(self, other: TableState) -> None:
        self.seats, self.status, self.end_reason = other.seats, other.status, other.end_reason
        self.forfeited = other.forfeited


@dataclass
class Problems:
    """Things that should not happen, and the warnings that are not problems."""

    texts: list[str] = field(default_factory=list)
    rate_limited_retries: int = 0
    benign_warnings: int = 0
    load_warnings: int = 0  # "past capacity" from the load gauge: figures, not errors

    def add(self, text: str) -> None:
        self.texts.append(text[:300])

    def merge(self, other: Problems) -> None:
        self.texts += other.texts
        self.rate_limited_retries += other.rate_limited_retries
        self.benign_warnings += other.benign_warnings
        self.load_warnings += other.load_warnings

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Problems:
        return cls(list(data["texts"]), int(data["rate_limited_retries"]),
                   int(data["benign_warnings"]), int(data.get("load_warnings", 0)))


class _Watch(logging.Handler):
    """Log records at WARNING or above are problems; discord.py's 429 retries are counted."""

    def __init__(self, problems: Problems) -> None:
        super().__init__(logging.WARNING)
        self.problems = problems

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if text.startswith(_RATE_LIMIT_LOG):
            self.problems.rate_limited_retries += 1
            return
        if text.startswith(_BENIGN_LOG):
            self.problems.benign_warnings += 1
            return
        if record.name == _LOAD_LOGGER and record.levelno == logging.WARNING:
            self.problems.load_warnings += 1
            return
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({record.exc_info[1]!r})"
        self.problems.add(f"log {record.name}: {text}")


@contextmanager
def watching(problems: Problems) -> Iterator[None]:
    """Count this process's log records at WARNING or above and the running loop's
    unretrieved exceptions as problems, until the block ends."""
    watch = _Watch(problems)
    logging.getLogger().addHandler(watch)
    loop = asyncio.get_running_loop()
    previous = loop.get_exception_handler()
    loop.set_exception_handler(
        lambda _, context: problems.add(f"asyncio: {context.get('message')} "
                                        f"{context.get('exception')!r}"))
    try:
        yield
    finally:
        logging.getLogger().removeHandler(watch)
        loop.set_exception_handler(previous)


@dataclass
class CollectorPauses:
    """How long the cycle collector held the process, by generation: its pauses
    are event-loop lag that no profile of the loop's own functions shows."""

    started: float | None = None
    pauses: dict[int, list[float]] = field(default_factory=lambda: {0: [], 1: [], 2: []})
    # When each full collection began (time.monotonic(): one clock for every
    # process of the machine, so the bench lines them up with its own records).
    full_at: list[float] = field(default_factory=list)

    def __enter__(self) -> CollectorPauses:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *_: object) -> None:
        gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.started = time.perf_counter()
            if info["generation"] == 2:
                self.full_at.append(time.monotonic())
        elif self.started is not None:
            self.pauses[info["generation"]].append(time.perf_counter() - self.started)
            self.started = None

    def to_json(self) -> dict[str, Any]:
        figures: dict[str, Any] = {
            f"gen{gen}": {"count": len(p), "total_s": round(sum(p), 2),
                          "max_ms": round(max(p, default=0.0) * 1000, 1)}
            for gen, p in self.pauses.items()}
        figures["full_at"] = [round(at, 2) for at in self.full_at]
        return figures



@dataclass
class LagFigures:
    """A process's event-loop lag over the run, from its load gauge."""

    lags: list[float] = field(default_factory=list)  # seconds, one per sample
    levels: Counter[str] = field(default_factory=Counter)  # samples at each level
    worst: float = 0.0
    collector: CollectorPauses = field(default_factory=CollectorPauses)

    async def follow(self, gauge: LoadGauge, every: float = 0.05) -> None:
        """Take each new sample of `gauge` until cancelled."""
        seen = gauge.samples
        while True:
            await asyncio.sleep(every)
            if gauge.samples != seen:
                seen = gauge.samples
                self.lags.append(gauge.last)
                self.levels[gauge.level.name.lower()] += 1
            self.worst = gauge.worst

    def to_json(self) -> dict[str, Any]:
        cuts = statistics.quantiles(self.lags, n=100) if len(self.lags) > 1 else [0.0] * 99
        total = max(1, sum(self.levels.values()))
        return {"lag_p50_ms": round(cuts[49] * 1000, 1), "lag_p99_ms": round(cuts[98] * 1000, 1),
                "lag_max_ms": round(self.worst * 1000, 1),
                "level_share": {name: round(n / total, 3) for name, n in self.levels.items()},
                "gc": self.collector.to_json(),
                "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}

