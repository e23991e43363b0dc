"""Outages: whether people can reach a guild's tables through Discord right now.

A click reaches the bot only while its gateway connection (the shard that
carries the guild) is up and the guild is available. The bot tells `Reach`
what discord.py tells it; tables ask it before a clock may run, and hear from
it (through `watch`) when it changes, so no clock runs out on a person while
the bot could not have heard them, and nobody forfeits for the bot's trouble.

Reach also says whether tables wait to be shown (`shows`): a person can only
answer a turn they were shown, so with Discord answering the bot's edits with
errors (a REST outage, the gateway up) a clock waits too, per table.

Kept per shard, so a bot with many shards pauses only the guilds of the shard
that dropped. No discord.py in here: plain ids, easy to test.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

log = logging.getLogger(__name__)

Watcher = Callable[[], None]
# (guild id, channel id) -> why people cannot play there ("channel_gone",
# "no_permission"), or None: as far as the bot knows, they can.
ChannelCheck = Callable[[int, int], str | None]


def _no_problem(guild_id: int, channel_id: int) -> None:
    return None


class Reach:
    def __init__(self, *, always: bool = False, shows: bool = False) -> None:
        # `always`: tables without Discord (tests, benches) are always reachable.
        self._always = always
        # `shows`: a presenter tells each table when its message reached Discord,
        # and a decision's clock waits for that (tables/timekeeper.py).
        self.shows = shows
        self._shard_count = 1
        self._connected: set[int] = set()
        self._guilds: set[int] = set()
        self._watchers: list[Watcher] = []
        self.channel_problem: ChannelCheck = _no_problem

    def reachable(self, guild_id: int) -> bool:
        if self._always:
            return True
        return guild_id in self._guilds and self.shard_of(guild_id) in self._connected

    def channel_lost(self, guild_id: int, channel_id: int) -> str | None:
        """`channel_problem`, and None if asking failed (a clock must not die of it)."""
        try:
            return self.channel_problem(guild_id, channel_id)
        except Exception:
            log.exception("checking channel %s failed", channel_id)
            return None

    def shard_of(self, guild_id: int) -> int:
        """Discord's rule for which shard carries a guild."""
        return (guild_id >> 22) % self._shard_count

    def watch(self, watcher: Watcher) -> None:
        """`watcher()` runs after every change (it must not block)."""
        self._watchers.append(watcher)

    # --- what the bot hears from discord.py ---------------------------------------

    def connected(self, shard: int = 0, shard_count: int | None = None,
                  guilds: Iterable[int] = ()) -> None:
        """A new session (READY) on `shard`: its guilds count as available only
        once Discord sent them (`guilds`, or `guild_available` later)."""
        self._shard_count = max(1, shard_count or 1)
        self._guilds = {g for g in self._guilds if self.shard_of(g) != shard}
        self._guilds.update(guilds)
        self._connected.add(shard)
        self._changed()

    def resumed(self, shard: int = 0) -> None:
        """The session on `shard` resumed: its guilds are as they were."""
        self._connected.add(shard)
        self._changed()

    def disconnected(self, shard: int = 0) -> None:
        if shard in self._connected:
            self._connected.discard(shard)
            self._changed()

    def guild_available(self, guild_id: int) -> None:
        if guild_id not in self._guilds:
            self._guilds.add(guild_id)
            self._changed()

    def guild_unavailable(self, guild_id: int) -> None:
        if guild_id in self._guilds:
            self._guilds.discard(guild_id)
            self._changed()

    def _changed(self) -> None:
        for watcher in self._watchers:
            watcher()
