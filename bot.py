"""Toep, the Toepen bot: `python bot.py` (or `make run`).

Reads `.env`, sets up logging, builds the bot and runs it. `create_bot`
builds it without running, so tests can pass their own connector.
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import json
import logging
import os
import signal
import sys
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import discord
from discord.ext import commands
from dotenv import load_dotenv

from cogs import outgoing, queue_jump
from cogs.connector import discord_connector
from cogs.error_path import ToepTree
from cogs.i18n import ToepTranslator
from cogs.presenter import Presenter
from config import Settings, SettingsError, load_settings
from data.coverage import Coverage
from data.db import Database, connect
from data.lease import LeaseKeeper, LeaseLost
from data.meta import get_meta, set_meta
from start_failures import FAILURES, explain
from tables.clock import ClockSource, SystemClock
from tables.load import LoadGauge
from tables.manager import TableManager
from tables.outage import Reach
from tables.table import TableConfig, TableDeps
from tables.table_deps import TableListener
from web.server.app import WebTable, WebUnavailable
from web.server.viewers import Listeners

log = logging.getLogger("toep")

# The table cog first: it owns the /toep group the others add their commands to.
EXTENSIONS = ("cogs.table_cog", "cogs.leaderboard_cog", "cogs.stats_cog", "cogs.history_cog",
              "cogs.learn_cog", "cogs.settings_cog", "cogs.bans_cog", "cogs.manage_cog",
              "cogs.ping_settings_cog", "cogs.review_cog", "cogs.daily_cog",
              "cogs.help_cog", "cogs.connection_cog", "cogs.clicks", "cogs.ban_notices_cog")
MAX_RATELIMIT_WAIT = 30.0  # seconds; discord.py allows no less
# Seconds a graceful stop may take before the process gives up and exits:
# `docker stop` and systemd send SIGKILL 10 s after SIGTERM (by default).
STOP_WITHIN = 9.0
COLLECTOR_THRESHOLDS = (20_000, 10, 10)  # the cycle collector's, from setup_hook on
# Seconds a thread may keep the interpreter's lock while another waits for it
# (Python's default: 0.005). The event loop gives the lock up at every read and
# write on a socket and waits for it again; while a computer player thinks or
# a picture is drawn in another thread, each of those waits was up to 5 ms.
# With one thread thinking in pure Python, a loop answering on a socket pair
# made some 400-900 round trips a second at 5 ms and 7,500 at 0.5 ms (170,000
# with no thread); the thinking thread loses about a tenth of its speed.
SWITCH_INTERVAL = 0.0005
# Slash commands and buttons arrive as interactions, which need no intent;
# `guilds` keeps the guilds and channels known (a guild's locale). Not the
# default intents: with `guild_messages` Discord would send the bot every
# message in every channel it can see, its own table edits and pings
# included, each one parsed and thrown away. None of them is privileged.
INTENTS = discord.Intents(guilds=True)


class ToepBot(commands.Bot):
    def __init__(self, settings: Settings, *, clock: ClockSource | None = None,
                 table_config: TableConfig | None = None, **client_kwargs: Any) -> None:
        # Names in messages are players' own text: no message notifies anyone
        # unless it says whom (the turn ping, an invitation).
        client_kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        # A rate limit longer than this raises (the presenter tries again later)
        # instead of discord.py sleeping it through in the middle of an update.
        client_kwargs.setdefault("max_ratelimit_timeout", MAX_RATELIMIT_WAIT)
        client_kwargs.setdefault("intents", INTENTS)
        super().__init__(command_prefix=commands.when_mentioned, help_command=None,
                         tree_cls=ToepTree, **client_kwargs)
        outgoing.install(self)  # every message fitted to Discord's limits as it leaves
        self.settings = settings
        self.clock: ClockSource = clock or SystemClock()
        self.table_config = table_config or TableConfig()
        # Not reachable until connected: restored tables' clocks wait for it, and
        # for their message to reach Discord (the presenter tells them).
        self.reach = Reach(shows=True)
        self.executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="toep-bots")
        # The event loop's lag: logged for the operator, and past capacity the
        # presenter sheds optional work by it (tables/load.py).
        self.load = LoadGauge()
        self._db: Database | None = None
        self._thresholds = gc.get_threshold()  # the collector's, given back on close
        self._undo_queue_jump: Callable[[], None] | None = None  # given back on close
        self._switch_interval = sys.getswitchinterval()  # given back on close
        self._presenter: Presenter | None = None
        self._manager: TableManager | None = None
        self._lease: LeaseKeeper | None = None
        self.lease_lost: LeaseLost | None = None
        self._stopping: asyncio.Task[None] | None = None
        self.stopping = False  # a signal came: clicks are answered "restarting"
        self._restored = 0  # tables restored at start-up
        self._told_ready = False
        self._set_up = False  # setup_hook is done: a stop may close the database
        self._stop_asked: tuple[str, float, asyncio.TimerHandle] | None = None
        # The web table (web/), only when configured (WEB_PORT).
        self.web = None if settings.web is None else WebTable(self, settings.web)

    @property
    def db(self) -> Database:
        assert self._db is not None, "the database opens in setup_hook"
        return self._db

    @property
    def presenter(self) -> Presenter:
        assert self._presenter is not None
        return self._presenter

    @property
    def manager(self) -> TableManager:
        assert self._manager is not None
        return self._manager

    def table_id_in(self, channel_id: int | None) -> int | None:
        """The id of the open table in a channel (None before start-up is done)."""
        if self._manager is None or channel_id is None:
            return None
        table = self._manager.in_channel(channel_id)
        return None if table is None else table.id

    async def setup_hook(self) -> None:
        self._db = await connect(self.settings.database)
        # One process per database, or per shard: refused here (LeaseHeld) while
        # another process runs on the same database (or on one of these shards).
        shards = self.settings.shards
        # A sharded process also watches for shards that no process holds.
        coverage = None if shards.count is None else Coverage(self._db, shards.count)
        self._lease = LeaseKeeper(self._db, self._lost_lease, resources=shards.lease_resources(),
                                  after_renewal=None if coverage is None else coverage.check)
        await self._lease.start()
        activity = self.settings.web is not None and self.settings.web.activity
        self._presenter = Presenter(self, self._db, self.clock, self.load, activity)
        load = self.load
        listener: TableListener = (self._presenter if self.web is None
                                   else Listeners(self._presenter, self.web.hub))
        deps = TableDeps(self._db, self.clock, listener, self.executor, self.table_config,
                         self.reach, load.slots, lambda: load.shedding.clock_grace)
        self._manager = TableManager(deps, shards=shards)
        await self.tree.set_translator(ToepTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if activity:
            await self.load_extension("cogs.activity_cog")  # "Open the table"
        _tune_the_collector()
        sys.setswitchinterval(SWITCH_INTERVAL)
        self._undo_queue_jump = queue_jump.install(asyncio.get_running_loop())
        await self.sync_commands()
        self._restored = len(await self._manager.restore())
        if self.web is not None:
            await self.web.start()
        self.load.start()
        self._set_up = True
        if self.stopping:  # a signal came while it started
            self._begin_stop()

    async def on_ready(self) -> None:
        """Connected (every shard of this process) with the tables restored: said
        once, though discord.py calls this again after each new session."""
        if not self._told_ready:
            self._told_ready = True
            log.info("ready to play (%s); %d table(s) restored",
                     self.settings.shards.describe(), self._restored)

    async def sync_commands(self) -> None:
        """Sync the slash commands only when they changed (a hash is kept), to
        stay clear of Discord's rate limits on command registration."""
        guild = (discord.Object(id=self.settings.dev_guild_id)
                 if self.settings.dev_guild_id else None)
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        translator = self.tree.translator
        assert translator is not None
        payload = [await command.get_translated_payload(self.tree, translator)
                   for command in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        key = f"commands:{guild.id if guild else 'global'}"
        if await get_meta(self.db, key) == digest:
            log.info("slash commands unchanged; not syncing")
            return
        await self.tree.sync(guild=guild)
        await set_meta(self.db, key, digest)
        log.info("slash commands synced (%s)", "guild" if guild else "global")

    async def connect(self, *, reconnect: bool = True) -> None:
        """discord.py's connect, which cannot retry a first connection that fails
        (its retry reads the sequence of a websocket it never had, AttributeError):
        a start during a Discord outage waits for the gateway instead of dying."""
        while True:
            if self.stopping:  # a signal came while it started: no need to connect
                await self.close()
                return
            try:
                await super().connect(reconnect=reconnect)
                return
            except AttributeError:
                websocket: object | None = self.ws  # typed as always there; it is not
                if websocket is not None or not reconnect or self.is_closed():
                    raise
            await asyncio.sleep(1.0)  # discord.py already waited its back-off once

    def _schedule_event(self, coro: Callable[..., Coroutine[Any, Any, Any]], event_name: str,
                        *args: Any, **kwargs: Any) -> asyncio.Task[Any]:
        """discord.py's, but a click's listener runs in the turn of the event loop
        that read it, ahead of the queue (cogs/queue_jump.py)."""
        task = super()._schedule_event(coro, event_name, *args, **kwargs)
        if event_name == "on_interaction":
            queue_jump.jump_the_queue(task)
        return task

    def stop_for(self, why: str) -> None:
        """Stop gracefully (a signal, `why`): new clicks and commands get a short
        "restarting" answer (cogs/stopping.py) while the saves in flight finish, then
        the leases are given up (the next process, on any machine, takes over at
        once), the gateway closes and `run` returns 0. Given up after STOP_WITHIN:
        `docker stop` and systemd kill after 10 s."""
        if self.stopping or self._stopping is not None:
            log.info("%s: already stopping", why)
            return
        self.stopping = True
        log.info("%s: stopping; new clicks are answered that Toep restarts", why)
        loop = asyncio.get_running_loop()
        self._stop_asked = (why, loop.time(), loop.call_later(STOP_WITHIN, _give_up, why))
        if self._set_up:
            self._begin_stop()
        # Else setup_hook begins it once done: closing the database now would
        # pull it from under the tables being restored.

    def _begin_stop(self) -> None:
        assert self._stop_asked is not None
        why, since, deadline = self._stop_asked
        self._stopping = asyncio.get_running_loop().create_task(self._stop(why, since),
                                                                name="stopping")
        self._stopping.add_done_callback(lambda _: deadline.cancel())

    async def _stop(self, why: str, since: float) -> None:
        await self.close()
        log.info("%s: stopped in %.1f s; the leases are free for the next process", why,
                 asyncio.get_running_loop().time() - since)

    def _lost_lease(self, lost: LeaseLost) -> None:
        """Another process took this database over: stop at once (its saves are
        already refused) and let `main` exit with status 1."""
        self.lease_lost = lost
        self._stopping = asyncio.get_running_loop().create_task(self.close())

    async def __aexit__(self, *exc_info: Any) -> None:
        """discord.py's waits only for its own part of a `close` begun elsewhere (a
        signal, a lost lease): the leases given up and the database closed come
        after the gateway's close, and must not be cut off when `start` returns."""
        if self._stopping is not None:
            await self.close()
        else:
            await super().__aexit__(*exc_info)

    async def close(self) -> None:
        """Close the tables (their saves finish), the presenter, the gateway, the
        leases (given up) and the database. A close already under way (a signal's,
        a lost lease's) is waited for, not begun again."""
        if self._stopping is not None and asyncio.current_task() is not self._stopping:
            await asyncio.shield(self._stopping)
            return
        if self.web is not None:
            await self.web.stop()
        await self.load.stop()
        if self._manager is not None:
            await self._manager.close()
        if self._presenter is not None:
            await self._presenter.close()
        await super().close()
        if self._lease is not None:
            await self._lease.stop()
        if self._db is not None:
            await self._db.close()
            self._db = None
        self.executor.shutdown(wait=False, cancel_futures=True)
        gc.unfreeze()  # what setup_hook froze may be collected again
        gc.set_threshold(*self._thresholds)
        sys.setswitchinterval(self._switch_interval)
        if self._undo_queue_jump is not None:
            self._undo_queue_jump()
            self._undo_queue_jump = None


def _give_up(why: str) -> None:
    """The graceful stop did not end in time (a save or the database hangs): exit
    now, before the supervisor's SIGKILL, saying so. The leases lapse on their own."""
    log.critical("%s: could not stop within %.0f s (a save or the database does not "
                 "answer): exiting now; the next process takes over once the leases lapse "
                 "(30 s after their last renewal)", why, STOP_WITHIN)
    hard_exit(1)


def hard_exit(status: int) -> None:
    """Exit at once, whatever the event loop and its threads are doing."""
    logging.shutdown()
    os._exit(status)


def stop_on_signals(bot: ToepBot) -> None:
    """SIGTERM (`docker stop`, systemd) and SIGINT (Ctrl-C) stop the bot gracefully."""
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, bot.stop_for, signum.name)


def _tune_the_collector() -> None:
    """Keep the objects that live as long as the process out of the cycle
    collector's sight (`gc.freeze`), and let it run less often.

    Once the cogs are loaded, the modules, discord.py, the catalogs and the
    command tree are some 70,000 objects that never become garbage, and every
    full collection walked them all. With 100 tables playing on a small
    machine a full collection comes every ten seconds or so and pauses the
    event loop while clicks wait to be acknowledged; frozen, it walks only
    what the games create, and the pauses are about a third shorter (0.10
    instead of 0.15 s there). Collected first, so no garbage is frozen;
    `close` unfreezes.

    Python's thresholds (700, 10, 10) are made for short scripts. Every click
    allocates thousands of objects (discord.py parses the interaction and
    every answer into objects), so at 400 tables the collector ran 50 times
    a second and a full collection every 2.5 s, each pausing the loop for
    0.2-0.4 s: 18% of the loop's time. COLLECTOR_THRESHOLDS make young
    collections 30 times rarer and full ones come every few minutes: 9 s
    of 120 s instead of 21 s (`bench/e2e_load.py --tables 400`, its `gc`
    figures). The price is memory that waits longer to be collected: the
    process's peak was 604 MB there instead of 535 MB."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


class ShardedToepBot(ToepBot, commands.AutoShardedBot):
    """The bot of a process that runs some of the bot's shards (SHARD_COUNT and
    SHARD_IDS): one gateway connection per shard, and only their guilds' tables."""

    def __init__(self, settings: Settings, **client_kwargs: Any) -> None:
        shards = settings.shards
        client_kwargs.setdefault("shard_count", shards.count)
        client_kwargs.setdefault("shard_ids", list(shards.mine))
        super().__init__(settings, **client_kwargs)


def create_bot(settings: Settings, **client_kwargs: Any) -> ToepBot:
    """The bot, built but not running (tests pass `connector=` and the like). Without
    shard settings one plain gateway connection, as before sharding existed.
    Call it in the running event loop: the connection pools (cogs/connector.py)
    belong to it."""
    if "connector" not in client_kwargs:
        client_kwargs["connector"] = discord_connector()
    if settings.shards.sharded:
        return ShardedToepBot(settings, **client_kwargs)
    return ToepBot(settings, **client_kwargs)


def setup_logging(level: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)-7s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLevelName(level)))


async def _run(build: Callable[[], ToepBot], token: str) -> None:
    bot = build()  # inside the loop: a connector given to it needs a running one
    stop_on_signals(bot)
    async with bot:  # closes the bot, the tables and the database on the way out
        await bot.start(token)
    if bot.lease_lost is not None:
        raise bot.lease_lost


def main() -> int:
    load_dotenv()
    try:
        settings = load_settings(os.environ)
    except SettingsError as err:
        print(f"toep: {err}", file=sys.stderr)
        return 1
    setup_logging(settings.log_level)
    return run(lambda: create_bot(settings), settings.discord_token)


def run(build: Callable[[], ToepBot], token: str) -> int:
    """Run the bot until it stops: the exit status, and one line on stderr for what
    keeps it from running (start_failures.py: a refused token, a Discord it cannot
    reach, a gateway close that no reconnect mends, such as too few shards; a
    database it cannot use or may not: another process holds it, or took it over)."""
    asked = [INTENTS]  # the intents of the bot built, for a 4014's line

    def built() -> ToepBot:
        bot = build()
        asked[0] = bot.intents
        return bot

    try:
        asyncio.run(_run(built, token))
    except FAILURES as err:
        print(f"toep: {explain(err, asked[0])}", file=sys.stderr)
        return 1
    except WebUnavailable as err:  # the port is taken, or the address is not this machine's
        print(f"toep: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
