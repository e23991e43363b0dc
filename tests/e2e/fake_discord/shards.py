"""Sharding as Discord does it: which shard carries a guild, which IDENTIFY.shard
it accepts, and which guild an event belongs to (it goes to that shard only)."""

from __future__ import annotations

from dataclasses import dataclass

from .models import Json

INVALID_SHARD, SHARDING_REQUIRED = 4010, 4011
UNSHARDED = (0, 1)


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's rule: `(guild_id >> 22) % shard_count`."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class ShardRefusal:
    """Why an IDENTIFY's shard is refused: the close code and Discord's reason."""

    code: int
    reason: str


def identify_shard(
    value: object, guild_ids: list[int], max_guilds: int
) -> tuple[int, int] | ShardRefusal:
    """The `[shard_id, shard_count]` of an IDENTIFY (absent: one shard of one), or why
    Discord closes the connection: 4010 for a shard that is not one, 4011 when the
    session would carry more than `max_guilds` guilds."""
    if value is None:
        shard = UNSHARDED
    elif (
        isinstance(value, list)
        and len(value) == 2
        and all(type(n) is int for n in value)
        and 0 <= value[0] < value[1]
    ):
        shard = (value[0], value[1])
    else:
        return ShardRefusal(INVALID_SHARD, "Invalid shard.")
    carried = sum(1 for g in guild_ids if shard_of(g, shard[1]) == shard[0])
    if carried > max_guilds:
        return ShardRefusal(SHARDING_REQUIRED, "Sharding required.")
    return shard


def carries(shard: tuple[int, int], guild_id: int | None) -> bool:
    """Whether a session on `shard` gets an event of `guild_id` (None: not a guild's)."""
    return guild_id is None or shard_of(guild_id, shard[1]) == shard[0]


def guild_of(event: str, data: Json) -> int | None:
    """The guild a gateway event belongs to: a GUILD_CREATE's own id, else `guild_id`."""
    value = data.get("guild_id", data.get("id") if event.startswith("GUILD_") else None)
    return None if value is None else int(value)
