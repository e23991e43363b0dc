"""Chaos through the fake Discord: tables play on while the bot is killed, cut off,
rate limited and starved of its database.

    python bench/chaos.py [--tables 50] [--first 20] [--every 10] [--max-seconds 900]
                          [--seed 1] [--scale 1] [--no-faults] [--only KINDS]
                          [--keep-logs DIR] [--json]

The world is bench/e2e_load.py's (reused, not copied): the fake Discord and the
scripted people in this process, the unmodified bot in a process of its own
(bench/e2e_bot.py) on a real database file. Every table has two people and two
`normal` computer players, is private with the shortest clocks the bot allows
(`clock:10`, `window:5`), and plays until one player is left (`--limit` marks).
People who find the bot away wait until it is back (Discord would tell them "This
interaction failed"), then go on.

From `--first` seconds on, one fault every `--every` seconds, in an order drawn
from `--seed`:

- 3 SIGKILLs of the bot's process, each followed at once by a new one on the same
  database (its lease is taken over at once: the old process is gone);
- 3 gateway drops of 5-30 s (`drop_gateway(down_for=...)`: new connections are
  refused meanwhile): one resumes, one with a RESUME answered late, one with the
  session invalidated (a new IDENTIFY and READY);
- 2 database locks of 2-6 s: a second sqlite connection of this process holds
  the write lock (BEGIN IMMEDIATE) of the bot's database file;
- a full disk for 4 s: in the bot's process the database may not grow (SQLite's
  `PRAGMA max_page_count` set to the file's size on the bot's own connection, see
  bench/e2e_bot.py `disk_full`); each save that needs a new page fails with
  SQLITE_FULL, "database or disk is full", as on a full disk;
- storms on message edits: 502s for 6 s (discord.py retries them), 503s for the
  next 5 edits (it does not), 429s with `retry_after` 20 s for 10 s (per bucket),
  and a global 429 (`retry_after` 3 s) for the next 5 bot requests in 10 s;
- the channel of one table deleted in the middle of its game;
- 2 SIGTERMs of the bot's process (`docker stop`, systemd): it stops by itself
  (clicks meanwhile are answered "restarting"), and once it has exited a new one
  starts on the same database.
- a REST outage: for 15 s Discord answers 503 to every edit and new message of
  the bot (`fail_edits(503, posts=True)`), the gateway up and clicks arriving.

Figures (`--json` prints one object):

- `games_finished` of `tables`; the deleted channel's table is not counted and
  shows in `deleted_table` (target: ended, without a forfeit).
- `events_lost`: events some message showed and the database does not hold. A
  game button carries its decision's stamp, the number of events before it; a
  message shows stamp N only after N events were saved (write-ahead). After
  every kill (the process reaped) and at the end, each game's highest stamp in
  any message of the fake is compared with its rows in `game_events`;
  `lost_where` names the message, when it was written and by which of the
  bot's processes, and `--keep-logs` keeps a copy of the database then.
- `wrongful_forfeits`: forfeits whose turn overlapped a time the bot was down or
  disconnected (no live gateway session: from a kill or drop until the new
  session is live): seen at t, with the table's clock c, while some outage
  [s, e] has s <= t and t - c < e. `forfeits` counts them all;
  `wrongful_where` names each wrongful one and the outages it met.
- `frozen_tables`: tables still open at the end whose game showed no progress in
  their last FROZEN seconds.
- `unacknowledged`: clicks and commands the bot received (a live gateway session
  got them) and never acknowledged in time, except those sent in the 3 s before
  or during an outage (`unacknowledged_in_outages`); `unacknowledged_s`, when
  the first of them were sent (seconds into the run). A kill or a drop marks
  its outage at once.
- `tracebacks`: tracebacks in the bot's log (its stderr, every process), apart
  from discord.py's own "Attempting a reconnect" while the gateway refuses it
  (`reconnect_tracebacks`). `bot_log` is a folder kept with the logs if any.
- `sigterm`: for each SIGTERM, `exit_s` (from the signal until the process has
  exited), `exit_code`, `leases_left` (lease rows in the database once it has
  exited: a graceful stop gives them up), `saves_lost` (events some message
  showed that the database does not hold, at that moment) and `takeover_s`
  (from its exit until the new process holds the lease) and `ready_s` (until
  it is ready to play). `sigterm_targets_met`: exit code 0, within 10 s, no
  lease left and nothing lost, every time.
- `rest_outage`: for the REST outage, `wrongful_forfeits` (forfeits whose clock
  overlapped it: a turn nobody could be shown; target 0), and how long after
  Discord answers again each table message that fell behind shows the game as
  saved (`catch_up_s`: the tables' median and worst, and `behind`, how many fell
  behind; `not_caught_up`: tables still behind 30 s later; goal within 1 s).
- `faults`: each fault with its start (seconds into the run) and details;
  `outage_s`, the time without a live session; `bench_problems`, the world's.

Targets: every game finishes (the deleted channel's ends unrated), 0 events lost,
0 wrongful forfeits, 0 frozen tables, 0 unacknowledged, 0 tracebacks.

`--only sigkill,disk_full` injects those kinds of fault only, in the seed's
order, one every `--every` seconds: a smaller run to look into one of them,
not the bench.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import re
import shutil
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.e2e_load import (
    BOT_READY_TIMEOUT,
    BotProcess,
    Load,
    Options,
    Seat,
    TableRun,
    Tally,
    print_result,
)
from bench.e2e_wire import DISK_FULL, TOKEN, BotConfig, TableState, watching
from cogs.ids import ForgedId, decode
from tables.snapshot import Status
from tests.e2e.fake_discord import CommandError, FakeDiscord, InteractionResult, Message

CLOCK = 10  # seconds: the turn clock of every table (the shortest the bot allows)
WINDOW = 5
FROZEN = 60.0  # seconds without progress before an open table counts as frozen
ACK_LIMIT = 3.0
WAIT_FOR_BOT = 300.0  # seconds a person waits for the bot to come back
LOOK = 0.05  # seconds between looks at the gateway
KINDS = ("sigkill", "gateway_drop", "database_locked", "disk_full", "edit_storm",
         "channel_deleted", "sigterm", "rest_outage")
SIGTERMS = 2  # graceful stops in a run
STOP_GRACE = 10.0  # seconds Docker and systemd wait after SIGTERM before SIGKILL
REST_OUTAGE = 15.0  # seconds Discord fails every edit and post (times --scale)
CATCH_UP_LIMIT = 30.0  # seconds after a REST outage a table message may take to catch up
CATCH_UP_LOOK = 0.05  # seconds between looks at the table messages meanwhile
_RECORD = re.compile(r"^(DEBUG|INFO|WARNING|ERROR|CRITICAL):([\w.]+):(.*)$")


@dataclass
class FaultRecord:
    at: float  # seconds into the run
    kind: str
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"at_s": round(self.at, 1), "kind": self.kind, **self.detail}


class ChaosBot(BotProcess):
    """The bot's process, noting when each forfeit became known."""

    def __init__(self) -> None:
        super().__init__()
        self.forfeits: list[tuple[int, int, float]] = []  # table id, seat, time seen

    def _update(self, state: TableState) -> None:
        known = self.tables.get(state.id)
        before = set(known.forfeited) if known is not None else set()
        self.forfeits += [(state.id, seat, time.monotonic())
                          for seat in state.forfeited if seat not in before]
        super()._update(state)

    async def terminate(self) -> int:
        """SIGTERM the bot's process (`docker stop`, systemd) and wait until it has
        stopped by itself: its exit status."""
        process, reader = self._process, self._reader
        assert process is not None and reader is not None
        process.send_signal(signal.SIGTERM)
        code = await process.wait()
        await reader
        return code


class Chaos(Load):
    def __init__(self, options: Options, fake: FakeDiscord, tally: Tally, bot: ChaosBot,
                 folder: Path, scale: float = 1.0, only: frozenset[str] | None = None) -> None:
        super().__init__(options, fake, tally, bot)
        self.only = only  # the kinds of fault injected (None: all of them)
        self.keep: Path | None = None  # a copy of the database where events were lost
        self.scale = scale  # every fault's duration times this (a quick smoke run)
        self.chaos_bot = bot
        self.folder = folder
        self.database = folder / "toep.sqlite3"
        self.logs: list[Path] = []
        self.faults: list[FaultRecord] = []
        self.outages: list[list[float]] = []  # [start, end]; end = inf while it lasts
        self.down = False  # an outage lasts now
        self.started = time.monotonic()
        self.lost: dict[int, int] = {}  # game id -> events shown but not saved (worst seen)
        self.lost_detail: list[dict[str, Any]] = []
        self.launched: list[float] = []  # when each of the bot's processes started
        self.progress: dict[int, tuple[int, float]] = {}  # table id -> (stamp, when)
        self.deleted: TableRun | None = None
        self.failed_starts: list[str] = []
        self.sigterms: list[dict[str, Any]] = []  # the figures of each SIGTERM
        self.took_over: float | None = None  # when the process after a SIGTERM held a lease
        self.rest = RestOutage()

    # --- the bot's process ------------------------------------------------------------

    def config(self) -> BotConfig:
        return BotConfig(port=self.fake.port, ca_pem=self.fake.ca_pem,
                         database=str(self.database.resolve()), bot_pause=self.o.bot_pause)

    async def start_bot(self, database: Path) -> None:
        await self.launch()
        await self.fake.wait_ready(30.0)
        await self.fake.wait_commands("toep", timeout=30.0)

    async def launch(self) -> None:
        """A bot process with a log file of its own; started again (as a supervisor
        would) while it fails to start: each failure is in `failed_starts`."""
        while True:
            log_path = self.folder / f"bot-{len(self.logs) + 1}.log"
            self.logs.append(log_path)
            self.launched.append(time.monotonic())
            with log_path.open("wb") as stderr:  # the child keeps its own copy of the file
                await self.bot.start(self.config(), stderr=stderr)
            try:
                await self.bot.wait_ready(BOT_READY_TIMEOUT)
                return
            except RuntimeError as err:
                self.failed_starts.append(f"{log_path.name}: {err}")
                self.bot.kill()
                await asyncio.sleep(1.0)

    # --- people wait for a bot that is away -------------------------------------------

    def connected(self) -> bool:
        return bool(self.fake.gateway.live_sessions())

    async def wait_for_bot(self) -> None:
        await self.until("the bot to be back", self.connected, WAIT_FOR_BOT)

    async def until(self, what: str, check: Callable[[], Any], timeout: float = 60.0) -> Any:
        # Outages and restarts stretch everything a person waits for.
        return await super().until(what, check, max(timeout, WAIT_FOR_BOT))

    async def _away_proof(self, act: Callable[[], Awaitable[InteractionResult]]
                          ) -> InteractionResult:
        while True:
            await self.wait_for_bot()
            try:
                return await act()
            except RuntimeError:  # it went away between the look and the click
                await asyncio.sleep(0.5)

    async def slash(self, seat: Seat, run: TableRun, command: str,
                    options: dict[str, Any]) -> InteractionResult:
        parent = super().slash
        return await self._away_proof(lambda: parent(seat, run, command, options))

    async def click(self, seat: Seat, message: Message, custom_id: str) -> InteractionResult:
        parent = super().click
        return await self._away_proof(lambda: parent(seat, message, custom_id))

    async def person(self, run: TableRun, seat: Seat) -> None:
        try:
            await super().person(run, seat)
        except CommandError:
            if not self.fake.store.channels[run.channel.id].deleted:
                raise  # the channel is gone: nobody can click there any more

    # --- watching ---------------------------------------------------------------------

    async def watch(self) -> None:
        """Outages (no live gateway session) and each table's progress, as they happen."""
        looked = 0.0
        while True:
            now = time.monotonic()
            if self.connected() == self.down:
                if self.down:
                    self.outages[-1][1] = now
                    self.down = False
                else:
                    self.going_down()
            # Once a second: reading every button of every message is the world's
            # own work, and a look every LOOK would starve the fake Discord itself.
            if now - looked >= 1.0:
                looked = now
                for table_id, stamp in self.shown().items():
                    if self.progress.get(table_id, (-1, 0.0))[0] != stamp:
                        self.progress[table_id] = (stamp, now)
            await asyncio.sleep(LOOK if self.down else 1.0)

    def going_down(self) -> None:
        """An outage begins now (a kill or a drop marks it at once: the watch
        would see it up to a second late)."""
        if not self.down:
            self.down = True
            self.outages.append([time.monotonic(), float("inf")])

    def shown(self) -> dict[int, int]:
        """Each game's highest stamp in any message: the events some message showed."""
        return highest_stamps(self.fake)

    def shown_by(self) -> dict[int, tuple[int, Message]]:
        """Each game's highest stamp in any message, and a message that shows it."""
        best: dict[int, tuple[int, Message]] = {}
        for table_id, count, message in _stamps(self.fake):
            if count > best.get(table_id, (0, message))[0]:
                best[table_id] = (count, message)
        return best

    async def check_saved(self) -> None:
        """Compare what messages showed with what the database holds (no bot running)."""
        shown = self.shown_by()
        saved = await asyncio.to_thread(_saved_events, self.database)
        found = False
        for game_id, (count, message) in shown.items():
            missing = count - saved.get(game_id, 0)
            if missing > 0:
                found = True
                self.lost[game_id] = max(self.lost.get(game_id, 0), missing)
                self.lost_detail.append(self.where(game_id, count, saved.get(game_id, 0),
                                                   message))
        if found and self.keep is not None:  # the database as it was, to look into
            self.keep.mkdir(parents=True, exist_ok=True)
            copy = self.keep / f"lost-{time.monotonic() - self.started:.0f}s.sqlite3"
            await asyncio.to_thread(_copy_database, self.database, copy)

    def where(self, game_id: int, shown: int, saved: int, message: Message) -> dict[str, Any]:
        """Where a lost event showed: the message, when it was last written (seconds
        into the run) and by which of the bot's processes (its log's number)."""
        last = message.edits[-1].at if message.edits else message.created_at
        return {"game": game_id, "shown": shown, "saved": saved, "message": message.id,
                "ephemeral": message.ephemeral, "written_s": round(last - self.started, 1),
                "by_process": sum(1 for at in self.launched if at <= last),
                "checked_s": round(time.monotonic() - self.started, 1)}

    # --- faults -----------------------------------------------------------------------

    def note(self, kind: str, **detail: Any) -> None:
        self.faults.append(FaultRecord(time.monotonic() - self.started, kind, detail))

    async def kill(self) -> None:
        self.note("sigkill")
        self.going_down()
        await self.chaos_bot.crash()
        await self.check_saved()
        await self.launch()

    async def drop(self, seconds: float, how: str) -> None:
        self.note("gateway_drop", seconds=round(seconds, 1), how=how)
        self.going_down()
        if how == "late_resume":
            await self.fake.drop_gateway(down_for=seconds / 2, resume_delay=seconds / 2)
        else:
            await self.fake.drop_gateway(down_for=seconds, invalidate=how == "invalidated")

    async def lock_database(self, seconds: float) -> None:
        self.note("database_locked", seconds=round(seconds, 1))
        await asyncio.to_thread(_hold_write_lock, self.database, seconds)

    async def disk_full(self, seconds: float) -> None:
        self.note("disk_full", seconds=seconds)
        await self.bot.tell(f"{DISK_FULL} {seconds}")

    async def storm(self, kind: str) -> None:
        fake, x = self.fake, self.scale
        if kind == "502":
            fake.fail_edits(502, seconds=6.0 * x)
            self.note("edit_storm", status=502, seconds=6.0 * x)
        elif kind == "503":
            fake.fail_edits(503, times=5)
            self.note("edit_storm", status=503, requests=5)
        elif kind == "429":
            fake.rate_limit_edits(20.0 * x, seconds=10.0 * x)
            self.note("edit_storm", status=429, retry_after=20.0 * x, seconds=10.0 * x)
        else:
            # Like Discord's, it lapses: not a limit left waiting for the next process.
            fake.rate_limit_edits(3.0 * x, times=5, seconds=10.0 * x, is_global=True)
            self.note("edit_storm", status=429, scope="global", retry_after=3.0 * x, requests=5,
                      seconds=10.0 * x)

    async def delete_a_channel(self) -> None:
        """The channel of a table in the middle of its game."""
        for run in self.runs:
            if run.table is not None and run.table.status is Status.PLAYING:
                self.deleted = run
                self.note("channel_deleted", table=run.table.id)
                await self.fake.delete_channel(run.channel)
                return
        self.note("channel_deleted", table=None, skipped="no table in play")

    # --- a REST outage ---------------------------------------------------------------

    async def rest_outage(self, seconds: float) -> None:
        """Discord answers 503 to every edit and new message of the bot for
        `seconds`; then how long each table message whose edit failed
        meanwhile takes to be edited again (with the newest state: the
        presenter always shows its latest)."""
        self.note("rest_outage", seconds=round(seconds, 1))
        start = time.monotonic()
        self.fake.fail_edits(503, seconds=seconds, posts=True)
        self.rest.outages.append([start, start + seconds])
        await asyncio.sleep(seconds)
        ended, seen = time.monotonic(), len(self.fake.edit_log)
        channels = {run.channel.id: run for run in self.runs}
        behind = {channel for hit in self.fake.fault_hits
                  if start <= hit.at <= ended and hit.status == 503
                  and (channel := _channel_of(hit.path)) in channels}
        self.rest.behind += len(behind)
        while behind and time.monotonic() - ended < CATCH_UP_LIMIT:
            for edit in self.fake.edit_log[seen:]:
                if edit.channel_id in behind and edit.route.startswith("PATCH /channels/"):
                    self.rest.catch_up.append(edit.at - ended)
                    behind.discard(edit.channel_id)
            seen = len(self.fake.edit_log)
            for channel in [c for c in behind if not _open(channels[c])]:
                behind.discard(channel)  # ended meanwhile: its last state showed at once
            await asyncio.sleep(CATCH_UP_LOOK)
        self.rest.not_caught_up += sorted(_table_id(channels[c]) for c in behind)

    def schedule(self, rng: random.Random) -> list[Callable[[], Awaitable[None]]]:
        faults: list[tuple[str, Callable[[], Awaitable[None]]]] = [
            ("sigkill", self.kill), ("sigkill", self.kill), ("sigkill", self.kill)]
        for how in ("resumed", "late_resume", "invalidated"):
            seconds = rng.uniform(5.0, 30.0) * self.scale
            faults.append(("gateway_drop",
                           lambda s=seconds, h=how: self.drop(s, h)))  # type: ignore[misc]
        for _ in range(2):
            seconds = rng.uniform(2.0, 6.0) * self.scale
            faults.append(("database_locked",
                           lambda s=seconds: self.lock_database(s)))  # type: ignore[misc]
        faults.append(("disk_full", lambda: self.disk_full(4.0 * self.scale)))
        for kind in ("502", "503", "429", "global"):
            faults.append(("edit_storm", lambda k=kind: self.storm(k)))  # type: ignore[misc]
        faults.append(("channel_deleted", self.delete_a_channel))
        faults += [("sigterm", self.terminate)] * SIGTERMS
        faults.append(("rest_outage", lambda: self.rest_outage(REST_OUTAGE * self.scale)))
        rng.shuffle(faults)
        return [fault for kind, fault in faults if self.only is None or kind in self.only]

    # --- SIGTERM: the graceful stop ----------------------------------------------------

    async def terminate(self) -> None:
        """SIGTERM: the bot stops by itself; once it has exited, what it left (leases,
        events shown but not saved) is read and a new process is started."""
        self.going_down()
        signalled = time.monotonic()
        code = await self.chaos_bot.terminate()
        exited = time.monotonic()
        left = await asyncio.to_thread(_lease_owners, self.database)
        shown = self.shown()
        saved = await asyncio.to_thread(_saved_events, self.database)
        lost = sum(max(0, count - saved.get(game, 0)) for game, count in shown.items())
        await self.check_saved()  # counted in events_lost too, with where
        taken = asyncio.create_task(self._taken_over(set(left)))
        try:
            await self.launch()
        finally:
            taken.cancel()
        figures = {"exit_s": round(exited - signalled, 2), "exit_code": code,
                   "leases_left": len(left), "saves_lost": lost,
                   "takeover_s": None if self.took_over is None
                   else round(self.took_over - exited, 2),
                   "ready_s": round(time.monotonic() - exited, 2)}
        self.sigterms.append(figures)
        self.note("sigterm", **figures)

    async def _taken_over(self, old: set[str]) -> None:
        """Until a process other than the old owners holds a lease: `took_over`."""
        self.took_over = None
        while not set(await asyncio.to_thread(_lease_owners, self.database)) - old:
            await asyncio.sleep(LOOK)
        self.took_over = time.monotonic()

    async def inject(self, first: float, every: float) -> None:
        faults = self.schedule(random.Random(self.o.seed))
        await asyncio.sleep(first)
        for fault in faults:
            if all(r.table is not None and not r.table.open for r in self.runs):
                self.note("stopped", reason="every game is over")
                return
            try:
                await fault()
            except Exception as err:  # a harness failure: reported, the run goes on
                self.tally.problems.add(f"fault {fault}: {err!r}")
            await asyncio.sleep(every)


# --- SIGTERM: the graceful stop ----------------------------------------------------------


def highest_stamps(fake: FakeDiscord) -> dict[int, int]:
    """Each game's highest stamp in any message of the fake: the events it showed."""
    best: dict[int, int] = {}
    for table_id, count, _ in _stamps(fake):
        best[table_id] = max(best.get(table_id, 0), count)
    return best


def _stamps(fake: FakeDiscord) -> Iterator[tuple[int, int, Message]]:
    """(game, stamp, message) of every game button with a stamp in the fake's messages."""
    for message in fake.store.messages.values():
        for button in message.buttons():
            try:
                found = decode(str(button.get("custom_id", "")))
            except ForgedId:
                continue
            if found.stamp is not None:
                yield found.table_id, int(found.stamp, 36), message


def _lease_owners(path: Path) -> list[str]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30) as conn:
        return [str(row[0]) for row in conn.execute("SELECT owner FROM leases")]


def sigterm_targets_met(sigterms: Sequence[dict[str, Any]]) -> bool:
    """Each SIGTERM: exit 0 within 10 s (Docker's and systemd's grace), no lease
    left behind, no save lost."""
    return all(f["exit_code"] == 0 and f["exit_s"] < STOP_GRACE and f["leases_left"] == 0
               and f["saves_lost"] == 0 for f in sigterms)


@dataclass
class RestOutage:
    """What the REST outages did: when they lasted, the tables whose message
    fell behind, and how long each took to catch up."""

    outages: list[list[float]] = field(default_factory=list)  # [start, end], monotonic
    behind: int = 0
    catch_up: list[float] = field(default_factory=list)  # seconds after Discord answered
    not_caught_up: list[int] = field(default_factory=list)  # table ids

    def report(self, forfeits: Sequence[tuple[int, int, float]]) -> dict[str, Any]:
        wrongful = [f for f in forfeits if in_outage(self.outages, f[2] - CLOCK, f[2])]
        times = sorted(self.catch_up)
        return {
            "outages": len(self.outages),
            "wrongful_forfeits": len(wrongful),
            # When each was seen, in seconds from the first outage's start.
            "wrongful_where": [{"table": t, "seat": s, "seen_s": round(at - self.outages[0][0], 1)}
                               for t, s, at in wrongful[:10]],
            "behind": self.behind,
            "catch_up_s": {
                "median": round(statistics.median(times), 2) if times else None,
                "max": round(times[-1], 2) if times else None,
            },
            "not_caught_up": self.not_caught_up,
            "goal_met": not wrongful and not self.not_caught_up and all(t <= 1.0 for t in times),
        }


_CHANNEL_ROUTE = re.compile(r"/channels/(\d+)/messages")


def _channel_of(path: str) -> int | None:
    """The channel of a request on a channel's messages."""
    found = _CHANNEL_ROUTE.search(path)
    return int(found.group(1)) if found else None


def _open(run: TableRun) -> bool:
    return run.table is not None and run.table.open


def _table_id(run: TableRun) -> int:
    return -1 if run.table is None else run.table.id




def _saved_events(path: Path) -> dict[int, int]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30) as conn:
        rows = conn.execute("SELECT game_id, COUNT(*) FROM game_events GROUP BY game_id")
        return {int(game): int(count) for game, count in rows}


def _copy_database(path: Path, to: Path) -> None:
    with (sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30) as source,
          sqlite3.connect(to) as target):
        source.backup(target)


def _hold_write_lock(path: Path, seconds: float) -> None:
    """Another connection holds the database's write lock: the bot's writes wait."""
    conn = sqlite3.connect(path, timeout=30, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        time.sleep(seconds)
        conn.execute("ROLLBACK")
    finally:
        conn.close()


def count_tracebacks(paths: Sequence[Path]) -> tuple[int, int, list[str]]:
    """Tracebacks in the bot's logs, one per log record (a chained one counts once):
    (the bot's, discord.py's "Attempting a reconnect" notes, samples of the bot's)."""
    ours, reconnects, samples = 0, 0, []
    for path in paths:
        record, counted = "", False
        for line in path.read_text(errors="replace").splitlines():
            if _RECORD.match(line):
                record, counted = line, False
            elif line.startswith("Traceback (most recent call last)") and not counted:
                counted = True
                if record.startswith("ERROR:discord.client:Attempting a reconnect"):
                    reconnects += 1
                else:
                    ours += 1
                    samples.append(f"{path.name}: after {record[:160]!r}")
    return ours, reconnects, samples[:8]


def in_outage(outages: list[list[float]], start: float, end: float) -> bool:
    """Whether [start, end] meets an outage."""
    return any(s <= end and start < e for s, e in outages)


def report(chaos: Chaos, wall: float) -> dict[str, Any]:
    fake, bot = chaos.fake, chaos.chaos_bot
    deleted = chaos.deleted
    runs = [r for r in chaos.runs if r is not deleted]
    finished = sum(1 for r in runs if r.table is not None and r.table.status is Status.FINISHED)
    deleted_id = None if deleted is None or deleted.table is None else deleted.table.id
    forfeits = [(t, s, at) for t, s, at in bot.forfeits if t != deleted_id]
    wrongful = [f for f in forfeits if in_outage(chaos.outages, f[2] - CLOCK, f[2])]
    now = time.monotonic()
    frozen = [r.table.id for r in runs if r.table is not None and r.table.open
              and now - chaos.progress.get(r.table.id, (0, chaos.started))[1] > FROZEN]
    unacked = [r for r in fake.store.interactions.values() if r.ack_type is None]
    in_outages = [r for r in unacked
                  if in_outage(chaos.outages, r.created, r.created + ACK_LIMIT)]
    tracebacks, reconnects, samples = count_tracebacks(chaos.logs)
    outage_s = sum(min(e, now) - s for s, e in chaos.outages)
    rest = chaos.rest.report(forfeits)
    return {
        "tables": len(chaos.runs),
        "games_finished": finished,
        "games_to_finish": len(runs),
        "events_lost": sum(chaos.lost.values()),
        "wrongful_forfeits": len(wrongful),
        "frozen_tables": len(frozen),
        "unacknowledged": len(unacked) - len(in_outages),
        "tracebacks": tracebacks,
        "sigterm": chaos.sigterms,
        "sigterm_targets_met": sigterm_targets_met(chaos.sigterms),
        "rest_outage": rest,
        "faults_injected": len(chaos.faults),
        "faults": [f.to_json() for f in chaos.faults],
        "deleted_table": None if deleted is None or deleted.table is None else {
            "id": deleted.table.id, "status": deleted.table.status.value,
            "end_reason": deleted.table.end_reason, "forfeited": deleted.table.forfeited},
        "forfeits": len(forfeits),
        "wrongful_where": [_wrongful_where(chaos, f) for f in wrongful[:10]],
        "unacknowledged_in_outages": len(in_outages),
        "unacknowledged_s": sorted(round(r.created - chaos.started, 1) for r in unacked
                                   if r not in in_outages)[:20],
        "reconnect_tracebacks": reconnects,
        "traceback_samples": samples,
        "lost_by_game": chaos.lost,
        "lost_where": chaos.lost_detail[:10],
        "frozen_ids": frozen,
        "outages": len(chaos.outages),
        "outage_s": round(outage_s, 1),
        "restarts": len(chaos.logs) - 1,
        "failed_starts": chaos.failed_starts,
        "wall_s": round(wall, 1),
        "clicks": len(chaos.tally.clicks),
        "rate_limit_hits": len(fake.rate_limit_hits),
        "fault_answers": len(fake.fault_hits),
        "table_status": _statuses(chaos.runs),
        "bench_problems": problems_first(chaos.tally.problems.texts),
        "targets_met": bool(finished == len(runs) and not chaos.lost and not wrongful
                            and not frozen and len(unacked) == len(in_outages)
                            and tracebacks == 0 and not chaos.failed_starts
                            and sigterm_targets_met(chaos.sigterms)
                            and rest["wrongful_forfeits"] == 0 and not rest["not_caught_up"]),
    }


def _wrongful_where(chaos: Chaos, forfeit: tuple[int, int, float]) -> dict[str, Any]:
    """A wrongful forfeit: its table and seat, when the bench learnt of it and the
    outages its clock met (seconds into the run)."""
    table, seat, seen = forfeit
    met = [[round(s - chaos.started, 1), round(e - chaos.started, 1)]
           for s, e in chaos.outages if s <= seen and seen - CLOCK < e]
    return {"table": table, "seat": seat, "seen_s": round(seen - chaos.started, 1),
            "outages": met}


def problems_first(problems: list[str], count: int = 8) -> list[str]:
    """The first problems, those of the scripted people (a table left without
    them stops) before the logged warnings."""
    people = [p for p in problems if re.match(r"table \d+: ", p)]
    return (people + [p for p in problems if p not in people])[:count]


def _statuses(runs: Sequence[TableRun]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in runs:
        key = "none" if r.table is None else f"{r.table.status.value}:{r.table.end_reason}"
        counts[key] = counts.get(key, 0) + 1
    return counts


@dataclass
class ChaosOptions:
    load: Options
    first: float = 20.0
    every: float = 10.0
    faults: bool = True
    keep_logs: Path | None = None
    scale: float = 1.0  # fault durations times this: 0.1 for a quick smoke run
    only: frozenset[str] | None = None  # these kinds of fault only (a diagnosis)


async def run(options: ChaosOptions) -> dict[str, Any]:
    tally = Tally()
    with (watching(tally.problems),
          tempfile.TemporaryDirectory(prefix="toep-chaos-") as folder):
        async with FakeDiscord(token=TOKEN) as fake:
            bot = ChaosBot()
            chaos = Chaos(options.load, fake, tally, bot, Path(folder), options.scale,
                          options.only)
            chaos.keep = options.keep_logs
            chaos.build()
            watcher = injector = None
            try:
                await chaos.start_bot(chaos.database)
                chaos.started = time.monotonic()
                watcher = asyncio.create_task(chaos.watch())
                if options.faults:
                    injector = asyncio.create_task(chaos.inject(options.first, options.every))
                wall = await chaos.run()
                if injector is not None:
                    injector.cancel()
            finally:
                for task in (watcher, injector):
                    if task is not None:
                        task.cancel()
                tally.problems.merge(await bot.close())
                bot.kill()
            await chaos.check_saved()
            result = report(chaos, wall)
            if options.keep_logs is not None:
                options.keep_logs.mkdir(parents=True, exist_ok=True)
                for path in chaos.logs:
                    shutil.copy(path, options.keep_logs / path.name)
                result["bot_log"] = str(options.keep_logs)
            return result


def parse(argv: Sequence[str] | None) -> tuple[ChaosOptions, bool]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--limit", type=int, default=10,
                        help="marks to lose (5-30): games long enough to meet the faults")
    parser.add_argument("--bot-pause", type=float, default=0.3)
    parser.add_argument("--think", type=float, nargs=2, default=(0.3, 1.0),
                        metavar=("MIN", "MAX"))
    parser.add_argument("--first", type=float, default=20.0,
                        help="seconds before the first fault")
    parser.add_argument("--every", type=float, default=10.0, help="seconds between faults")
    parser.add_argument("--max-seconds", type=float, default=900.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scale", type=float, default=1.0,
                        help="fault durations times this (0.1: a quick look, not the bench)")
    parser.add_argument("--no-faults", action="store_true", help="the same run, undisturbed")
    parser.add_argument("--only", type=lambda text: frozenset(text.split(",")),
                        help="only these kinds of fault, e.g. sigkill,disk_full (a diagnosis, "
                             "not the bench): " + ", ".join(KINDS))
    parser.add_argument("--keep-logs", type=Path, help="copy the bot's logs to this folder")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    load = Options(tables=args.tables, limit=args.limit, bot_pause=args.bot_pause,
                   think=(args.think[0], args.think[1]), max_seconds=args.max_seconds,
                   seed=args.seed, rules={"clock": CLOCK, "window": WINDOW})
    return ChaosOptions(load, args.first, args.every, not args.no_faults,
                        args.keep_logs, args.scale, args.only), bool(args.json)


def main(argv: Sequence[str] | None = None) -> None:
    options, as_json = parse(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    print_result(asyncio.run(run(options)), as_json)


if __name__ == "__main__":
    main()
