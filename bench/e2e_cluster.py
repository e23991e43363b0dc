"""bench/e2e_load.py with clusters: several bot processes, each owning some shards,
on one database; and one of them crashing mid-run.

    python bench/e2e_load.py --clusters 2 --shard-count 4 --database postgres \\
                             --tables 200 [--kill-cluster 1] [--kill-after 20] [--json]

The world is bench/e2e_load.py's (reused, not copied): the fake Discord in this
process, now with `--shard-count` shards, and the scripted people. The guilds are
spread over the shards (TABLES_PER_GUILD tables a guild, as many guilds on every
shard), and each table is in a guild. `--clusters` bot processes
(bench/e2e_bot.py) each get a contiguous share of the shards (SHARD_COUNT,
SHARD_IDS: with 4 shards and 2 clusters, 0-1 and 2-3) and one database for all:
an SQLite file, or with `--database postgres` a PostgreSQL server started for the
run (bench/places.py, as bench/soak.py's). A table is driven by the cluster of its
guild's shard, and the people read its seats and status from that process.

`--kill-cluster K`: `--kill-after` seconds after the last table's game started,
cluster K's process is SIGKILLed (a crash: no goodbye, its leases stay behind)
and started again at once with the same settings. The new process takes its
shards' leases over (their holder no longer runs on this machine), restores their
tables and drives them on.

Figures: those of bench/e2e_load.py over all clusters, and

- `per_cluster`: for each cluster its shards, tables, games_finished, clicks,
  ack_p50_ms / ack_p99_ms / ack_max_ms and unacknowledged (by the fake's records,
  of the interactions in its guilds), and `bot_load`, its event-loop lag
  (bench/e2e_load.py's `bot_load` is cluster 0's; after a kill, the new process's);
- with `--kill-cluster`: `killed_games_finished` of `killed_tables`;
  `restart_to_ready_ms` (from the new process's start to its "ready") and
  `restart_to_first_ack_ms` (from its start to the first acknowledged click on
  one of its tables); `others_ack_max_ms` and `others_acks_over_3s` (the other
  clusters' tables: the latter counts clicks acknowledged after 3 s or never),
  and `others_ack_p99_ms_in_outage` / `..._max_ms_...` for their clicks from the
  kill until the new process was ready;
  `lease_takeovers`, the new process's "took over the lease" warnings, and
  `deleted_again_after_kill`, its deletes of turn pings the killed process had
  deleted just before it died (404 Unknown Message, which the bot expects): both
  are what a crash leaves behind, and so are not counted as errors.
- `cpu` (bench/cpu.py): CPU seconds from the bots' start to their close, of
  this process (the fake Discord and the people), of the bot processes (all of
  them, the killed one too), of the PostgreSQL server, and the whole machine's
  busy share (others' work included; `machine_niced_pct` of it at a lowered
  priority, which yields to ours; `machine_stolen_pct` taken by the virtual
  machine's host): to tell a slow bot from a full machine.

What a person does in the outage, and how it is counted. While no process serves
a guild's shard, Discord has nobody to deliver a click to: the person waits out
the 3 seconds and sees "This interaction failed". The scripted people do the
same (the fake refuses to dispatch an interaction on a shard without a live
connection, so the bench looks first): they wait the 3 s, then a moment more,
and press "My hand" again, until the bot answers. Those clicks are
`clicks_during_outage`: they are not in `clicks` or the acknowledgement times
(no bot ever saw them, there is no time to measure) and not in `unacknowledged`
(the fake's records of interactions it delivered); they are their own figure, so
that the outage is neither hidden in the bot's figures nor left out.
`unacknowledged_at_kill` counts, of `unacknowledged`, the killed cluster's clicks
made from 3 seconds before the kill until its new process started: those the
killed process died before answering, and those the fake delivered on its dead
connection in the moment before it saw the connection close (a few a run, made
1-30 ms after the kill). Nobody could answer them. Any other unacknowledged click
is the bot's fault.

Figures only; nothing here asserts. Targets (issue 13): games_finished = tables,
errors 0, unacknowledged 0 (apart from `unacknowledged_at_kill`), ack_p99_ms
under 250; with a kill, the killed cluster's games all finish and no click of the
other clusters is acknowledged after 3 s.
"""

from __future__ import annotations

import asyncio
import math
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.cpu import CpuMeter
from bench.e2e_load import (
    BOT_READY_TIMEOUT,
    BotProcess,
    Load,
    Options,
    Seat,
    TableRun,
    Tally,
    Unanswered,
    percentile,
    report,
    world_lag_followed,
    young_collections_only,
)
from bench.e2e_wire import TOKEN, BotConfig, watching
from bench.places import Places
from tables.snapshot import Status
from tests.e2e.fake_discord import FakeDiscord, InteractionResult, Message
from tests.e2e.fake_discord.interactions import InteractionRecord

TABLES_PER_GUILD = 10
TAKEOVER = "took over the lease of"  # the restarted process's warning (data/lease.py)
ACK_LIMIT_S = 3.0
UNKNOWN_MESSAGE = 10008  # Discord's error code


def shard_shares(shard_count: int, clusters: int) -> list[tuple[int, ...]]:
    """Each cluster's contiguous share of the shards, as even as can be."""
    return [tuple(range(c * shard_count // clusters, (c + 1) * shard_count // clusters))
            for c in range(clusters)]


def problem(options: Options) -> str | None:
    """What is wrong with the cluster options, in words; None if they can be run."""
    if options.clusters < 1:
        return "--clusters must be at least 1"
    if options.shard_count is None:
        if options.clusters > 1:
            return "--clusters needs --shard-count (each cluster owns some shards)"
    elif not options.clusters <= options.shard_count <= 64:
        return "--shard-count must be from --clusters (each owns one at least) to 64"
    if options.kill_cluster is not None and not 0 <= options.kill_cluster < options.clusters:
        return f"--kill-cluster must be a cluster, 0 to {options.clusters - 1}"
    if options.kill_after < 0:
        return "--kill-after must not be negative"
    return None


@dataclass
class Kill:
    """When the killed cluster went down and came back (monotonic seconds)."""

    cluster: int
    killed: float
    spawned: float = math.inf
    ready: float = math.inf


class ClusterLoad(Load):
    def __init__(self, options: Options, fake: FakeDiscord, tally: Tally,
                 bots: Sequence[BotProcess], database: str) -> None:
        super().__init__(options, fake, tally, *bots)
        self.database = database
        self.shares = (shard_shares(options.shard_count, options.clusters)
                       if options.shard_count is not None else [()])
        self.guild_cluster: dict[int, int] = {}
        self.opened = 0  # tables whose opening is over (well or not)
        self.all_open = asyncio.Event()
        self.kill: Kill | None = None
        self.started = 0.0

    # --- the world ------------------------------------------------------------------

    def build(self) -> None:
        count = self.o.shard_count
        if count is None:
            super().build()
            return
        per_shard = max(1, math.ceil(self.o.tables / (count * TABLES_PER_GUILD)))
        guilds = [self.fake.add_guild(f"Café {g}", locale="en-US", shard=(g % count, count))
                  for g in range(count * per_shard)]
        cluster_of = {shard: c for c, share in enumerate(self.shares) for shard in share}
        for guild in guilds:
            self.guild_cluster[guild.id] = cluster_of[(guild.id >> 22) % count]
        for i in range(self.o.tables):
            guild = guilds[i % len(guilds)]
            channel = self.fake.add_channel(guild, f"toepen-{i}")
            host = self.fake.add_user(f"host{i}", guild=guild)
            guest = self.fake.add_user(f"guest{i}", guild=guild)
            self.runs.append(TableRun(i, channel, Seat(host), Seat(guest),
                                      cluster=self.guild_cluster[guild.id]))

    def config(self, cluster: int) -> BotConfig:
        profile = None if self.o.profile is None else f"{self.o.profile.resolve()}.{cluster}"
        share = list(self.shares[cluster])
        return BotConfig(port=self.fake.port, ca_pem=self.fake.ca_pem, database=self.database,
                         bot_pause=self.o.bot_pause, profile=profile,
                         shard_count=self.o.shard_count, shard_ids=share or None)

    async def start_bots(self) -> None:
        """Every cluster's process, all at once (they share the database's migration)."""
        for cluster, bot in enumerate(self.bots):
            await bot.start(self.config(cluster))
        await asyncio.gather(*(bot.wait_ready(BOT_READY_TIMEOUT) for bot in self.bots))
        await self.fake.wait_ready(30.0)
        await self.fake.wait_commands("toep", timeout=30.0)

    def cluster_of(self, record: InteractionRecord) -> int:
        """The cluster whose guild an interaction was in."""
        return self.guild_cluster.get(record.guild_id or 0, 0)

    # --- people and an outage ---------------------------------------------------------

    async def open_table(self, run: TableRun) -> None:
        try:
            await super().open_table(run)
        finally:
            self.opened += 1
            if self.opened == len(self.runs):
                self.all_open.set()

    async def click(self, seat: Seat, message: Message, custom_id: str) -> InteractionResult:
        guild_id = self.fake.store.channels[message.channel_id].guild_id
        # Looked at just before the fake's own look, with nothing awaited between.
        if not self.fake.gateway.live_sessions(guild_id):
            self.tally.unanswered += 1
            low, high = self.o.think
            await asyncio.sleep(ACK_LIMIT_S + self.rng.uniform(low, high))
            raise Unanswered
        return await super().click(seat, message, custom_id)

    async def crash_one(self, cluster: int) -> None:
        """When the games are under way: SIGKILL the cluster's process, start it again."""
        await self.all_open.wait()
        await asyncio.sleep(self.o.kill_after)
        bot = self.bots[cluster]
        self.kill = kill = Kill(cluster, time.monotonic())
        await bot.crash()
        kill.spawned = time.monotonic()
        await bot.start(self.config(cluster))
        await bot.wait_ready(BOT_READY_TIMEOUT)
        kill.ready = time.monotonic()

    async def run(self) -> float:
        self.started = time.monotonic()
        if self.o.kill_cluster is None:
            return await super().run()
        crash = asyncio.create_task(self.crash_one(self.o.kill_cluster))
        try:
            wall = await super().run()
        finally:
            if not crash.done():
                crash.cancel()
                self.tally.problems.add("the games ended before the cluster was killed")
        if not crash.cancelled() and crash.exception() is not None:
            self.tally.problems.add(f"killing the cluster: {crash.exception()!r}")
        return wall


# --- figures ------------------------------------------------------------------------


def _ack_figures(records: Sequence[InteractionRecord]) -> dict[str, Any]:
    times = [r.ack_delay * 1000 for r in records if r.ack_delay is not None]
    return {"clicks": len(records),
            "ack_p50_ms": round(percentile(times, 0.50), 1),
            "ack_p99_ms": round(percentile(times, 0.99), 1),
            "ack_max_ms": round(max(times, default=0.0), 1)}


def _unacked(records: Sequence[InteractionRecord]) -> int:
    return sum(1 for r in records if r.ack_type is None)


def cluster_figures(load: ClusterLoad) -> dict[str, Any]:
    """Per cluster; and with a kill, how the crash went."""
    clicks = [r.record for r in load.tally.clicks]
    every = list(load.fake.store.interactions.values())
    per_cluster = []
    for cluster, share in enumerate(load.shares):
        runs = [r for r in load.runs if r.cluster == cluster]
        mine = [r for r in clicks if load.cluster_of(r) == cluster]
        per_cluster.append({
            "cluster": cluster, "shards": list(share), "tables": len(runs),
            "games_finished": _finished(runs), **_ack_figures(mine),
            "unacknowledged": _unacked([r for r in every if load.cluster_of(r) == cluster]),
            "bot_load": load.bots[cluster].load})
    figures: dict[str, Any] = {
        "clusters": load.o.clusters, "shard_count": load.o.shard_count,
        "database": load.o.backend, "clicks_during_outage": load.tally.unanswered,
        "per_cluster": per_cluster}
    if load.kill is not None:
        figures.update(kill_figures(load, load.kill, clicks, every))
    return figures


def kill_figures(load: ClusterLoad, kill: Kill, clicks: list[InteractionRecord],
                 every: list[InteractionRecord]) -> dict[str, Any]:
    killed = kill.cluster
    runs = [r for r in load.runs if r.cluster == killed]
    others = [r for r in clicks if load.cluster_of(r) != killed]
    acks = [r.ack_at for r in clicks if load.cluster_of(r) == killed
            and r.ack_at is not None and r.created >= kill.spawned]
    at_kill = [r for r in every if load.cluster_of(r) == killed and r.ack_type is None
               and kill.killed - ACK_LIMIT_S <= r.created <= kill.spawned]
    meanwhile = _ack_figures([r for r in others if kill.killed <= r.created <= kill.ready])
    return {
        "killed_cluster": killed,
        "killed_at_s": round(kill.killed - load.started, 1),
        "killed_tables": len(runs),
        "killed_games_finished": _finished(runs),
        "restart_to_ready_ms": _ms(kill.ready - kill.spawned),
        "restart_to_first_ack_ms": _ms(min(acks, default=math.inf) - kill.spawned),
        "unacknowledged_at_kill": len(at_kill),
        "others_ack_max_ms": _ack_figures(others)["ack_max_ms"],
        "others_ack_p99_ms_in_outage": meanwhile["ack_p99_ms"],
        "others_ack_max_ms_in_outage": meanwhile["ack_max_ms"],
        "others_acks_over_3s": sum(1 for r in others
                                   if r.ack_delay is None or r.ack_delay > ACK_LIMIT_S),
    }


def _ms(seconds: float) -> float | None:
    return None if math.isinf(seconds) else round(seconds * 1000, 1)


def _finished(runs: Sequence[TableRun]) -> int:
    return sum(1 for r in runs if r.table is not None and r.table.status is Status.FINISHED)


def set_takeovers_aside(tally: Tally) -> int:
    """The restarted process's "took over the lease" warnings: expected after a kill,
    so not errors; how many there were."""
    texts = tally.problems.texts
    kept = [text for text in texts if TAKEOVER not in text]
    tally.problems.texts = kept
    return len(texts) - len(kept)


def set_deleted_again_aside(load: ClusterLoad, kill: Kill) -> int:
    """The restarted process's deletes of messages the killed one had deleted just
    before it died (a turn ping, deleted before its row forgot it: the right order,
    as the other one would leave a ping behind for good). Discord answers 404
    Unknown Message, which the bot expects; not errors here, but counted."""
    store = load.fake.store
    kept = []
    for rejection in store.rejections:
        parts = rejection.path.rstrip("/").split("/")
        message = store.messages.get(int(parts[-1])) if parts[-1].isdigit() else None
        again = (rejection.method == "DELETE" and rejection.code == UNKNOWN_MESSAGE
                 and rejection.at >= kill.spawned and message is not None and message.deleted
                 and load.guild_cluster.get(store.channels[message.channel_id].guild_id)
                 == kill.cluster)
        if not again:
            kept.append(rejection)
    found = len(store.rejections) - len(kept)
    store.rejections[:] = kept
    return found


# --- the run ------------------------------------------------------------------------


async def run(options: Options) -> dict[str, Any]:
    tally = Tally()
    with (watching(tally.problems), young_collections_only(),
          tempfile.TemporaryDirectory(prefix="toep-e2e-cluster-") as folder,
          Places(options.backend, Path(folder)) as places):
        database = str(await places("toep"))
        shards = options.shard_count or 1
        async with FakeDiscord(token=TOKEN, recommended_shards=shards) as fake:
            bots = [BotProcess() for _ in range(options.clusters)]
            load = ClusterLoad(options, fake, tally, bots, database)
            load.build()
            meter = CpuMeter(places.postmaster())
            meter.start()
            try:
                async with world_lag_followed(tally):
                    await load.start_bots()
                    wall = await load.run()
                    ended = time.monotonic()
            finally:
                # What closing shows still counts; the fake serves until the bots are gone.
                for found in await asyncio.gather(*(bot.close() for bot in bots)):
                    tally.problems.merge(found)
                for bot in bots:
                    bot.kill()
            cpu = meter.figures()  # the bots reaped: their time is in it
            aside: dict[str, int] = {}
            if load.kill is not None:
                aside = {"lease_takeovers": set_takeovers_aside(tally),
                         "deleted_again_after_kill": set_deleted_again_aside(load, load.kill)}
            return {**report(load, wall, ended), **cluster_figures(load), **aside, "cpu": cpu}
