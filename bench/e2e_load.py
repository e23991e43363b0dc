"""Load through the fake Discord: many tables at once, people clicking, the real bot.

    python bench/e2e_load.py [--tables 100] [--limit 5] [--rounds N] [--bot-pause 0.3]
                             [--think 0.3 1.0] [--ramp 0] [--max-seconds 600]
                             [--seed 1] [--profile FILE] [--json]

The unmodified bot (`create_bot(Settings(...), connector=fake.connector(), ...)`,
a real database file in a temporary folder, `TableConfig(bot_pause=--bot-pause)`)
talks to the fake Discord of tests/e2e/ with Discord's rate limits at their
defaults (`RateLimitConfig()`: 5 messages and 5 edits per 5 s per channel, 5
webhook requests per 2 s per interaction token); discord.py waits out every 429
itself. Both run in this one process, on one event loop (the computer players
think in the bot's executor threads).

Every table has its own channel and two scripted people. The host runs
`/toep new private:true limit:--limit` and `/toep invite` for the guest; the
guest clicks Join, the host adds two `normal` computer players and starts.
Then each person plays like a person: press "My hand" on the table message,
watch that ephemeral panel (the bot keeps it up to date), and when it shows an
enabled game button, think for a moment (`--think`, uniform) and click the
first of PREFERRED. After a click the person waits until the panel changes;
if it stays the same for STALL seconds, or a click was refused, they press
"My hand" again (`panel_reopens`).

Figures (`--json` prints one object):

- `ack_p50_ms`, `ack_p99_ms`, `ack_max_ms`: time from a button click to its
  acknowledgement, as the fake measures it (`InteractionResult.ack_delay`:
  from dispatch on the gateway to the accepted callback). `clicks` counts
  button clicks; slash commands are reported apart (`slash_ack_p99_ms`).
- `unacknowledged`: interactions (clicks and slash commands) never
  acknowledged in time, by the fake's own records.
- `edits_per_table_per_s`: accepted edits of channel messages (PATCH
  /channels/.../messages/..., i.e. the table message; hand panels are webhook
  edits and not counted) per table, divided by the time that table was alive
  (from `/toep new` until the game was seen finished, or the end of the run),
  averaged over tables; `..._max` for the busiest table and
  `edit_gap_min_ms`, the shortest time between two such edits in one channel.
- `games_finished`, `tables`, `wall_s`, `human_actions`, `panel_reopens`.
- `errors`: the number of things that should not happen: the fake's `errors`,
  4xx rejections (a late or double acknowledgement, an unknown webhook...),
  5xx answers, log records at WARNING or above (discord.py's "being rate
  limited" warnings excepted: they are counted in `rate_limited_retries`),
  unretrieved asyncio exceptions and exceptions in the scripted people.
  `error_samples` shows the first few. `rate_limit_hits` (by bucket) are the
  429s the fake answered: not errors, the bot lives with them.

`--profile FILE` runs the whole thing under cProfile (the event loop's thread
only) and prints the functions with most own time and the time per part
(fake Discord, discord.py, aiohttp, bot cogs, tables, engine, data, ...) to
stderr.

Figures only; nothing here asserts. Targets (issue 5): p99 ack under 250 ms,
no interaction unacknowledged, at most one table-message edit per second per
table on average.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import logging
import pstats
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import ToepBot, create_bot
from cogs.ids import ForgedId, decode
from config import Settings
from tables.snapshot import Status
from tables.table import Table, TableConfig
from tests.e2e.fake_discord import (
    Channel,
    CommandError,
    FakeDiscord,
    InteractionResult,
    Message,
    User,
)

log = logging.getLogger(__name__)

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz012345"
# What a careful player answers when asked (as tests/e2e/toep_world.py).
PREFERRED = ("pass", "call", "play_in", "super_no", "play", "check", "vuile_was", "toep",
             "fold", "sit_out", "believe", "super_yes")
STALL = 6.0  # seconds a panel may stay unchanged after a click before "My hand" again
POLL = 0.1  # how often a person looks at the screen
TARGET_ACK_P99_MS = 250.0
TARGET_EDITS_PER_S = 1.0
_RATE_LIMIT_LOG = ("We are being rate limited", "Global rate limit")
# Not problems: voice libraries this bot never needs, and discord.py's keep-alive race
# (its thread notes the send time after the send; the fake, on the same loop, acks at
# once, so the ack can land first and the "latency" reads as one heartbeat interval).
_BENIGN_LOG = ("PyNaCl is not installed", "davey is not installed", "Can't keep up")


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


@dataclass
class Seat:
    user: User
    panel: Message | None = None


@dataclass
class TableRun:
    index: int
    channel: Channel
    host: Seat
    guest: Seat
    table: Table | None = None
    message_id: int | None = None
    created: float = 0.0
    finished: float | None = None


@dataclass
class Tally:
    clicks: list[InteractionResult] = field(default_factory=list)
    slashes: list[InteractionResult] = field(default_factory=list)
    human_actions: int = 0
    panel_reopens: int = 0
    refused: int = 0
    stalls: int = 0
    vanished: int = 0
    problems: list[str] = field(default_factory=list)
    rate_limited_retries: int = 0
    benign_warnings: int = 0


class _Watch(logging.Handler):
    """Log records at WARNING or above are problems; discord.py's 429 retries are counted."""

    def __init__(self, tally: Tally) -> None:
        super().__init__(logging.WARNING)
        self.tally = tally

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if text.startswith(_RATE_LIMIT_LOG):
            self.tally.rate_limited_retries += 1
            return
        if text.startswith(_BENIGN_LOG):
            self.tally.benign_warnings += 1
            return
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({record.exc_info[1]!r})"
        self.tally.problems.append(f"log {record.name}: {text}"[:300])


class Load:
    def __init__(self, options: Options, fake: FakeDiscord, tally: Tally) -> None:
        self.o = options
        self.fake = fake
        self.tally = tally
        self.rng = random.Random(options.seed)
        self.bot: ToepBot | None = None
        self.deadline = 0.0
        self.runs: list[TableRun] = []

    # --- the world ------------------------------------------------------------------

    def build(self) -> None:
        guild = self.fake.add_guild("Café de Toep", locale="en-US")
        for i in range(self.o.tables):
            channel = self.fake.add_channel(guild, f"toepen-{i}")
            host = self.fake.add_user(f"host{i}", guild=guild)
            guest = self.fake.add_user(f"guest{i}", guild=guild)
            self.runs.append(TableRun(i, channel, Seat(host), Seat(guest)))

    async def start_bot(self, path: Path) -> asyncio.Task[None]:
        bot = create_bot(Settings(discord_token=TOKEN, database_path=path),
                         connector=self.fake.connector(), guild_ready_timeout=0.05,
                         table_config=TableConfig(bot_pause=self.o.bot_pause))
        self.bot = bot
        task = asyncio.create_task(bot.start(TOKEN))
        await self.fake.wait_ready(30.0)
        await self.fake.wait_commands("toep", timeout=30.0)
        while not bot.is_ready():
            if task.done():
                task.result()
            await asyncio.sleep(0.01)
        return task

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
        assert self.bot is not None
        run.created = time.monotonic()
        rules: dict[str, Any] = {"private": True, "limit": self.o.limit}
        if self.o.rounds is not None:
            rules["rounds"] = self.o.rounds
        await self.slash(run.host, run, "toep new", rules)
        bot = self.bot
        # The command is acknowledged first; the table follows a moment later.
        run.table = await self.until(f"table {run.index}: the table of /toep new",
                                     lambda: bot.manager.in_channel(run.channel.id))
        table = run.table
        await self.slash(run.host, run, "toep invite", {"member": run.guest.user})
        await self.click_table(run.guest, run, "join")
        await self.until(f"table {run.index}: guest seated",
                         lambda: table.seat_of(run.guest.user.id) is not None)
        for seats in (3, 4):
            await self.click_table(run.host, run, "addbot", "normal")
            await self.until(f"table {run.index}: {seats} seats", _seated(table, seats))
        await self.click_table(run.host, run, "start")
        await self.until(f"table {run.index}: started", lambda: table.status is not Status.LOBBY)
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
        seen, since = -1, time.monotonic()  # panel edits seen, and since when
        choice: str | None = None
        while table.open and self.left() > 0:
            panel = seat.panel
            if panel is None or (last is not None and last.followups):
                if last is not None and last.followups:
                    self.tally.refused += 1  # "not your turn", "that moment has passed"
                    last = None
                found = self.table_button(run, "hand")
                if found is None:
                    await asyncio.sleep(POLL)
                    continue
                res = await self.click(seat, *found)
                self.tally.panel_reopens += 1
                message = res.message
                seat.panel = message if (message is not None and message.ephemeral
                                         and message.buttons()) else None
                acted_on, seen, since = None, -1, time.monotonic()
                if seat.panel is None:
                    await asyncio.sleep(0.5)
                continue
            edits = len(panel.edits)
            if edits != seen:
                seen, since = edits, time.monotonic()
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
                self.tally.human_actions += 1
                acted_on, since = (edits, choice), time.monotonic()
                continue
            if time.monotonic() - since > STALL:
                self.tally.stalls += 1
                seat.panel = None  # unchanged too long: press "My hand" again
                continue
            await asyncio.sleep(POLL)

    # --- the run --------------------------------------------------------------------

    async def run(self) -> float:
        self.deadline = time.monotonic() + self.o.max_seconds
        started = time.monotonic()
        tasks = [asyncio.create_task(self.play_table(run)) for run in self.runs]
        results = await asyncio.gather(*tasks, return_exceptions=True)
        for run, result in zip(self.runs, results, strict=True):
            if isinstance(result, BaseException):
                self.tally.problems.append(f"table {run.index}: {result!r}"[:300])
        return time.monotonic() - started


def _seated(table: Table, count: int) -> Callable[[], bool]:
    return lambda: len(table.seats) >= count


def _verb(button: dict[str, Any]) -> tuple[str | None, str | None]:
    try:
        decoded = decode(button.get("custom_id", ""))
    except ForgedId:
        return None, None
    return decoded.verb, decoded.arg


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


def _percentile(values: Sequence[float], q: float) -> float:
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


def report(load: Load, wall: float, ended: float) -> dict[str, Any]:
    fake, tally = load.fake, load.tally
    clicks = [r.ack_delay * 1000 for r in tally.clicks if r.ack_delay is not None]
    slashes = [r.ack_delay * 1000 for r in tally.slashes if r.ack_delay is not None]
    unacked = sum(1 for r in fake.store.interactions.values() if r.ack_type is None)
    mean_edits, max_edits, min_gap = _edit_figures(load, ended)
    problems = list(tally.problems)
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
        "stalled_panels": tally.stalls,
        "vanished_buttons": tally.vanished,
        "ack_p50_ms": round(_percentile(clicks, 0.50), 1),
        "ack_p99_ms": round(_percentile(clicks, 0.99), 1),
        "ack_max_ms": round(max(clicks, default=0.0), 1),
        "slash_commands": len(tally.slashes),
        "slash_ack_p99_ms": round(_percentile(slashes, 0.99), 1),
        "unacknowledged": unacked,
        "edits_per_table_per_s": round(mean_edits, 3),
        "edits_per_table_per_s_max": round(max_edits, 3),
        "edit_gap_min_ms": None if min_gap is None else round(min_gap * 1000, 1),
        "rate_limit_hits": dict(sorted(hits.items())),
        "rate_limited_retries": tally.rate_limited_retries,
        "benign_warnings": tally.benign_warnings,
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
            _percentile(clicks, 0.99) < TARGET_ACK_P99_MS and unacked == 0
            and mean_edits <= TARGET_EDITS_PER_S),
    }


async def run(options: Options) -> dict[str, Any]:
    tally = Tally()
    watch = _Watch(tally)
    logging.getLogger().addHandler(watch)
    loop = asyncio.get_running_loop()
    previous = loop.get_exception_handler()
    loop.set_exception_handler(
        lambda _, context: tally.problems.append(f"asyncio: {context.get('message')} "
                                                 f"{context.get('exception')!r}"[:300]))
    try:
        with tempfile.TemporaryDirectory(prefix="toep-e2e-load-") as folder:
            path = options.database or Path(folder) / "toep.sqlite3"
            async with FakeDiscord(token=TOKEN) as fake:
                load = Load(options, fake, tally)
                load.build()
                bot_task = await load.start_bot(path)
                try:
                    wall = await load.run()
                    ended = time.monotonic()
                finally:
                    assert load.bot is not None
                    await load.bot.close()  # what closing shows still counts
                    await asyncio.gather(bot_task, return_exceptions=True)
                return report(load, wall, ended)
    finally:
        logging.getLogger().removeHandler(watch)
        loop.set_exception_handler(previous)


def _profile_summary(profile: cProfile.Profile, top: int = 25) -> str:
    stats = pstats.Stats(profile)
    raw: dict[tuple[str, int, str], tuple[Any, ...]] = stats.stats  # type: ignore[attr-defined]
    parts: Counter[str] = Counter()
    total = 0.0
    for (filename, _, _), (_, _, own, _, _) in raw.items():
        parts[_part(filename)] += own
        total += own
    out = io.StringIO()
    out.write(f"own time by part (of {total:.1f} s on the loop's thread):\n")
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
                         ("site-packages/aiosqlite", "aiosqlite"), ("/cogs/", "bot cogs"),
                         ("/tables/", "bot tables"), ("/engine/", "engine"), ("/data/", "bot data"),
                         ("/bench/", "bench driver"), ("asyncio/", "asyncio"), ("ssl", "ssl"),
                         ("json", "json"), ("zlib", "zlib")):
        if marker in name:
            return part
    if name.startswith("~") or name.startswith("<"):
        return "builtins"
    return "other"


def parse(argv: Sequence[str] | None) -> tuple[Options, bool, str | None]:
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
    parser.add_argument("--profile", metavar="FILE", help="cProfile the run; dump to FILE")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    options = Options(tables=args.tables, limit=args.limit, rounds=args.rounds,
                      bot_pause=args.bot_pause,
                      think=(args.think[0], args.think[1]), ramp=args.ramp,
                      max_seconds=args.max_seconds, seed=args.seed)
    return options, bool(args.json), args.profile


def main(argv: Sequence[str] | None = None) -> None:
    options, as_json, profile_path = parse(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    profile = cProfile.Profile() if profile_path else None
    if profile is not None:
        profile.enable()
    result = asyncio.run(run(options))
    if profile is not None and profile_path:
        profile.disable()
        profile.dump_stats(profile_path)
        print(_profile_summary(profile), file=sys.stderr)
    if as_json:
        print(json.dumps(result))
        return
    for key, value in result.items():
        print(f"{key:>28}: {value}")


if __name__ == "__main__":
    main()
