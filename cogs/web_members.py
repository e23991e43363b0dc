"""Whether a member may watch a table in the web table (web/server/access.py):
asked of Discord here, the one package that speaks to it. The member comes
from Discord's REST (`GET /guilds/{id}/members/{user}`, no privileged
intent needed); the channel's overwrites are the bot's, kept current by the
gateway."""

from __future__ import annotations

from dataclasses import dataclass

import discord


@dataclass(frozen=True)
class Verdict:
    refusal: str | None  # a catalog key, or None: may watch
    name: str = ""  # the member's name in that server
    # Not yet known: the bot has just started and Discord has not sent the
    # guild yet. The page tries again in a moment.
    later: bool = False


async def may_watch(client: discord.Client, guild_id: int, channel_id: int,
                    user_id: int) -> Verdict:
    guild = client.get_guild(guild_id)
    if guild is None or guild.unavailable:
        return Verdict("web.starting", later=True)
    channel = guild.get_channel_or_thread(channel_id)
    if channel is None:
        return Verdict("web.no_table")
    try:
        member = await guild.fetch_member(user_id)
    except discord.NotFound:
        return Verdict("web.not_member")
    if not channel.permissions_for(member).view_channel:
        return Verdict("web.no_view")
    return Verdict(None, member.display_name)
