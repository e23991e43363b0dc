"""All live tables: create one per channel, find them, restore them at start-up."""

from __future__ import annotations

import contextlib
import gc
import logging
import random
from collections.abc import Callable, Iterable, Iterator, Sequence

from data import games
from data.errors import ChannelBusyError
from data.games import LoadedGame, Seat
from engine.rules import TableRules
from tables.errors import Refusal
from tables.limits import Limits
from tables.lobby import refuse_banned, seat_infos
from tables.log_safe import log_failure
from tables.shards import UNSHARDED, Shards
from tables.snapshot import SeatInfo, Status
from tables.table import Table, TableDeps

log = logging.getLogger(__name__)


class TableManager:
    def __init__(self, deps: TableDeps, rng: random.Random | None = None, *,
                 shards: Shards = UNSHARDED) -> None:
        self.deps = deps
        self.shards = shards  # this process drives only the tables of their guilds
        self.tables: dict[int, Table] = {}
        self._rng = rng or random.Random()
        self._closed = False
        self.limits = Limits(deps.db, lambda: self.tables.values(), deps.config.member_limits)
        # Told when a lobby starts or closes (the cogs remove its invitations).
        self.lobby_watchers: list[Callable[[Table], None]] = []
        deps.reach.watch(self._reach_changed)

    def _reach_changed(self) -> None:
        """An outage began or ended somewhere: each table sees whether it is its own."""
        if self._closed:
            return  # shutting down: the disconnect is ours
        for table in list(self.tables.values()):
            table.reach_changed()

    def __iter__(self) -> Iterator[Table]:
        return iter(list(self.tables.values()))

    def get(self, table_id: int) -> Table | None:
        return self.tables.get(table_id)

    def in_channel(self, channel_id: int) -> Table | None:
        for table in self.tables.values():
            if table.row.channel_id == channel_id and table.open:
                return table
        return None

    async def create(self, *, guild_id: int, channel_id: int, host_id: int, host_name: str,
                     public: bool, rules: TableRules, invites: Iterable[int] = (),
                     bots: Sequence[str] = ()) -> Table:
        """A new lobby with the host seated (and computer players of `bots`
        levels, and `invites` invited). One open table per channel."""
        if self.in_channel(channel_id) is not None:
            raise Refusal("channel_busy")
        if public:
            await refuse_banned(self.deps.db, self.deps.clock, guild_id,
                                [(host_id, host_name)], host_id)
        seats = [SeatInfo(0, host_id, None, host_name)] + [
            SeatInfo(i + 1, None, level, f"Bot {i + 1}") for i, level in enumerate(bots)]
        invited = set(invites) - {host_id}
        seed = self._rng.getrandbits(62)
        async with self.limits.new_lobby(guild_id, host_id):  # fair limits per member
            try:  # the database has the last word: two racing creates pass the check above
                row = await games.create_game(
                    self.deps.db, guild_id=guild_id, channel_id=channel_id, host_id=host_id,
                    public=public, rules=rules.to_json(), seed=seed, now=self.deps.clock.now(),
                    seats=[Seat(s.index, s.name, user_id=s.user_id, computer=s.level)
                           for s in seats],
                    invites=sorted(invited))
            except ChannelBusyError:
                raise Refusal("channel_busy") from None
            table = Table(row, seats, invited, self.deps)
            self._keep(table)
        table.arm_lobby_timeout()
        return table

    async def restore(self) -> list[Table]:
        """Every unfinished table of this process's shards from the database:
        lobbies as they were, games replayed from their event logs, each decision
        on a fresh clock. The other shards' tables are other processes' to drive."""
        with _collector_paused():
            mine = await games.load_unfinished(self.deps.db, self.shards.owns)
            restored = [table for loaded in mine
                        if (table := await self._restore_one(loaded)) is not None]
        return restored

    async def _restore_one(self, loaded: LoadedGame) -> Table | None:
        table = None
        try:
            table = Table(loaded.game, seat_infos(loaded), set(loaded.invites), self.deps)
            self._keep(table)
            if table.status is Status.LOBBY:
                table.arm_lobby_timeout()
                await table.announce()
            else:
                await table.resume(loaded)
        except Exception:
            # A record error may quote the deal: its text goes to DEBUG only.
            log_failure(log, logging.ERROR,
                        "table %s could not be restored; it stays in the database",
                        loaded.game.id)
            if table is not None:
                self._forget(table)
            return None
        return table

    def _keep(self, table: Table) -> None:
        self.tables[table.id] = table
        table.on_closed = self._forget
        table.lobby.gate = self.limits
        if table.status is Status.LOBBY:
            table.on_lobby_over = self._lobby_over

    def _lobby_over(self, table: Table) -> None:
        for watcher in list(self.lobby_watchers):
            watcher(table)

    def _forget(self, table: Table) -> None:
        """A table that closed leaves memory (its clicks are answered from
        the database: "this game is over")."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]

    async def settled(self) -> None:
        """Wait until no table has computer work in hand (tests, benches)."""
        for table in list(self.tables.values()):
            await table.settled()

    async def close(self) -> None:
        """Shutting down: each table closes once the step in its hands (a click, a
        computer's move, a clock: whoever holds its lock) is done, and every save
        handed in reaches the disk. A step that comes later finds its table closed."""
        self._closed = True
        for table in list(self.tables.values()):
            async with table.lock:
                pass  # only waits for the holder: closing takes the lock's waiters' turn
            await table.close()
        await self.deps.writer.drain()  # every save handed in reaches the disk


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Without the cycle collector for a moment. Restoring builds hundreds of
    thousands of objects that all live on, and each pass of the collector
    would walk them all again (it roughly doubled the time of a restart);
    none of them is garbage in a cycle, so plain reference counting loses
    nothing meanwhile."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
