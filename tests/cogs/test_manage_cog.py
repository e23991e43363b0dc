"""The manage cog's invitations: each invited member is mentioned once per
table, and what the cog remembers of that goes with the table once it closed
and left memory."""

from __future__ import annotations

import gc
from types import SimpleNamespace
from typing import Any, cast

from cogs.i18n import Lang
from cogs.manage_cog import ManageCog


class _Channel:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, text: str, **_: Any) -> SimpleNamespace:
        self.sent.append(text)
        return SimpleNamespace(id=1000 + len(self.sent))


class _Invitations:
    """Stands for the invitations kept until their lobby is over."""

    def __init__(self) -> None:
        self.kept: list[tuple[int, int]] = []

    async def posted(self, table: Any, message_id: int) -> None:
        self.kept.append((table.id, message_id))


class _Presenter:
    async def table_lang(self, guild_id: int) -> Lang:
        return "en"


class _Bot:
    def __init__(self) -> None:
        self.channel = _Channel()
        self.presenter = _Presenter()

    def get_partial_messageable(self, channel_id: int, guild_id: int) -> _Channel:
        return self.channel


class _Table:
    """Stands for a live table: what `announce` reads of it."""

    def __init__(self, table_id: int) -> None:
        self.id = table_id
        self.row = SimpleNamespace(guild_id=1, channel_id=2, public=False)


async def test_each_member_is_mentioned_once_per_table() -> None:
    bot = _Bot()
    cog = ManageCog(cast(Any, bot))
    cog.invitations = cast(Any, kept := _Invitations())
    first, second = _Table(7), _Table(8)
    await cog.announce(cast(Any, first), 1, [5, 6])
    await cog.announce(cast(Any, first), 1, [6, 5])
    await cog.announce(cast(Any, first), 1, [5, 9])
    await cog.announce(cast(Any, second), 1, [5])
    assert len(bot.channel.sent) == 3
    assert "<@5> <@6>" in bot.channel.sent[0]
    assert "<@9>" in bot.channel.sent[1] and "<@5>" not in bot.channel.sent[1]
    assert "<@5>" in bot.channel.sent[2]
    assert kept.kept == [(7, 1001), (7, 1002), (8, 1003)]  # each kept until its lobby is over


async def test_a_table_that_left_memory_leaves_nothing_told_behind() -> None:
    cog = ManageCog(cast(Any, _Bot()))
    cog.invitations = cast(Any, _Invitations())
    for table_id in range(50):
        await cog.announce(cast(Any, _Table(table_id)), 1, [5, 6])
    gc.collect()
    assert len(cog.told) == 0
