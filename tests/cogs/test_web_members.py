"""Before Discord has sent a server (just after a start), whether a member may
watch its table is not known yet: "later", which the page answers by trying
again, never a refusal (the rest is tested through the fake Discord in
tests/web/)."""

from __future__ import annotations

from typing import Any, cast

import discord

from cogs.web_members import Verdict, may_watch


class _NoGuildsYet:
    def get_guild(self, guild_id: int) -> None:
        return None


async def test_a_server_not_sent_yet_is_later_not_a_refusal() -> None:
    client = cast(discord.Client, cast(Any, _NoGuildsYet()))
    assert await may_watch(client, 1, 2, 3) == Verdict("web.starting", later=True)
