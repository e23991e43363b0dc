"""A cluster on one database: two bot processes (bench/e2e_bot.py), SHARD_COUNT=2, one
shard each, against one fake Discord that speaks sharding. Each process drives the
tables of its shard's guilds; one killed and started again takes its shard's lease
back and its tables play on, while the other's never wait; a process started for a
shard that a live one owns is refused in one line. Each on both backends (`db_target`:
an SQLite file, then a database of the session's PostgreSQL server)."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from bench.e2e_load import BotProcess, Load, Options, Seat, TableRun, Tally
from bench.e2e_wire import TOKEN, BotConfig
from data.url import shown_url
from tables.snapshot import Status
from tests.e2e.fake_discord import FakeDiscord

SHARDS = 2
READY = 90.0  # seconds for a bot's process to start on this shared machine
OPTIONS = Options(tables=1, rounds=1, think=(0.0, 0.0), bot_pause=0.0, max_seconds=120.0)


def table_per_shard(fake: FakeDiscord) -> list[TableRun]:
    """A guild on each shard, with a channel, a host and a guest."""
    runs = []
    for shard in range(SHARDS):
        guild = fake.add_guild(f"Café {shard}", locale="en-US", shard=(shard, SHARDS))
        channel = fake.add_channel(guild, "toepen")
        host = fake.add_user(f"host{shard}", guild=guild)
        guest = fake.add_user(f"guest{shard}", guild=guild)
        runs.append(TableRun(shard, channel, Seat(host), Seat(guest)))
    return runs


def config(fake: FakeDiscord, path: str | Path, *shards: int) -> BotConfig:
    return BotConfig(fake.port, fake.ca_pem, str(path), bot_pause=0.0,
                     shard_count=SHARDS if shards else None, shard_ids=list(shards) or None)


def load_for(fake: FakeDiscord, bot: BotProcess, run: TableRun, tally: Tally) -> Load:
    load = Load(OPTIONS, fake, tally, bot)
    load.runs = [run]
    load.deadline = time.monotonic() + OPTIONS.max_seconds
    return load


async def start(bot: BotProcess, fake: FakeDiscord, path: str | Path, shard: int) -> None:
    await bot.start(config(fake, path, shard))
    await bot.wait_ready(READY)


def late_acks(fake: FakeDiscord, guild_id: int) -> list[object]:
    return [r.ack_delay for r in fake.store.interactions.values()
            if r.guild_id == guild_id and (r.ack_delay is None or r.ack_delay >= 3.0)]


async def test_two_processes_drive_their_shards_and_a_killed_one_resumes(
    db_target: str | Path,
) -> None:
    path = db_target
    tally = Tally()
    async with FakeDiscord(token=TOKEN) as fake:
        runs = table_per_shard(fake)
        bots = [BotProcess(), BotProcess()]
        loads = [load_for(fake, bot, run, tally) for bot, run in zip(bots, runs, strict=True)]
        try:
            await asyncio.gather(*(start(bot, fake, path, n) for n, bot in enumerate(bots)))
            await fake.wait_ready(30.0)
            await fake.wait_commands("toep", timeout=30.0)
            await asyncio.gather(*(load.open_table(run)
                                   for load, run in zip(loads, runs, strict=True)))
            # Each table is known to, and driven by, the process of its guild's shard.
            assert [[t.id for t in bot.tables.values()] for bot in bots] == [
                [run.table.id] for run in runs if run.table is not None]

            await bots[0].crash()  # SIGKILL: its lease stays behind, its table waits
            others = asyncio.create_task(loads[1].play_people(runs[1]))
            clicks = len(tally.clicks)
            await loads[1].until("clicks on shard 1 meanwhile",
                                 lambda: len(tally.clicks) >= clicks + 4 or others.done())
            await start(bots[0], fake, path, 0)  # takes its shard back, restores the table
            await loads[0].play_people(runs[0])
            await others
            # Restarted, it restored its own shard's table and not the other one's.
            assert [t.id for t in bots[0].tables.values()] == [
                run.table.id for run in runs[:1] if run.table is not None]
        finally:
            reports = [await bot.close() for bot in bots]
            for bot in bots:
                bot.kill()
        assert [run.table.status for run in runs if run.table is not None] == [
            Status.FINISHED, Status.FINISHED]
        for run in runs:
            assert late_acks(fake, run.channel.guild_id) == []
        assert fake.errors == [] and tally.problems.texts == []
        # The restarted process says once that it took the dead one's shard over.
        texts = [text for report in reports for text in report.texts]
        assert len(texts) == 1 and "took over the lease of shard 0 of 2" in texts[0], texts


async def run_second(config: BotConfig, *twist: str) -> tuple[int | None, str]:
    """`python -m tests.e2e.second_bot`: its exit status and stderr."""
    second = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.e2e.second_bot", config.to_json(), *twist,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    _, err = await asyncio.wait_for(second.communicate(), READY)
    return second.returncode, err.decode()


async def test_a_process_for_a_shard_another_one_owns_is_refused(db_target: str | Path) -> None:
    path = db_target
    shown = path if isinstance(path, Path) else shown_url(path)
    async with FakeDiscord(token=TOKEN) as fake:
        table_per_shard(fake)
        owner = BotProcess()
        try:
            await start(owner, fake, path, 1)
            for shards in ((1,), ()):  # the same shard; every shard (not sharded)
                code, text = await run_second(config(fake, path, *shards))
                ours = [line for line in text.splitlines() if line.startswith("toep:")]
                assert code == 1 and len(ours) == 1 and "Traceback" not in text, text
                assert ours[0].startswith(
                    "toep: the database cannot be used: another Toep process ("), ours
                assert f"{shown} (shard 1 of 2): its lease was renewed" in ours[0]
        finally:
            report = await owner.close()
            owner.kill()
        assert report.texts == [] and fake.errors == []
