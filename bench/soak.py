"""Soak: many live tables of `normal` computer players at once, through tables/.

    python bench/soak.py [--tables 200] [--games 1000] [--restore 500] [--json]
                         [--seats 4] [--threads 2] [--max-seconds 1800] [--rss-after 1000]
                         [--trace] [--growers 20] [--database sqlite|postgres]

Everything runs through the real stack: `TableManager` with the `SystemClock`,
a real database file (WAL, synchronous=FULL) in a temporary folder (with
`--database postgres`: a PostgreSQL server started for the run from the
binaries tests/pg_server.py finds, fsync on, one database per phase), a
thread-pool executor for the computer players (2 threads by default: the
machine has 2 cores) and `TableConfig(bot_pause=0, computers_only=True)`.
Each phase's database is opened as the bot opens it: connected, and its lease
taken (data/lease.py), so every write transaction is fenced as in production.
Figures only; nothing here asserts. `--max-seconds` bounds the whole run
(both phases share it; a phase cut short says so in `errors`).

Phases and figures:

1. Soak. `--tables` tables of `--seats` normal computer players play at once;
   each table that finishes is replaced by a new one, until `--games` games
   have finished. The tables still playing then are closed mid-game
   (`abandoned`). `games_per_s` and `events_per_s` (rows persisted in the
   event log, over the whole phase: setup of tables included) are over that
   phase's wall time.
   `act_p99_ms`: the p99 latency of an act, from the moment a computer's
   decision (computed in the executor) is applied under the table's lock to
   the end of its commit and notification: engine checks and apply, the
   write-ahead transaction (including the wait for the one shared database
   connection), the listener, re-arming clocks. It is measured by wrapping
   `Table.computer_move` for the duration of the run (the bench's
   own instrumentation; tables/ is not changed). `decide_p50_ms` is the time
   a decision takes in the executor, for comparison. Latencies are counted
   in a histogram of 1 %-wide buckets (bench/latency.py), not kept one by
   one: a percentile is at most 1 % above the exact figure, and the bench's
   memory does not grow with the number of acts.
   `replay_mismatches`: every finished game is loaded back from the database
   (`data.games.load_game(...).record()`), replayed with `engine.record.replay_json`, and
   the replayed marks compared with the stored final slates; a record that
   does not replay counts as a mismatch too.
2. Restore. In a second database, `--restore` tables are played until each
   has at least `--restore-rounds` whole rounds behind it (tables whose game
   ends sooner are replaced), then all are stopped (`manager.close()`).
   `restore_s` times a restart as an operator sees it: opening the database
   afresh (a new connection, its schema checked; its page cache is cold, the
   file's pages may still be in the OS cache), taking the lease, and
   `TableManager.restore()` on a fresh manager, until every table is back and
   takes clicks (of which `restore_open_s` is the opening and the lease);
   `restore_cpu_s` is the process's CPU time meanwhile, steadier than the
   wall time on a busy machine.
3. Memory. The same tables are restored once more under `tracemalloc`:
   `kb_per_table` is the Python memory held after the restore (after a
   garbage collection) less the memory before it, divided by the number of
   live tables. `rss_kb_per_table` is the resident-set growth over the timed
   restore, divided likewise (noisier: allocator pools and SQLite's cache).
   In the soak phase, resident memory (after a full collection) is taken
   after `--rss-after` games and after the last one: `rss_growth_pct`
   compares them (closed tables leave the manager by themselves; issue 12's
   target: within 10 % between 1,000 and 5,000 games). `blocks_*` counts
   the blocks Python's allocator holds at both points (free to take: a
   leak of objects shows there first). With `--trace` the soak phase runs
   under tracemalloc (about three times slower: the figures of speed are
   not comparable then), so the live Python memory is there at both points
   too (`traced_mb_*`), and tracemalloc's own (`tracemalloc_own_mb_*`, part
   of the resident memory). `--growers N` (with `--trace`) names the N
   source lines whose traced memory grew most between the two points and
   takes the resident memory after `malloc_trim` as well (`rss_trimmed_mb_*`:
   what the C allocator holds free is handed back); both change the process,
   so the plain resident figure is best read from a run without them.

`errors` counts everything that should not happen: records at WARNING or
above from any logger (a computer player that failed or chose an illegal
event, a listener that failed, a timer that failed, a failed save), asyncio
exceptions nobody retrieved, tables that ended other than by finishing, and
restored tables that are missing or short of rounds. `error_samples` shows
the first few.

Targets (issue 4): 200 tables play 1,000 games with zero errors and zero
replay mismatches; at least 1,000 persisted events per second; 500 live
tables, each at least 10 rounds in, restored in under 2 s; under 200 KB of
memory per live table.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import random
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.latency import Histogram
from bench.limits import LOAD_LIMITS
from bench.memory import MemoryPoint, growers, memory_point, rss_bytes, tracing
from bench.places import Places
from data import games as game_rows
from data.db import Database, connect
from data.lease import LeaseKeeper
from engine.events import Event, Happening
from engine.game import Game
from engine.record import replay_json
from engine.rules import TableRules
from tables.bot_driver import BotDriver, Move
from tables.clock import SystemClock
from tables.manager import TableManager
from tables.snapshot import SeatUpdate, Status, TableSnapshot
from tables.table import Table, TableConfig, TableDeps

log = logging.getLogger(__name__)

GUILD = 1
HOST = 1  # creates each table, leaves its seat, seats the computers, starts
LEVEL = "normal"
TARGET_GAMES = 1000
TARGET_TABLES = 200
TARGET_EVENTS_PER_S = 1000.0
TARGET_RESTORE_TABLES = 500
TARGET_RESTORE_S = 2.0
TARGET_KB_PER_TABLE = 200.0
SAMPLES_KEPT = 10
T = TypeVar("T")


@dataclass(frozen=True)
class Options:
    tables: int = TARGET_TABLES
    games: int = TARGET_GAMES
    restore: int = TARGET_RESTORE_TABLES
    restore_rounds: int = 10
    seats: int = 4
    threads: int = 2
    max_seconds: float = 1800.0
    seed: int = 1
    rss_after: int = 1000  # games after which resident memory is taken, to compare with the end
    trace: bool = False  # the soak phase under tracemalloc (traced memory at both points)
    growers: int = 0  # name this many source lines whose traced memory grew most
    database: str = "sqlite"  # or "postgres": a server of its own (tests/pg_server.py)


# --- what should not happen --------------------------------------------------------


class Errors(logging.Handler):
    """Counts every log record at WARNING or above, and anything else reported."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0
        self.samples: list[str] = []

    def add(self, text: str) -> None:
        self.count += 1
        if len(self.samples) < SAMPLES_KEPT:
            self.samples.append(text)

    def emit(self, record: logging.LogRecord) -> None:
        text = f"{record.levelname} {record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({type(record.exc_info[1]).__name__}: {record.exc_info[1]})"
        self.add(text)

    def loop_exception(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        self.add(f"asyncio: {context.get('message')} {context.get('exception')!r}")


@contextmanager
def watching(errors: Errors) -> Iterator[None]:
    root = logging.getLogger()
    root.addHandler(errors)
    loop = asyncio.get_running_loop()
    previous = loop.get_exception_handler()
    loop.set_exception_handler(errors.loop_exception)
    try:
        yield
    finally:
        loop.set_exception_handler(previous)
        root.removeHandler(errors)


# --- timing acts -------------------------------------------------------------------


@dataclass
class Timings:
    """Counted in bounded memory: a soak times over a million acts."""
    acts: Histogram = field(default_factory=Histogram)  # seconds
    decisions: Histogram = field(default_factory=Histogram)


@contextmanager
def timing(timings: Timings) -> Iterator[None]:
    """Wrap the table's two computer steps: deciding (in the executor) and
    applying a decision (commit and notify)."""
    apply = Table.computer_move
    decide = BotDriver._decide

    async def timed_apply(self: Table, move: Move) -> None:
        started = time.perf_counter()
        try:
            await apply(self, move)
        finally:
            timings.acts.add(time.perf_counter() - started)

    async def timed_decide(self: BotDriver, game: Game,
                           seats: list[int]) -> list[tuple[int, Event | None]]:
        started = time.perf_counter()
        try:
            return await decide(self, game, seats)
        finally:
            timings.decisions.add(time.perf_counter() - started)

    Table.computer_move = timed_apply  # type: ignore[method-assign]
    BotDriver._decide = timed_decide  # type: ignore[method-assign]
    try:
        yield
    finally:
        Table.computer_move = apply  # type: ignore[method-assign]
        BotDriver._decide = decide  # type: ignore[method-assign]


# --- stopping tables at a safe point -------------------------------------------------


class GatedExecutor(ThreadPoolExecutor):
    """A thread pool that can be parked: once parked, a computer player's
    decision never comes back, so its table waits outside its lock and any
    transaction. Closing tables that all wait there cancels nothing mid-commit
    (a task cancelled while its BEGIN is queued on aiosqlite's thread leaves
    the shared connection inside a transaction: see the bench's report)."""

    def __init__(self, threads: int, name: str) -> None:
        super().__init__(threads, thread_name_prefix=name)
        self.parked = False
        self.waiting: list[Future[Any]] = []

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        if self.parked:
            future: Future[T] = Future()
            self.waiting.append(future)
            return future
        return super().submit(fn, *args, **kwargs)


async def quiesce(manager: TableManager, executor: GatedExecutor, skip: set[int],
                  errors: Errors, seconds: float = 30.0) -> None:
    """Park the computer players and wait until every table in play waits on
    one (tables in `skip` were stopped already)."""
    executor.parked = True
    until = time.perf_counter() + seconds
    while True:
        playing = sum(1 for t in manager if t.status is Status.PLAYING and t.id not in skip)
        if len(executor.waiting) >= playing:
            return
        if time.perf_counter() > until:
            errors.add(f"only {len(executor.waiting)} of {playing} tables came to rest")
            return
        await asyncio.sleep(0.005)


# --- the listener ------------------------------------------------------------------


class SoakListener:
    """Hears every change: hands closed tables to the bench, and (restore
    preparation) stops a table once it has `stop_after_rounds` rounds behind it."""

    def __init__(self, errors: Errors, stop_after_rounds: int | None = None) -> None:
        self.errors = errors
        self.stop_after_rounds = stop_after_rounds
        self.closed: asyncio.Queue[Table] = asyncio.Queue()
        self.ready: asyncio.Queue[Table] = asyncio.Queue()
        self.notifications = 0
        self.stopping: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def table_changed(self, table: Table, snap: TableSnapshot,
                            updates: Sequence[SeatUpdate],
                            happenings: Sequence[Happening]) -> None:
        self.notifications += 1
        if snap.status in (Status.FINISHED, Status.ENDED, Status.CANCELLED):
            if snap.status is not Status.FINISHED:
                self.errors.add(f"table {table.id} {snap.status.value}: {snap.end_reason}")
            self.closed.put_nowait(table)
            return
        game = table.game
        rounds = self.stop_after_rounds
        if (rounds is not None and game is not None and not game.over
                and len(game.rounds) >= rounds and table.id not in self.stopping):
            # Stopped from outside the lock, like a shutdown: the event that
            # got it here is committed; its computer players stop at their
            # next pause.
            self.stopping.add(table.id)
            task = asyncio.get_running_loop().create_task(table.close())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            self.ready.put_nowait(table)

    async def drain(self) -> None:
        while self._tasks:
            await asyncio.gather(*list(self._tasks))


class QuietListener:
    async def table_changed(self, table: Table, snap: TableSnapshot,
                            updates: Sequence[SeatUpdate],
                            happenings: Sequence[Happening]) -> None:
        return None


# --- tables ------------------------------------------------------------------------


class Tables:
    """Starts computer-only tables, one channel each."""

    def __init__(self, manager: TableManager, seats: int) -> None:
        self.manager = manager
        self.seats = seats
        self.started = 0
        self.pending: set[asyncio.Task[None]] = set()

    async def start_one(self) -> Table:
        self.started += 1
        table = await self.manager.create(
            guild_id=GUILD, channel_id=1000 + self.started, host_id=HOST, host_name="Host",
            public=True, rules=TableRules())
        await table.leave(HOST)
        for _ in range(self.seats):
            await table.add_bot(HOST, LEVEL)
        await table.start(HOST)
        return table

    def start_soon(self, errors: Errors) -> None:
        """Start a table without waiting for it (setting up takes several
        transactions, each queued behind the other tables' commits)."""
        async def start() -> None:
            try:
                await self.start_one()
            except Exception as err:
                log.exception("starting a table failed")
                errors.add(f"starting a table: {err!r}")

        task = asyncio.get_running_loop().create_task(start())
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def settle_starts(self) -> None:
        while self.pending:
            await asyncio.gather(*list(self.pending))


def make_deps(db: Database, listener: SoakListener | QuietListener, executor: GatedExecutor,
              bot_pause: float, max_seconds: float) -> TableDeps:
    # Nobody but computers plays, so the idle timeout (10 minutes without a
    # person acting) would end long games of a long run: push it past the run.
    from datetime import timedelta

    config = TableConfig(bot_pause=bot_pause, computers_only=True,
                         idle_timeout=timedelta(seconds=max_seconds + 3600),
                         member_limits=LOAD_LIMITS)
    return TableDeps(db, SystemClock(), listener, executor, config)


async def open_leased(path: str | Path, errors: Errors) -> tuple[Database, LeaseKeeper]:
    """The database as the bot opens it: connected, its lease taken, and so
    every write transaction fenced with it (data/lease.py)."""
    db = await connect(path)
    keeper = LeaseKeeper(db, lambda lost: errors.add(f"lease lost: {lost}"))
    try:
        await keeper.start()
    except BaseException:
        await db.close()
        raise
    return db, keeper


async def close_leased(db: Database, keeper: LeaseKeeper) -> None:
    await keeper.stop()
    await db.close()


async def count_rows(db: Database, table: str) -> int:
    query = {"events": "SELECT COUNT(*) FROM game_events",
             "games": "SELECT COUNT(*) FROM games WHERE status = 'finished'"}[table]
    async with db.read() as conn:
        rows = list(await conn.execute_fetchall(query))
    return int(rows[0][0])


# --- phase 1: the soak ---------------------------------------------------------------


@dataclass
class SoakFigures:
    games: int = 0
    abandoned: int = 0
    events: int = 0
    elapsed_s: float = 0.0
    acts: int = 0
    act_p50_ms: float = 0.0
    act_p99_ms: float = 0.0
    decide_p50_ms: float = 0.0
    replay_mismatches: int = 0
    replay_s: float = 0.0
    stopped_early: bool = False
    memory_after: MemoryPoint | None = None  # after `rss_after` games
    memory_end: MemoryPoint | None = None  # after the last game (before replaying records)
    live_tables_end: int = 0  # tables the manager still holds then
    growers: list[dict[str, Any]] = field(default_factory=list)  # lines, with --growers


async def soak(options: Options, places: Places, errors: Errors,
               deadline: float) -> SoakFigures:
    figures = SoakFigures()
    db, keeper = await open_leased(await places("soak"), errors)
    executor = GatedExecutor(options.threads, "soak-bot")
    listener = SoakListener(errors)
    manager = TableManager(make_deps(db, listener, executor, 0, options.max_seconds),
                           random.Random(options.seed))
    tables = Tables(manager, options.seats)
    finished: list[int] = []
    timings = Timings()
    with timing(timings), tracing(options.trace):
        started = time.perf_counter()
        for _ in range(min(options.tables, options.games)):
            tables.start_soon(errors)
        while len(finished) < options.games:
            left = deadline - time.perf_counter()
            try:
                table = await asyncio.wait_for(listener.closed.get(), max(left, 0.001))
            except TimeoutError:
                figures.stopped_early = True
                errors.add(f"soak stopped at --max-seconds with {len(finished)} of "
                           f"{options.games} games finished")
                break
            if table.status is Status.FINISHED:
                finished.append(table.id)
                if len(finished) == options.rss_after:
                    figures.memory_after = memory_point(options.growers > 0)
            if len(finished) < options.games:
                tables.start_soon(errors)
        await tables.settle_starts()
        figures.memory_end = memory_point(options.growers > 0)
        if figures.memory_after is not None:
            figures.growers = growers(figures.memory_after, figures.memory_end,
                                      options.growers)
        figures.live_tables_end = len(manager.tables)
        figures.abandoned = sum(1 for t in manager if t.open)
        await quiesce(manager, executor, set(), errors)
        await manager.close()
        figures.elapsed_s = time.perf_counter() - started
    figures.games = len(finished)
    figures.events = await count_rows(db, "events")
    figures.acts = timings.acts.count
    figures.act_p50_ms = timings.acts.percentile(0.50) * 1000
    figures.act_p99_ms = timings.acts.percentile(0.99) * 1000
    figures.decide_p50_ms = timings.decisions.percentile(0.50) * 1000
    replay_started = time.perf_counter()
    figures.replay_mismatches = await replay_all(db, finished, errors)
    figures.replay_s = time.perf_counter() - replay_started
    await close_leased(db, keeper)
    executor.shutdown(wait=True)
    return figures


async def replay_all(db: Database, game_ids: Sequence[int], errors: Errors) -> int:
    """Replay each finished game's stored record; compare marks with the slates."""
    mismatches = 0
    for game_id in game_ids:
        loaded = await game_rows.load_game(db, game_id)
        record = loaded.record()
        slates = [seat.marks for seat in loaded.seats]
        try:
            marks: list[int | None] = list(replay_json(record).marks)
        except Exception as err:
            mismatches += 1
            errors.add(f"game {game_id} does not replay: {err}")
            continue
        if marks != slates or loaded.game.status != "finished":
            mismatches += 1
            if mismatches <= SAMPLES_KEPT:
                log.info("game %s: replayed %s, stored %s", game_id, marks, slates)
    return mismatches


# --- phase 2 and 3: restore and memory --------------------------------------------------


@dataclass
class RestoreFigures:
    tables: int = 0
    prepare_s: float = 0.0
    restore_s: float = 0.0
    restore_cpu_s: float = 0.0
    restore_open_s: float = 0.0
    restored: int = 0
    min_rounds: int = 0
    kb_per_table: float = 0.0
    rss_kb_per_table: float = 0.0


async def prepare(options: Options, path: str | Path, errors: Errors, deadline: float) -> int:
    """Play tables until `options.restore` of them have enough rounds; stop them."""
    db, keeper = await open_leased(path, errors)
    executor = GatedExecutor(options.threads, "prep-bot")
    listener = SoakListener(errors, stop_after_rounds=options.restore_rounds)
    manager = TableManager(make_deps(db, listener, executor, 0, options.max_seconds),
                           random.Random(options.seed + 1))
    tables = Tables(manager, options.seats)
    for _ in range(options.restore):
        tables.start_soon(errors)
    ready = 0
    while ready < options.restore:
        left = deadline - time.perf_counter()
        getters = [asyncio.ensure_future(listener.ready.get()),
                   asyncio.ensure_future(listener.closed.get())]
        done, waiting = await asyncio.wait(getters, timeout=max(left, 0.001),
                                           return_when=asyncio.FIRST_COMPLETED)
        for getter in waiting:
            getter.cancel()
        if not done:
            errors.add(f"restore preparation stopped at --max-seconds with {ready} of "
                       f"{options.restore} tables ready")
            break
        for getter in done:
            table = getter.result()
            if table.status is Status.PLAYING:
                ready += 1
            else:  # the game ended before enough rounds: another in its place
                tables.start_soon(errors)
    await tables.settle_starts()
    await listener.drain()
    await quiesce(manager, executor, listener.stopping, errors)
    await manager.close()
    await close_leased(db, keeper)
    executor.shutdown(wait=True)
    return ready


@dataclass(frozen=True)
class Restored:
    seconds: float  # wall time, from opening the database until every table is back
    cpu_s: float  # the process's CPU time meanwhile (steadier on a shared machine)
    open_s: float  # of which: connecting (and checking the schema) and taking the lease
    tables: int  # how many came back
    min_rounds: int  # their fewest rounds behind them
    grown: int  # `measure()`'s growth


async def restore_once(options: Options, path: str | Path, errors: Errors,
                       measure: Callable[[], int]) -> Restored:
    """A restart, as the bot makes one: open the database, take the lease, and
    restore every table on a fresh manager, until each is back and playable."""
    executor = GatedExecutor(options.threads, "restore-bot")
    executor.parked = True  # restored computers wait instead of playing on
    gc.collect()
    started, cpu = time.perf_counter(), time.process_time()
    db, keeper = await open_leased(path, errors)
    opened = time.perf_counter()
    manager = TableManager(make_deps(db, QuietListener(), executor, 0, options.max_seconds))
    before = measure()  # the tables' memory, not the connection's
    restored = await manager.restore()
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    gc.collect()
    grown = measure() - before
    rounds = [len(t.game.rounds) for t in restored if t.game is not None]
    await quiesce(manager, executor, set(), errors)
    await manager.close()
    await close_leased(db, keeper)
    executor.shutdown(wait=True)
    return Restored(seconds, cpu, opened - started, len(restored), min(rounds, default=0),
                    grown)


def traced() -> int:
    return tracemalloc.get_traced_memory()[0]


async def restore_phase(options: Options, places: Places, errors: Errors,
                        deadline: float) -> RestoreFigures:
    figures = RestoreFigures()
    path = await places("restore")
    started = time.perf_counter()
    figures.tables = await prepare(options, path, errors, deadline)
    figures.prepare_s = time.perf_counter() - started
    timed = await restore_once(options, path, errors, rss_bytes)
    figures.restore_s, figures.restore_cpu_s = timed.seconds, timed.cpu_s
    figures.restore_open_s = timed.open_s
    restored, rounds = figures.restored, figures.min_rounds = timed.tables, timed.min_rounds
    if restored != figures.tables:
        errors.add(f"{figures.tables} tables stopped, {restored} restored")
    if restored and rounds < options.restore_rounds:
        errors.add(f"a restored table has only {rounds} rounds behind it")
    tracemalloc.start()
    try:
        again = await restore_once(options, path, errors, traced)
    finally:
        tracemalloc.stop()
    figures.kb_per_table = again.grown / max(again.tables, 1) / 1024
    figures.rss_kb_per_table = timed.grown / max(restored, 1) / 1024
    return figures


# --- the whole run ------------------------------------------------------------------


async def run(options: Options, folder: Path | None = None) -> dict[str, Any]:
    errors = Errors()
    deadline = time.perf_counter() + options.max_seconds
    with (tempfile.TemporaryDirectory(prefix="toep-soak-") as temp,
          Places(options.database, folder or Path(temp)) as places, watching(errors)):
        played = await soak(options, places, errors, deadline)
        restored = await restore_phase(options, places, errors, deadline)
    return {
        "errors": errors.count,
        "games": played.games,
        "games_per_s": round(played.games / max(played.elapsed_s, 1e-9), 2),
        "events_per_s": round(played.events / max(played.elapsed_s, 1e-9), 1),
        "act_p99_ms": round(played.act_p99_ms, 2),
        "kb_per_table": round(restored.kb_per_table, 1),
        "restore_s": round(restored.restore_s, 3),
        "replay_mismatches": played.replay_mismatches,
        # the rest: context for the figures above
        "tables": options.tables,
        "seats": options.seats,
        "threads": options.threads,
        "events": played.events,
        "elapsed_s": round(played.elapsed_s, 1),
        "abandoned": played.abandoned,
        "stopped_early": played.stopped_early,
        "acts": played.acts,
        "act_p50_ms": round(played.act_p50_ms, 2),
        "decide_p50_ms": round(played.decide_p50_ms, 2),
        "replay_s": round(played.replay_s, 1),
        "restore_cpu_s": round(restored.restore_cpu_s, 3),
        "restore_open_s": round(restored.restore_open_s, 3),
        "restore_tables": restored.restored,
        "restore_min_rounds": restored.min_rounds,
        "restore_prepare_s": round(restored.prepare_s, 1),
        "rss_kb_per_table": round(restored.rss_kb_per_table, 1),
        "live_tables_end": played.live_tables_end,
        **memory_figures(options, played),
        "error_samples": errors.samples,
    }


def memory_figures(options: Options, played: SoakFigures) -> dict[str, Any]:
    """Resident and traced memory after `rss_after` games and at the end."""
    after, end = played.memory_after, played.memory_end

    def mb(point: MemoryPoint | None, name: str) -> float | None:
        value: float | None = None if point is None else getattr(point, name)
        return value

    def growth(name: str) -> float | None:
        first, last = mb(after, name), mb(end, name)
        if first is None or last is None or not first:
            return None
        return round(100 * (last - first) / first, 1)

    def rounded(value: float | None) -> float | None:
        return None if value is None else round(value, 1)

    figures: dict[str, Any] = {"rss_after_games": options.rss_after, "traced": options.trace}
    for name, key in (("rss_mb", "rss_mb"), ("blocks", "blocks"), ("traced_mb", "traced_mb"),
                      ("tracer_mb", "tracemalloc_own_mb"), ("rss_trimmed_mb", "rss_trimmed_mb")):
        figures[f"{key}_after"] = rounded(mb(after, name))
        figures[f"{key}_end"] = rounded(mb(end, name))
        figures[f"{key.removesuffix('_mb')}_growth_pct"] = growth(name)
    figures["growers"] = played.growers
    return figures


def report(result: dict[str, Any], options: Options) -> None:
    def verdict(ok: bool) -> str:
        return "meets" if ok else "MISSES"

    print(f"soak: {result['tables']} tables of {result['seats']} {LEVEL} computer players, "
          f"{result['threads']} executor threads")
    print(f"  {result['games']} games finished in {result['elapsed_s']} s "
          f"({result['games_per_s']} games/s), {result['abandoned']} still playing were closed")
    clean = (result["errors"] == 0 and result["replay_mismatches"] == 0
             and result["games"] >= TARGET_GAMES and result["tables"] >= TARGET_TABLES)
    print(f"  errors: {result['errors']}; replay mismatches: {result['replay_mismatches']} "
          f"(target: {TARGET_TABLES} tables, {TARGET_GAMES} games, zero of each: "
          f"{verdict(clean)})")
    for sample in result["error_samples"]:
        print(f"    {sample}")
    print(f"  persisted events: {result['events']}, {result['events_per_s']} per s "
          f"(target >= {TARGET_EVENTS_PER_S:.0f}: "
          f"{verdict(result['events_per_s'] >= TARGET_EVENTS_PER_S)})")
    print(f"  act latency: p50 {result['act_p50_ms']} ms, p99 {result['act_p99_ms']} ms "
          f"over {result['acts']} acts; a decision takes {result['decide_p50_ms']} ms (p50)")
    quick = (result["restore_s"] < TARGET_RESTORE_S
             and result["restore_tables"] >= TARGET_RESTORE_TABLES)
    print(f"restore: {result['restore_tables']} live tables, at least "
          f"{result['restore_min_rounds']} rounds in, restored in {result['restore_s']} s "
          f"({result['restore_cpu_s']} s of CPU, {result['restore_open_s']} s of it opening "
          f"the database and taking the lease) "
          f"(target {TARGET_RESTORE_TABLES} in < {TARGET_RESTORE_S:.0f} s: {verdict(quick)}); "
          f"prepared in {result['restore_prepare_s']} s")
    if result["rss_mb_after"] is not None:
        report_memory(result, verdict)
    print(f"memory: {result['kb_per_table']} KB per live table (tracemalloc), "
          f"{result['rss_kb_per_table']} KB (RSS) "
          f"(target < {TARGET_KB_PER_TABLE:.0f}: "
          f"{verdict(result['kb_per_table'] < TARGET_KB_PER_TABLE)})")


def report_memory(result: dict[str, Any], verdict: Callable[[bool], str]) -> None:
    growth = result["rss_growth_pct"]
    print(f"  resident memory: {result['rss_mb_after']} MB after "
          f"{result['rss_after_games']} games, {result['rss_mb_end']} MB after "
          f"{result['games']} ({growth:+} %; target within 10 %: "
          f"{verdict(abs(growth) <= 10)}); the manager holds {result['live_tables_end']} "
          f"tables, {result['tables']} playing")
    print(f"  blocks held by Python's allocator: {result['blocks_after']}, then "
          f"{result['blocks_end']} ({result['blocks_growth_pct']:+} %)")
    if result["traced_mb_after"] is not None:
        print(f"  traced (live Python) memory: {result['traced_mb_after']} MB, then "
              f"{result['traced_mb_end']} MB ({result['traced_growth_pct']:+} %); "
              f"tracemalloc's own: {result['tracemalloc_own_mb_after']} MB, then "
              f"{result['tracemalloc_own_mb_end']} MB")
    if result["rss_trimmed_mb_after"] is not None:
        print(f"  resident after malloc_trim: {result['rss_trimmed_mb_after']} MB, then "
              f"{result['rss_trimmed_mb_end']} MB ({result['rss_trimmed_growth_pct']:+} %)")
    for grower in result["growers"]:
        print(f"    {grower['line']}: +{grower['grew_kb']} KB in {grower['blocks']:+} blocks "
              f"(now {grower['now_kb']} KB)")


def parse(argv: Sequence[str] | None = None) -> tuple[Options, bool]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    defaults = Options()
    parser.add_argument("--tables", type=int, default=defaults.tables,
                        help="tables playing at once")
    parser.add_argument("--games", type=int, default=defaults.games,
                        help="games to finish")
    parser.add_argument("--restore", type=int, default=defaults.restore,
                        help="live tables to restore")
    parser.add_argument("--restore-rounds", type=int, default=defaults.restore_rounds,
                        help="rounds each table to restore has behind it")
    parser.add_argument("--seats", type=int, default=defaults.seats,
                        help="computer players per table")
    parser.add_argument("--threads", type=int, default=defaults.threads,
                        help="executor threads for the computer players")
    parser.add_argument("--max-seconds", type=float, default=defaults.max_seconds,
                        help="stop the run after this long, whatever is done")
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--rss-after", type=int, default=defaults.rss_after,
                        help="games after which resident memory is compared with the end")
    parser.add_argument("--trace", action="store_true",
                        help="play the soak under tracemalloc (traced memory at both points; "
                             "about three times slower)")
    parser.add_argument("--growers", type=int, default=defaults.growers,
                        help="name this many source lines whose traced memory grew most "
                             "(and trim the allocator at both points)")
    parser.add_argument("--database", choices=("sqlite", "postgres"), default=defaults.database,
                        help="the backend: an SQLite file, or a PostgreSQL server started "
                             "for the run")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    options = Options(tables=args.tables, games=args.games, restore=args.restore,
                      restore_rounds=args.restore_rounds, seats=args.seats,
                      threads=args.threads, max_seconds=args.max_seconds, seed=args.seed,
                      rss_after=args.rss_after, trace=args.trace,
                      growers=args.growers, database=args.database)
    return options, bool(args.json)


def main(argv: Sequence[str] | None = None) -> None:
    options, as_json = parse(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    result = asyncio.run(run(options))
    if as_json:
        print(json.dumps(result, indent=2))
    else:
        report(result, options)


if __name__ == "__main__":
    main()
