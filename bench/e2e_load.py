"""Load through the fake Discord: many tables at once, people clicking, the real bot.

    python bench/e2e_load.py [--tables 100] [--limit 5] [--rounds N] [--bot-pause 0.3]
                             [--think 0.3 1.0] [--ramp 0] [--max-seconds 600]
                             [--seed 1] [--profile FILE] [--json] [--reviews N]
                             [--clusters N --shard-count S] [--database sqlite|postgres]
                             [--kill-cluster K] [--kill-after SECONDS]

The cluster options (several bot processes on one database, shards, PostgreSQL,
a crash) are bench/e2e_cluster.py's: its docstring says what they do and report.

What runs where. In reality Discord is another machine, so the bench keeps two
processes, and the fake's own CPU work is not measured as the bot's latency:

- this process is the world: the fake Discord of tests/e2e/ (REST and gateway over
  TLS, Discord's rate limits at their defaults, `RateLimitConfig()`: 5 messages and
  5 edits per 5 s per channel, 5 webhook requests per 2 s per interaction token)
  and the scripted people, on one event loop;
- a child process (bench/e2e_bot.py, the same python) runs the unmodified bot
  (`create_bot(Settings(...), connector=...)`, a real database file in a temporary
  folder, `TableConfig(bot_pause=--bot-pause)`) on its own event loop; the computer
  players think in its executor threads. Its connector sends Discord's host names
  to the fake's port and trusts only the fake's throwaway CA, as in the e2e tests;
  discord.py waits out every 429 itself.

The bot's process tells the bench (bench/e2e_wire.py) when it is ready and, as they
change, each table's seats and status (what the people would read off the table
message: who is seated, whether the game goes on); after the run the bench asks it
to close, and it reports its problems.

Every table has its own channel and two scripted people. The host runs
`/toep new private:true limit:--limit` and `/toep invite` for the guest; the
guest clicks Join, the host adds two `normal` computer players and starts.
Then each person plays like a person: press "My hand" on the table message,
watch that ephemeral panel (the bot keeps it up to date; past capacity it
first answers "thinking" and the panel replaces that), and when it shows an
enabled game button, think for a moment (`--think`, uniform) and click the
first of PREFERRED. After a click the person waits until the panel changes;
if it stays the same for STALL seconds after their click, or a click was
refused, they press "My hand" again (`panel_reopens`). A panel with nothing
to do (not their turn, folded, out of the game) they just watch: it follows
the game without being asked; only one unchanged for IDLE_STALL seconds
(the bot restarted and no longer knows it) they open again. A person looks
again when something they see changes (the fake wakes them), or after a
second at the latest.

Figures (`--json` prints one object):

- `ack_p50_ms`, `ack_p99_ms`, `ack_max_ms`: time from a button click to its
  acknowledgement, as the fake measures it in this process
  (`InteractionResult.ack_delay`: from dispatch on the gateway to the accepted
  callback, so the round trip to the bot's process and back is in it).
  `clicks` counts button clicks; slash commands are reported apart
  (`slash_ack_p99_ms`).
- `gateway_wait_p99_ms`, `gateway_wait_max_ms`: how long interactions waited in
  this process before the fake's gateway sent them (its send lock, on a loop
  shared with the people); the 3 seconds start when they are sent.
- `unacknowledged`: interactions (clicks and slash commands) never
  acknowledged in time, by the fake's own records; `unacknowledged_by_time`
  counts them by when they were sent, in 15-second steps from the first, and
  `unacknowledged_by_kind` by what they asked (a command, a button's verb).
- `edits_per_table_per_s`: accepted edits of channel messages (PATCH
  /channels/.../messages/..., i.e. the table message; hand panels are webhook
  edits and not counted) per table, divided by the time that table was alive
  (from `/toep new` until the game was seen finished, or the end of the run),
  averaged over tables; `..._max` for the busiest table and
  `edit_gap_min_ms`, the shortest time between two such edits in one channel.
- `games_finished`, `tables`, `wall_s`, `human_actions`, `panel_reopens`,
  `refused_clicks` (answered with a refusal, `refusals` by the verb clicked
  and the refusal's text).
- `bot_load`: the bot's event-loop lag from its own load gauge (tables/load.py):
  `lag_p50_ms`, `lag_p99_ms`, `lag_max_ms` and `level_share`, the share of samples
  at each level of shedding; `world_load` the same for this process (the fake and
  the people: if it lags, acknowledgements look late that were not);
  `load_warnings`, the gauge's "past capacity" warnings (wanted there: not errors);
  `gc`, the cycle collector's pauses by generation (count, total, longest)
  and `full_at`, when each full collection began (seconds from the first
  interaction);
  `max_rss_mb`, the process's peak resident memory.
- `errors`: the number of things that should not happen: the fake's `errors`,
  4xx rejections (a late or double acknowledgement, an unknown webhook...),
  5xx answers, log records at WARNING or above and unretrieved asyncio
  exceptions in either process (the bot's process counts its own and reports
  them when it closes; discord.py's "being rate limited" warnings are not
  errors but `rate_limited_retries`), exceptions in the scripted people, and a
  bot process that failed to report or exited with an error.
  `error_samples` shows the first few. `rate_limit_hits` (by bucket) are the
  429s the fake answered: not errors, the bot lives with them.

`--reviews N`: N players ask for reviews of finished games of theirs while
the tables play (bench/e2e_reviews.py says how, and the figures it adds).

`--profile FILE` runs the bot's process under cProfile (its event loop's thread
only; not the world's process), dumps it to FILE and prints the functions with
most own time and the time per part (discord.py, aiohttp, bot cogs, tables,
engine, data, ...) to stderr.

Figures only; nothing here asserts. Targets (issue 5): p99 ack under 250 ms,
no interaction unacknowledged, at most one table-message edit per second per
table on average.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import io
import json
import logging
import pstats
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.e2e_reviews import ReviewLoad
from bench.e2e_wire import CLOSE, TOKEN, BotConfig, LagFigures, Problems, TableState, watching
from bench.places import BACKENDS
from cogs.ids import ForgedId, decode
from tables.load import LoadGauge
from tables.snapshot import Status
from tests.e2e.fake_discord import (
    Channel,
    CommandError,
    FakeDiscord,
    InteractionResult,
    Message,
    User,
)

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent
# What a careful player answers when asked (as tests/e2e/toep_world.py).
PREFERRED = ("pass", "call", "play_in", "super_no", "play", "check", "vuile_was", "toep",
             "fold", "sit_out", "believe", "super_yes")
STALL = 6.0  # seconds a panel may stay unchanged after a click before "My hand" again
# Seconds a panel may stay unchanged at all: longer, and the person presses "My
# hand" anyway (a bot restarted meanwhile no longer follows the old panel).
IDLE_STALL = 20.0
POLL = 0.1  # how often a person looks at the screen while waiting for the table message
LOOK_AGAIN = 1.0  # seconds: the longest a person waits for their screen to change
DEFERRED_ANSWER = 5  # Discord's "thinking" acknowledgement
TARGET_ACK_P99_MS = 250.0
TARGET_EDITS_PER_S = 1.0
BOT_READY_TIMEOUT = 90.0  # seconds for the bot's process to start, sync and connect
BOT_CLOSE_TIMEOUT = 60.0  # seconds for it to close and report
MESSAGE_LIMIT = 1 << 24  # bytes in one line from the bot's process (its final report)


@dataclass
class Options:
    tables: int = 100
    limit: int = 5
    rounds: int | None = None
    bot_pause: float = 0.3
    think: tuple[float, float] = (0.3, 1.0)
    ramp: float = 0.0
    max_seconds: float = 600.0
    seed: int = 1
    database: Path | None = None
    profile: Path | None = None  # cProfile the bot's process into this file
    rules: dict[str, Any] = field(default_factory=dict)  # more /toep new options
    # Clusters (bench/e2e_cluster.py): bot processes, shards, backend, a crash.
    clusters: int = 1
    shard_count: int | None = None  # None: not sharded, one guild, as before clusters
    backend: str = "sqlite"  # or "postgres" (bench/places.py)
    kill_cluster: int | None = None
    kill_after: float = 20.0  # seconds after the last game started
    reviews: int = 0  # reviewers asking for reviews meanwhile (bench/e2e_reviews.py)

    @property
    def clustered(self) -> bool:
        """Whether bench/e2e_cluster.py runs it: more than one process, shards, PostgreSQL."""
        return (self.clusters != 1 or self.shard_count is not None
                or self.backend != "sqlite" or self.kill_cluster is not None)


@dataclass
class Seat:
    user: User
    panel: Message | None = None
    # Set when something only this person sees changes: a panel edit, a new
    # ephemeral message (`Load.watch_people`). Looking at the screen every
    # POLL seconds instead cost this process most of a core at 800 tables.
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def wait_change(self, longest: float) -> None:
        """Until this person's screen changes, or `longest` seconds."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, longest)):
                await self.changed.wait()
        self.changed.clear()


@dataclass
class TableRun:
    index: int
    channel: Channel
    host: Seat
    guest: Seat
    table: TableState | None = None
    message_id: int | None = None
    created: float = 0.0
    finished: float | None = None
    cluster: int = 0  # the bot process (Load.bots) that drives this table


@dataclass
class Tally:
    clicks: list[InteractionResult] = field(default_factory=list)
    slashes: list[InteractionResult] = field(default_factory=list)
    human_actions: int = 0
    panel_reopens: int = 0
    refused: int = 0
    refusals: Counter[str] = field(default_factory=Counter)  # by verb and text
    stalls: int = 0
    vanished: int = 0
    unanswered: int = 0  # clicks no bot was connected for (bench/e2e_cluster.py)
    # Both processes': the world's here, the bot's added when its process reports.
    problems: Problems = field(default_factory=Problems)
    world_lag: LagFigures = field(default_factory=LagFigures)  # this process's loop


class BotProcess:
    """The bot's process (bench/e2e_bot.py), seen from the world: whether it is ready,
    its tables (seats and status, as the people would learn them from the screen),
    and at the end its report."""

    def __init__(self) -> None:
        self.tables: dict[int, TableState] = {}
        # The newest table of each channel: the people look it up ten times a second
        # each, and a scan of every table per look was most of this process's work.
        self._by_channel: dict[int, TableState] = {}
        self.ready = asyncio.Event()
        self.report: Problems | None = None
        self.load: dict[str, Any] = {}  # its event-loop lag, in its final report
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self, config: BotConfig, stderr: IO[bytes] | None = None) -> None:
        """Start the bot's process (again, after `crash`: the same tables go on);
        its stderr (the log) to `stderr`, else this process's."""
        self.ready = asyncio.Event()
        self.report = None
        # The same python, as a module from the project's root (bench/ imports the bot).
        self._process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.e2e_bot", config.to_json(), cwd=ROOT,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=stderr,
            limit=MESSAGE_LIMIT)
        assert self._process.stdout is not None
        self._reader = asyncio.create_task(self._read(self._process.stdout))

    async def wait_ready(self, timeout: float) -> None:
        """Until the bot is ready; an error at once if its process ends first."""
        assert self._reader is not None
        ready = asyncio.create_task(self.ready.wait())
        try:
            await asyncio.wait({ready, self._reader}, timeout=timeout,
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            ready.cancel()
        if self.ready.is_set():
            return
        if self._reader.done():
            raise RuntimeError("the bot's process ended before it was ready (see its stderr)")
        raise RuntimeError(f"the bot's process was not ready in {timeout:.0f} s")

    def in_channel(self, channel_id: int) -> TableState | None:
        """The open table in this channel, as the manager's `in_channel`."""
        table = self._by_channel.get(channel_id)
        return table if table is not None and table.open else None

    async def _read(self, stream: asyncio.StreamReader) -> None:
        while line := await stream.readline():
            self._receive(json.loads(line))

    def _receive(self, message: dict[str, Any]) -> None:
        if message["kind"] == "ready":
            self.ready.set()
        for data in message.get("tables", []):
            self._update(TableState.from_json(data))
        if message["kind"] == "final":
            self.report = Problems.from_json(message["problems"])
            self.load = message.get("load", {})

    def _update(self, state: TableState) -> None:
        # In place: the people hold on to the object they were given.
        known = self.tables.setdefault(state.id, state)
        if known is not state:
            known.update(state)
        if known.open:
            self._by_channel[known.channel_id] = known

    async def close(self) -> Problems:
        """Tell the bot to close; its report, plus a problem if it gave none or failed."""
        process, reader = self._process, self._reader
        if process is None or reader is None:
            return Problems()
        assert process.stdin is not None
        with contextlib.suppress(ConnectionError):  # it may have ended already
            process.stdin.write(f"{CLOSE}\n".encode())
            await process.stdin.drain()
        try:
            await asyncio.wait_for(reader, BOT_CLOSE_TIMEOUT)
            code = await asyncio.wait_for(process.wait(), BOT_CLOSE_TIMEOUT)
        except TimeoutError:
            self.kill()
            code = await process.wait()
        found = self.report or Problems()
        if self.report is None:
            found.add("bot process: no report at the end (see its stderr)")
        if code != 0:
            found.add(f"bot process: exit code {code}")
        return found

    async def tell(self, line: str) -> None:
        """One line to the bot's process (bench/e2e_bot.py `told_to_close`)."""
        assert self._process is not None and self._process.stdin is not None
        self._process.stdin.write(f"{line}\n".encode())
        await self._process.stdin.drain()

    async def crash(self) -> None:
        """SIGKILL the bot's process and reap it: no goodbye, no report."""
        process, reader = self._process, self._reader
        assert process is not None and reader is not None
        process.kill()
        await process.wait()
        await reader

    def kill(self) -> None:
        """The bot's process, if it still runs (a failed or interrupted bench)."""
        if self._process is not None and self._process.returncode is None:
            self._process.kill()


class Unanswered(Exception):
    """A click Discord could deliver to no bot: the person saw "This interaction
    failed" (raised by bench/e2e_cluster.py while a cluster is down)."""


class Load:
    def __init__(self, options: Options, fake: FakeDiscord, tally: Tally,
                 bot: BotProcess, *more: BotProcess) -> None:
        """`more`: the other bot processes of a cluster; a table is driven by
        `bots[run.cluster]`."""
        self.o = options
        self.fake = fake
        self.tally = tally
        self.rng = random.Random(options.seed)
        self.bot = bot
        self.bots = [bot, *more]
        self.deadline = 0.0
        self.runs: list[TableRun] = []
        self.guild: Any = None  # the one guild, once built

    # --- the world ------------------------------------------------------------------

    def build(self) -> None:
        guild = self.guild = self.fake.add_guild("Café de Toep", locale="en-US")
        for i in range(self.o.tables):
            channel = self.fake.add_channel(guild, f"toepen-{i}")
            host = self.fake.add_user(f"host{i}", guild=guild)
            guest = self.fake.add_user(f"guest{i}", guild=guild)
            self.runs.append(TableRun(i, channel, Seat(host), Seat(guest)))
        self.watch_people()

    def watch_people(self) -> None:
        """Wake a person when the fake edits or posts a message only they see.
        Soon, not at once: the fake finishes the request first (a refusal is
        counted as the click's followup after it was stored)."""
        seats = {seat.user.id: seat for run in self.runs for seat in (run.host, run.guest)}
        store, loop = self.fake.store, asyncio.get_running_loop()
        record_edit, add_message = store.record_edit, store.add_message

        def tell(message: Message) -> None:
            seat = seats.get(message.visible_to or 0)
            if seat is not None:
                loop.call_soon(seat.changed.set)

        def edited(message: Message, route: str) -> None:
            record_edit(message, route)
            tell(message)

        def added(message: Message) -> Message:
            stored = add_message(message)
            tell(message)
            return stored

        setattr(store, "record_edit", edited)  # noqa: B010 (a method, wrapped)
        setattr(store, "add_message", added)  # noqa: B010

    async def start_bot(self, database: Path) -> None:
        await self.bot.start(BotConfig(
            # Absolute paths: the bot's process runs from the project's root.
            port=self.fake.port, ca_pem=self.fake.ca_pem, database=str(database.resolve()),
            bot_pause=self.o.bot_pause,
            profile=None if self.o.profile is None else str(self.o.profile.resolve())))
        await self.bot.wait_ready(BOT_READY_TIMEOUT)
        await self.fake.wait_ready(30.0)
        await self.fake.wait_commands("toep", timeout=30.0)

    # --- a person's moves -----------------------------------------------------------

    def left(self) -> float:
        return self.deadline - time.monotonic()

    async def until(self, what: str, check: Callable[[], Any], timeout: float = 60.0) -> Any:
        """Look at the screen every POLL seconds until `check()` is truthy."""
        end = min(time.monotonic() + timeout, self.deadline)
        while True:
            value = check()
            if value:
                return value
            if time.monotonic() >= end:
                raise TimeoutError(f"waited {timeout:.0f}s for {what}")
            await asyncio.sleep(POLL)

    async def slash(self, seat: Seat, run: TableRun, command: str,
                    options: dict[str, Any]) -> InteractionResult:
        res = await self.fake.slash(seat.user, run.channel, command, options)
        self.tally.slashes.append(res)
        return res

    async def click(self, seat: Seat, message: Message, custom_id: str) -> InteractionResult:
        res = await self.fake.click(seat.user, message, custom_id)
        self.tally.clicks.append(res)
        return res

    def table_message(self, run: TableRun) -> Message | None:
        """The table message: the channel's latest message with toep: buttons."""
        known = self.fake.store.messages.get(run.message_id or 0)
        if known is not None and not known.deleted and _enabled(known):
            return known
        for message in reversed(self.fake.channel_messages(run.channel)):
            if any(b.get("custom_id", "").startswith("toep:") for b in message.buttons()):
                run.message_id = message.id
                return message
        return None

    def table_button(self, run: TableRun, verb: str,
                     arg: str | None = None) -> tuple[Message, str] | None:
        message = self.table_message(run)
        if message is None:
            return None
        for button in _enabled(message):
            if _verb(button) == (verb, arg):
                return message, str(button["custom_id"])
        return None

    async def click_table(self, seat: Seat, run: TableRun, verb: str,
                          arg: str | None = None) -> InteractionResult:
        message, custom_id = await self.until(
            f"table {run.index}: a {verb} button", lambda: self.table_button(run, verb, arg))
        return await self.click(seat, message, custom_id)

    # --- one table ------------------------------------------------------------------

    async def play_table(self, run: TableRun) -> None:
        await asyncio.sleep(self.o.ramp * run.index / max(1, self.o.tables))
        await self.open_table(run)
        await self.play_people(run)

    async def open_table(self, run: TableRun) -> None:
        """The host opens a private table, the guest joins, two computer players sit
        down and the host starts: `run.table` is then a game in play."""
        run.created = time.monotonic()
        rules: dict[str, Any] = {"private": True, "limit": self.o.limit, **self.o.rules}
        if self.o.rounds is not None:
            rules["rounds"] = self.o.rounds
        await self.slash(run.host, run, "toep new", rules)
        bot = self.bots[run.cluster]
        # The command is acknowledged first; the table follows a moment later.
        run.table = await self.until(f"table {run.index}: the table of /toep new",
                                     lambda: bot.in_channel(run.channel.id))
        table = run.table
        await self.slash(run.host, run, "toep invite", {"member": run.guest.user})
        await self.click_table(run.guest, run, "join")
        await self.until(f"table {run.index}: guest seated",
                         lambda: table.seated(run.guest.user.id))
        for seats in (3, 4):
            await self.click_table(run.host, run, "addbot", "normal")
            await self.until(f"table {run.index}: {seats} seats", _seated(table, seats))
        await self.click_table(run.host, run, "start")
        await self.until(f"table {run.index}: started", lambda: table.status is not Status.LOBBY)

    async def play_people(self, run: TableRun) -> None:
        """Both people play the open table until its game is over (or time is up)."""
        table = run.table
        assert table is not None
        people = [asyncio.create_task(self.person(run, seat)) for seat in (run.host, run.guest)]
        try:
            await asyncio.gather(*people)
        finally:
            for task in people:
                task.cancel()
        if table.status is Status.FINISHED:
            run.finished = time.monotonic()

    async def person(self, run: TableRun, seat: Seat) -> None:
        table = run.table
        assert table is not None
        acted_on: tuple[int, str] | None = None  # (panel edits, custom_id) last clicked
        last: InteractionResult | None = None
        seen, seen_at = -1, time.monotonic()  # panel edits seen, and since when
        clicked: float | None = None  # when a click still waits to show on the panel
        choice: str | None = None
        while table.open and self.left() > 0:
            panel = seat.panel
            if panel is None or (last is not None and last.followups):
                if last is not None and last.followups:
                    self.tally.refused += 1  # "not your turn", "that moment has passed"
                    text = last.followups[0].content[:60]
                    self.tally.refusals[f"{_asked_for(last.record.payload)}: {text}"] += 1
                    last = None
                found = self.table_button(run, "hand")
                if found is None:
                    await asyncio.sleep(POLL)
                    continue
                try:
                    res = await self.click(seat, *found)
                except Unanswered:
                    continue  # "This interaction failed": try again
                self.tally.panel_reopens += 1
                # Past capacity the answer is "thinking" and the panel replaces
                # it: watched as a panel, it shows its buttons when it comes.
                thinking = res.ack_type == DEFERRED_ANSWER
                seat.panel = res.message if thinking or _is_panel(res.message) else None
                acted_on, seen, seen_at, clicked = None, -1, time.monotonic(), None
                if seat.panel is None:
                    await asyncio.sleep(0.5)
                continue
            edits = len(panel.edits)
            if edits != seen:
                seen, seen_at, clicked = edits, time.monotonic(), None
                choice = _choose(panel)  # look again only when the panel changed
            if choice is not None and (edits, choice) != acted_on:
                low, high = self.o.think
                await asyncio.sleep(self.rng.uniform(low, high))
                if not table.open or self.left() <= 0:
                    return
                if len(panel.edits) != edits:
                    continue  # the panel changed while thinking: look again
                try:
                    last = await self.click(seat, panel, choice)
                except CommandError:  # the button went away (a clock ran out...)
                    self.tally.vanished += 1
                    seat.panel = None
                    continue
                except Unanswered:  # the bot is away: "My hand" again, later
                    seat.panel = None
                    continue
                self.tally.human_actions += 1
                acted_on, clicked = (edits, choice), time.monotonic()
                continue
            now = time.monotonic()
            if (clicked is not None and now - clicked > STALL) or now - seen_at > IDLE_STALL:
                self.tally.stalls += 1
                seat.panel = None  # unchanged too long: press "My hand" again
                continue
            stall = IDLE_STALL - (now - seen_at)
            if clicked is not None:
                stall = min(stall, STALL - (now - clicked))
            # Woken by a change; at the latest once a second (the game may end).
            await seat.wait_change(min(LOOK_AGAIN, stall + POLL))

    # --- the run --------------------------------------------------------------------

    async def run(self) -> float:
        self.deadline = time.monotonic() + self.o.max_seconds
        started = time.monotonic()
        tasks = [asyncio.create_task(self.play_table(run)) for run in self.runs]
        results = await asyncio.gather(*tasks, return_exceptions=True)
        for run, result in zip(self.runs, results, strict=True):
            if isinstance(result, BaseException):
                self.tally.problems.add(f"table {run.index}: {result!r}")
        return time.monotonic() - started


def _seated(table: TableState, count: int) -> Callable[[], bool]:
    return lambda: len(table.seats) >= count


def _verb(button: dict[str, Any]) -> tuple[str | None, str | None]:
    try:
        decoded = decode(button.get("custom_id", ""))
    except ForgedId:
        return None, None
    return decoded.verb, decoded.arg


def _is_panel(message: Message | None) -> bool:
    """A hand panel: ephemeral, with its embed (and buttons while the seat has
    cards); a refusal is a line of text."""
    return message is not None and message.ephemeral and bool(
        message.embeds or message.buttons())


def _enabled(message: Message) -> list[dict[str, Any]]:
    return [b for b in message.buttons()
            if not b.get("disabled") and str(b.get("custom_id", "")).startswith("toep:")]


def _choose(panel: Message) -> str | None:
    """The custom_id of the first enabled game button of the panel, by PREFERRED."""
    options = [(str(b["custom_id"]), _verb(b)[0]) for b in _enabled(panel)]
    for verb in PREFERRED:
        for custom_id, found in options:
            if found == verb:
                return custom_id
    return None


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def _edit_figures(load: Load, ended: float) -> tuple[float, float, float | None]:
    """Mean and max table-message edits per second per table; the shortest gap."""
    by_channel: dict[int, list[float]] = {}
    for edit in load.fake.edit_log:
        if edit.route.startswith("PATCH /channels/"):
            by_channel.setdefault(edit.channel_id, []).append(edit.at)
    rates: list[float] = []
    gaps: list[float] = []
    for run in load.runs:
        times = sorted(by_channel.get(run.channel.id, []))
        gaps += [b - a for a, b in pairwise(times)]
        if not run.created:
            continue
        end = max([run.finished or ended, *times[-1:]])
        rates.append(len(times) / max(end - run.created, 1e-9))
    mean = sum(rates) / len(rates) if rates else 0.0
    return mean, max(rates, default=0.0), (min(gaps) if gaps else None)


def _kind(problem: str) -> str:
    """A problem without its numbers: for counting problems of one kind."""
    return "".join("#" if ch.isdigit() else ch for ch in problem)[:90]


def _late_by_time(fake: FakeDiscord, every: float = 15.0) -> dict[str, int]:
    """Unacknowledged interactions by when they were sent, in `every`-second
    steps from the first: a start-up burst or a steady state past capacity."""
    records = list(fake.store.interactions.values())
    start = min((r.created for r in records), default=0.0)
    late = Counter(int((r.created - start) // every) for r in records if r.ack_type is None)
    return {f"{step * every:.0f}s": late[step] for step in sorted(late)}


def _full_collections_from_start(lag: dict[str, Any], fake: FakeDiscord) -> dict[str, Any]:
    """`lag` with its full collections' times in seconds from the first
    interaction, as `unacknowledged_by_time` counts: a burst of late clicks
    lines up with a collection, or not."""
    start = min((r.created for r in fake.store.interactions.values()), default=0.0)
    collections = lag.get("gc", {})
    if "full_at" not in collections:
        return lag
    at = [round(moment - start, 1) for moment in collections["full_at"]]
    return {**lag, "gc": {**collections, "full_at": at}}


def _asked_for(payload: dict[str, Any]) -> str:
    """What an interaction asked: a slash command's name, a button's verb."""
    data = payload.get("data") or {}
    if "name" in data:
        sub = [o["name"] for o in data.get("options") or () if o.get("type") in (1, 2)]
        return " ".join([f"/{data['name']}", *sub[:1]])
    parts = str(data.get("custom_id", "?")).split(":")
    return parts[2] if len(parts) > 2 else parts[0]


def _late_by_kind(fake: FakeDiscord) -> dict[str, int]:
    """Unacknowledged interactions by what they asked (a command, a button's verb)."""
    late = Counter(_asked_for(r.payload) for r in fake.store.interactions.values()
                   if r.ack_type is None)
    return dict(late.most_common())


def report(load: Load, wall: float, ended: float) -> dict[str, Any]:
    fake, tally = load.fake, load.tally
    clicks = [r.ack_delay * 1000 for r in tally.clicks if r.ack_delay is not None]
    slashes = [r.ack_delay * 1000 for r in tally.slashes if r.ack_delay is not None]
    unacked = sum(1 for r in fake.store.interactions.values() if r.ack_type is None)
    waits = [(r.created - r.asked) * 1000 for r in fake.store.interactions.values()]
    mean_edits, max_edits, min_gap = _edit_figures(load, ended)
    problems = list(tally.problems.texts)
    problems += [f"fake: {e}"[:300] for e in fake.errors]
    problems += [f"rejected {r.method} {r.path}: {r.status} {r.code} {r.message}"[:300]
                 for r in fake.rejections]
    problems += [f"{method} {path}: {status}" for _, method, path, status in fake.store.requests
                 if status >= 500]
    finished = sum(1 for r in load.runs if r.table is not None
                   and r.table.status is Status.FINISHED)
    hits = Counter(h.bucket for h in fake.rate_limit_hits)
    return {
        "tables": len(load.runs),
        "games_finished": finished,
        "wall_s": round(wall, 1),
        "clicks": len(tally.clicks),
        "human_actions": tally.human_actions,
        "panel_reopens": tally.panel_reopens,
        "refused_clicks": tally.refused,
        "refusals": dict(tally.refusals.most_common(8)),
        "stalled_panels": tally.stalls,
        "vanished_buttons": tally.vanished,
        "ack_p50_ms": round(percentile(clicks, 0.50), 1),
        "ack_p99_ms": round(percentile(clicks, 0.99), 1),
        "ack_max_ms": round(max(clicks, default=0.0), 1),
        "slash_commands": len(tally.slashes),
        "slash_ack_p99_ms": round(percentile(slashes, 0.99), 1),
        "unacknowledged": unacked,
        "unacknowledged_by_time": _late_by_time(fake),
        "unacknowledged_by_kind": _late_by_kind(fake),
        "gateway_wait_p99_ms": round(percentile(waits, 0.99), 1),
        "gateway_wait_max_ms": round(max(waits, default=0.0), 1),
        "edits_per_table_per_s": round(mean_edits, 3),
        "edits_per_table_per_s_max": round(max_edits, 3),
        "edit_gap_min_ms": None if min_gap is None else round(min_gap * 1000, 1),
        "rate_limit_hits": dict(sorted(hits.items())),
        "rate_limited_retries": tally.problems.rate_limited_retries,
        "benign_warnings": tally.problems.benign_warnings,
        "load_warnings": tally.problems.load_warnings,
        "bot_load": _full_collections_from_start(load.bot.load, fake),
        "world_load": tally.world_lag.to_json(),
        "errors": len(problems),
        "error_samples": problems[:8],
        "error_kinds": dict(Counter(_kind(p) for p in problems).most_common(12)),
        "table_status": dict(Counter(
            f"{r.table.status.value}:{r.table.end_reason}" if r.table else "none"
            for r in load.runs)),
        "bot_pause_s": load.o.bot_pause,
        "think_s": list(load.o.think),
        "limit": load.o.limit,
        "rounds": load.o.rounds,
        "targets_met": bool(
            percentile(clicks, 0.99) < TARGET_ACK_P99_MS and unacked == 0
            and mean_edits <= TARGET_EDITS_PER_S),
    }


@contextlib.contextmanager
def young_collections_only() -> Iterator[None]:
    """No full garbage collections in the world's process while the run lasts.

    The fake keeps every message, edit, request and interaction, so the world's
    heap only grows, and each full collection walks all of it: pauses of the
    fake's event loop of 0.1 to 0.3 s at 100 tables, measured as acknowledgement
    time though real Discord pauses for no garbage collector of ours. The young
    generations are still collected, and one full collection follows the run
    (unretrieved exceptions are reported then). The bot's process is left alone:
    its pauses are its own."""
    previous = gc.get_threshold()
    gc.set_threshold(previous[0], previous[1], 1 << 30)  # gen 2: never, in practice
    try:
        yield
    finally:
        gc.set_threshold(*previous)
        gc.collect()


@contextlib.asynccontextmanager
async def world_lag_followed(tally: Tally) -> AsyncIterator[None]:
    """This process's event-loop lag (the fake's and the people's) into
    `tally.world_lag` while the block runs."""
    gauge = LoadGauge()
    gauge.start()
    following = asyncio.create_task(tally.world_lag.follow(gauge))
    try:
        with tally.world_lag.collector:
            yield
    finally:
        following.cancel()
        await gauge.stop()


async def run(options: Options) -> dict[str, Any]:
    tally = Tally()
    with (watching(tally.problems), young_collections_only(),
          tempfile.TemporaryDirectory(prefix="toep-e2e-load-") as folder):
        path = options.database or Path(folder) / "toep.sqlite3"
        async with FakeDiscord(token=TOKEN) as fake:
            bot = BotProcess()
            load = Load(options, fake, tally, bot)
            load.build()
            reviews = None
            if options.reviews:
                reviews = ReviewLoad(fake, load.guild, options.reviews)
                await reviews.seed(path)
            try:
                async with world_lag_followed(tally):
                    await load.start_bot(path)
                    if reviews is not None:
                        reviews.start()
                    wall = await load.run()
                    ended = time.monotonic()
                    reviewed = {} if reviews is None else await reviews.finish()
            finally:
                # What closing shows still counts; the fake serves until the bot is gone.
                tally.problems.merge(await bot.close())
                bot.kill()
            return report(load, wall, ended) | reviewed


def _profile_summary(path: Path, top: int = 25) -> str:
    stats = pstats.Stats(str(path))
    raw: dict[tuple[str, int, str], tuple[Any, ...]] = stats.stats  # type: ignore[attr-defined]
    parts: Counter[str] = Counter()
    total = 0.0
    for (filename, _, _), (_, _, own, _, _) in raw.items():
        parts[_part(filename)] += own
        total += own
    out = io.StringIO()
    out.write(f"own time by part (of {total:.1f} s on the bot process's loop thread):\n")
    for part, seconds in parts.most_common():
        out.write(f"  {part:<22} {seconds:8.1f} s {100 * seconds / max(total, 1e-9):5.1f} %\n")
    stats.stream = out  # type: ignore[attr-defined]
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


def _part(filename: str) -> str:
    name = filename.replace("\\", "/")
    for marker, part in (("tests/e2e/fake_discord", "fake discord"),
                         ("site-packages/discord/", "discord.py"),
                         ("site-packages/aiohttp", "aiohttp"), ("site-packages/yarl", "aiohttp"),
                         ("site-packages/multidict", "aiohttp"),
                         ("site-packages/aiosqlite", "aiosqlite"),
                         ("site-packages/asyncpg", "asyncpg"), ("/cogs/", "bot cogs"),
                         ("/tables/", "bot tables"), ("/engine/", "engine"), ("/data/", "bot data"),
                         ("/bench/", "bench driver"), ("asyncio/", "asyncio"), ("ssl", "ssl"),
                         ("json", "json"), ("zlib", "zlib")):
        if marker in name:
            return part
    if name.startswith("~") or name.startswith("<"):
        return "builtins"
    return "other"


def parse(argv: Sequence[str] | None) -> tuple[Options, bool]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--limit", type=int, default=5, help="marks to lose (5-30)")
    parser.add_argument("--rounds", type=int, default=None,
                        help="a game of this many rounds (V6) instead of until one is left")
    parser.add_argument("--bot-pause", type=float, default=0.3)
    parser.add_argument("--think", type=float, nargs=2, default=(0.3, 1.0),
                        metavar=("MIN", "MAX"), help="a person's thinking time, seconds")
    parser.add_argument("--ramp", type=float, default=0.0,
                        help="spread the tables' starts over this many seconds")
    parser.add_argument("--max-seconds", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", metavar="FILE", type=Path,
                        help="cProfile the bot's process (its loop's thread); dump to FILE")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--reviews", type=int, default=0, metavar="N",
                        help="N players ask for reviews meanwhile (bench/e2e_reviews.py)")
    cluster = parser.add_argument_group("clusters (bench/e2e_cluster.py)")
    cluster.add_argument("--clusters", type=int, default=1, help="bot processes")
    cluster.add_argument("--shard-count", type=int, default=None,
                         help="shards, spread over the clusters (default: not sharded)")
    cluster.add_argument("--database", choices=BACKENDS, default="sqlite",
                         help="one SQLite file, or a PostgreSQL server of the run's own")
    cluster.add_argument("--kill-cluster", type=int, default=None, metavar="K",
                         help="SIGKILL cluster K mid-run and start it again")
    cluster.add_argument("--kill-after", type=float, default=Options.kill_after,
                         metavar="SECONDS", help="when: this long after the last game started")
    args = parser.parse_args(argv)
    options = Options(tables=args.tables, limit=args.limit, rounds=args.rounds,
                      bot_pause=args.bot_pause,
                      think=(args.think[0], args.think[1]), ramp=args.ramp,
                      max_seconds=args.max_seconds, seed=args.seed,
                      profile=args.profile, clusters=args.clusters,
                      shard_count=args.shard_count, backend=args.database,
                      kill_cluster=args.kill_cluster, kill_after=args.kill_after,
                      reviews=args.reviews)
    if options.reviews and options.clustered:
        parser.error("--reviews runs with one bot process on SQLite only")
    if options.clustered:
        from bench.e2e_cluster import problem  # it builds on this module

        if (wrong := problem(options)) is not None:
            parser.error(wrong)
    return options, bool(args.json)


def main(argv: Sequence[str] | None = None) -> None:
    options, as_json = parse(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    if options.clustered:
        from bench import e2e_cluster  # it builds on this module

        result = asyncio.run(e2e_cluster.run(options))
    else:
        result = asyncio.run(run(options))
    if options.profile is not None:
        for cluster in range(options.clusters) if options.clustered else [None]:
            path = options.profile.with_name(
                options.profile.name + ("" if cluster is None else f".{cluster}"))
            summary = (_profile_summary(path) if path.exists()
                       else "no profile: the bot's process did not end by itself")
            print(f"{path}:\n{summary}", file=sys.stderr)
    print_result(result, as_json)


def print_result(result: dict[str, Any], as_json: bool) -> None:
    """One JSON object, or a figure a line."""
    if as_json:
        print(json.dumps(result))
        return
    for key, value in result.items():
        print(f"{key:>28}: {value}")


if __name__ == "__main__":
    main()
