"""What every table is given: its settings, its listener, and the shared
database, clock, worker threads, reach and group commit."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Protocol

from data.db import Database
from data.group_commit import LogWriter
from data.guilds import DEFAULT_LIMITS, Limits
from engine.events import Happening
from tables.clock import ClockSource
from tables.outage import Reach
from tables.slots import Slots
from tables.snapshot import SeatUpdate, TableSnapshot

if TYPE_CHECKING:
    from tables.table import Table


@dataclass(frozen=True)
class TableConfig:
    bot_pause: float = 1.2  # seconds before a computer's turn shows: readable, not instant
    lobby_timeout: timedelta = timedelta(minutes=15)
    idle_timeout: timedelta = timedelta(minutes=10)
    public_clock: int = 20  # R16: public tables
    recent: int = 8  # happenings kept for the table message
    computers_only: bool = False  # benches may start tables without a person
    save_give_up: timedelta = timedelta(minutes=3)  # a game that cannot be saved ends
    lobby_grace: timedelta = timedelta(minutes=2)  # a lobby's time after an outage
    pause_notice: timedelta = timedelta(seconds=3)  # an outage shows after this long
    # Fair limits per member where a server's admins set none (benches raise them).
    member_limits: Limits = DEFAULT_LIMITS


class TableListener(Protocol):
    async def table_changed(self, table: Table, snap: TableSnapshot,
                            updates: Sequence[SeatUpdate],
                            happenings: Sequence[Happening]) -> None:
        """Called after every committed change, under the table's lock: must
        not block (schedule the Discord work, don't await it here)."""
        ...


@dataclass
class TableDeps:
    db: Database
    clock: ClockSource
    listener: TableListener
    executor: Executor | None = None
    config: TableConfig = TableConfig()
    reach: Reach = field(default_factory=lambda: Reach(always=True))
    # Past capacity moves take turns (tables/slots.py); no limit by default.
    slots: Slots = field(default_factory=lambda: Slots(lambda: None))
    # Seconds a new decision's clock gets on top, now (Shedding.clock_grace).
    clock_grace: Callable[[], float] = lambda: 0.0
    writer: LogWriter = field(init=False)

    def __post_init__(self) -> None:
        self.writer = LogWriter(self.db)  # one group commit for all tables
