"""Which guilds' tables this process drives: its shards (SHARD_COUNT, SHARD_IDS).

Discord puts a guild on shard `(guild_id >> 22) % shard_count`, and sends its
events and interactions over that shard's connection only; the process that
runs the shard is the one that restores and drives the guild's tables, and it
owns the shard through a lease in the database (data/lease.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from data.lease import DATABASE, shard_resource


@dataclass(frozen=True)
class Shards:
    """`count` None: not sharded by the operator (Discord's advice, all in this
    process, one lease for the whole database, as before sharding existed)."""

    count: int | None = None
    ids: tuple[int, ...] | None = None  # None: all of 0..count-1

    @property
    def sharded(self) -> bool:
        return self.count is not None

    @property
    def mine(self) -> tuple[int, ...]:
        if self.count is None:
            return ()
        return self.ids if self.ids is not None else tuple(range(self.count))

    def owns(self, guild_id: int) -> bool:
        """Whether this process drives the tables of `guild_id`."""
        if self.count is None:
            return True
        return (guild_id >> 22) % self.count in self.mine

    def lease_resources(self) -> tuple[str, ...]:
        if self.count is None:
            return (DATABASE,)
        return tuple(shard_resource(shard, self.count) for shard in self.mine)

    def describe(self) -> str:
        """For the log: 'shards 0, 2 of 4'."""
        if self.count is None:
            return "all shards"
        return f"shards {', '.join(map(str, self.mine))} of {self.count}"


UNSHARDED = Shards()
