"""Which guilds' tables a process drives, and the leases it holds for them."""

from __future__ import annotations

from tables.shards import UNSHARDED, Shards


def guild_on(shard: int, count: int) -> int:
    """A guild id Discord would put on `shard` of `count`."""
    return (1000 * count + shard) << 22 | 12345


def test_an_unsharded_process_drives_every_guild_under_one_lease() -> None:
    assert UNSHARDED.owns(guild_on(0, 2)) and UNSHARDED.owns(guild_on(1, 2))
    assert UNSHARDED.lease_resources() == ("database",)
    assert UNSHARDED.describe() == "all shards"


def test_a_sharded_process_drives_only_its_shards_guilds() -> None:
    shards = Shards(4, (1, 3))
    assert [shards.owns(guild_on(n, 4)) for n in range(4)] == [False, True, False, True]
    assert shards.lease_resources() == ("shard:1/4", "shard:3/4")
    assert shards.describe() == "shards 1, 3 of 4"


def test_a_shard_count_alone_means_all_its_shards() -> None:
    shards = Shards(2)
    assert shards.mine == (0, 1) and shards.owns(guild_on(0, 2)) and shards.owns(guild_on(1, 2))
    assert shards.lease_resources() == ("shard:0/2", "shard:1/2")
