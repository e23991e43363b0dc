"""The bot's side of bench/e2e_load.py: the unmodified bot in a process of its own.

    python -m bench.e2e_bot CONFIG_JSON    (started by bench/e2e_load.py, not by hand)

In reality Discord is another machine, so the bench keeps the fake Discord and the
scripted people in its own process and runs the bot here, on its own event loop:
the fake's CPU work no longer delays the bot's acknowledgements. The bot is built
as in production (`create_bot(Settings(...), connector=...)`), its connector sends
Discord's host names to the fake's port and trusts only the fake's throwaway CA.

stdout is kept for the bench's messages (bench/e2e_wire.py); anything printed goes
to stderr, like the log. The bench gets "ready" once the bot is, "tables" whenever a
table's seats or status changed, and "final" after the bot closed: the tables and
the problems (log records at WARNING or above, unretrieved asyncio exceptions)
counted here. The bot closes when the bench writes "close", or by itself on
SIGTERM or SIGINT, as `python bot.py` does (its graceful stop).
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from bench.e2e_wire import (
    CLOSE,
    DISK_FULL,
    TOKEN,
    BotConfig,
    LagFigures,
    Problems,
    TableState,
    watching,
)
from bench.limits import LOAD_LIMITS
from bot import ToepBot, create_bot, stop_on_signals
from cogs.connector import discord_connector
from config import Settings, WebSettings
from data.url import is_postgres_url
from tables.shards import Shards
from tables.table import Table, TableConfig
from tests.e2e.fake_discord import remote_connector

log = logging.getLogger("bench.e2e_bot")

PUBLISH = 0.05  # seconds between looks at the tables (the people look every 0.1 s)
READY_TIMEOUT = 60.0


class Outbox:
    """One JSON object a line to the bench, over the stdout this process started with."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def send(self, kind: str, **fields: Any) -> None:
        self.stream.write(json.dumps({"kind": kind, **fields}) + "\n")
        self.stream.flush()


class Publisher:
    """Tells the bench about tables whose seats or status changed.

    Only tables that told their listener of a change are looked at: looking at
    all of them every PUBLISH seconds cost the bot's event loop a tenth of its
    time at 800 tables, work of the bench's that a real bot never does."""

    def __init__(self, bot: ToepBot, outbox: Outbox) -> None:
        self.bot = bot
        self.outbox = outbox
        # Our own references: a table the manager forgets still shows how it ended.
        self.tables: dict[int, Table] = {table.id: table for table in bot.manager}
        self.sent: dict[int, TableState] = {}
        self.changed: set[int] = set(self.tables)
        presenter = bot.presenter
        told = presenter.table_changed

        async def table_changed(table: Table, *args: Any) -> None:
            self.tables.setdefault(table.id, table)
            self.changed.add(table.id)
            await told(table, *args)

        setattr(presenter, "table_changed", table_changed)  # noqa: B010 (a method, wrapped)

    def publish(self) -> None:
        ids, self.changed = self.changed, set()
        changed = [state for state in (_state(self.tables[i]) for i in ids)
                   if self.sent.get(state.id) != state]
        if changed:
            self.sent.update((state.id, state) for state in changed)
            self.outbox.send("tables", tables=[state.to_json() for state in changed])

    def everything(self) -> list[dict[str, Any]]:
        return [_state(table).to_json() for table in self.tables.values()]

    async def run(self) -> None:
        while True:
            self.publish()
            await asyncio.sleep(PUBLISH)


def _state(table: Table) -> TableState:
    game = table.game
    forfeited = [] if game is None else [s for s, out in enumerate(game.forfeited) if out]
    return TableState(table.id, table.row.channel_id, [seat.user_id for seat in table.seats],
                      table.status, table.end_reason, forfeited)


def _unknown_host(host: str) -> None:
    # In the bench's process this went to the fake's errors; here a problem all the same.
    log.error("fake Discord resolver: unknown host %s", host)


def build(config: BotConfig) -> ToepBot:
    ids = None if config.shard_ids is None else tuple(config.shard_ids)
    # `database` is an SQLite file, or a PostgreSQL URL (DATABASE_URL: it wins).
    url = config.database if is_postgres_url(config.database) else None
    web = None if config.web_port is None else WebSettings(
        config.web_port, client_id=config.client_id, client_secret=config.client_secret)
    settings = Settings(discord_token=TOKEN, database_path=Path(config.database),
                        database_url=url, shards=Shards(config.shard_count, ids), web=web)
    return create_bot(settings,
                      connector=remote_connector(config.port, config.ca_pem, _unknown_host,
                                                 discord_connector),
                      guild_ready_timeout=0.05,
                      table_config=TableConfig(bot_pause=config.bot_pause,
                                               member_limits=LOAD_LIMITS))


async def until_ready(bot: ToepBot, task: asyncio.Task[None]) -> None:
    """Until the bot is ready; its own failure to start, if that comes first."""
    ready = asyncio.create_task(bot.wait_until_ready())
    try:
        await asyncio.wait({task, ready}, timeout=READY_TIMEOUT,
                           return_when=asyncio.FIRST_COMPLETED)
    finally:
        ready.cancel()
    if task.done():
        task.result()
        raise RuntimeError("the bot stopped before it was ready")
    if not bot.is_ready():
        raise TimeoutError(f"the bot was not ready after {READY_TIMEOUT:.0f} s")


async def told_to_close(bot: ToepBot) -> None:
    """Until the bench writes "close" (or goes away: end of input). Meanwhile
    "disk_full SECONDS" (bench/chaos.py) fills the database's disk for a while."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    transport, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    faults: set[asyncio.Task[None]] = set()
    try:
        while (line := await reader.readline()) and line.strip().decode() != CLOSE:
            command, _, argument = line.decode().strip().partition(" ")
            if command == DISK_FULL:
                fault = asyncio.create_task(disk_full(bot, float(argument)))
                faults.add(fault)
                fault.add_done_callback(faults.discard)
    finally:
        transport.close()


async def disk_full(bot: ToepBot, seconds: float) -> None:
    """The database may not grow for `seconds`: SQLite's own limit on the file's
    pages (`PRAGMA max_page_count`, on the bot's connection) set to its size now.
    Every save that needs a new page fails as on a full disk (SQLITE_FULL,
    "database or disk is full"); saves that fit in free space still land."""
    async with bot.db.read() as conn:
        (limit,), = await conn.execute_fetchall("PRAGMA max_page_count")
        (pages,), = await conn.execute_fetchall("PRAGMA page_count")
        await conn.execute(f"PRAGMA max_page_count = {int(pages)}")
    try:
        await asyncio.sleep(seconds)
    finally:
        async with bot.db.read() as conn:
            await conn.execute(f"PRAGMA max_page_count = {int(limit)}")


async def serve(config: BotConfig, outbox: Outbox) -> None:
    problems = Problems()
    with watching(problems):
        bot = build(config)
        task = asyncio.create_task(bot.start(TOKEN))
        try:
            await until_ready(bot, task)
        except BaseException:
            await bot.close()  # else its database's thread keeps this process alive
            raise
        outbox.send("ready")
        publisher = Publisher(bot, outbox)
        publishing = asyncio.create_task(publisher.run())
        lag = LagFigures()
        following = asyncio.create_task(lag.follow(bot.load))
        stop_on_signals(bot)  # SIGTERM: the graceful stop (bench/chaos.py's sigterm)
        with lag.collector:
            told = asyncio.create_task(told_to_close(bot))
            await asyncio.wait({told, task}, return_when=asyncio.FIRST_COMPLETED)
            told.cancel()
        publishing.cancel()
        following.cancel()
        await bot.close()  # what closing shows still counts
        await asyncio.gather(task, publishing, following, return_exceptions=True)
        # Dropped tasks with an exception nobody retrieved are reported when collected:
        # collect now, while the loop's exception handler still counts them.
        gc.collect()
        await asyncio.sleep(0)
    outbox.send("final", tables=publisher.everything(), problems=problems.to_json(),
                load=lag.to_json())


def _message_stream() -> TextIO:
    """The stdout this process started with, for the bench alone; fd 1 becomes stderr,
    so a stray print cannot garble a message."""
    private = os.dup(1)
    os.dup2(2, 1)
    return os.fdopen(private, "w", encoding="utf-8")


def main(argv: list[str]) -> int:
    config = BotConfig.from_json(argv[0])
    outbox = Outbox(_message_stream())
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    profile = cProfile.Profile() if config.profile else None
    if profile is not None:
        profile.enable()  # the event loop's thread only, as before the bot moved here
    try:
        asyncio.run(serve(config, outbox))
    finally:
        if profile is not None and config.profile:
            profile.disable()
            profile.dump_stats(config.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
