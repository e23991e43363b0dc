"""The channel permissions a table needs, and which of them the bot lacks.

The table message has an embed and, after each round, a slate picture; a
turn's ping is a message of its own. Without any of these a table cannot
be shown, so `/toep new` names what is missing and opens nothing.
"""

from __future__ import annotations

import discord

from cogs.i18n import Lang, t

NEEDED = ("view_channel", "send_messages", "embed_links", "attach_files")

# What the invite asks for (the README's ready invite address carries its
# value): the table's needs, posting in threads, and reading the history
# that a table message's link jumps back to.
INVITE = discord.Permissions(
    **dict.fromkeys((*NEEDED, "send_messages_in_threads", "read_message_history"), True))


def missing_permissions(permissions: discord.Permissions, thread: bool = False) -> list[str]:
    """The needed permissions that `permissions` lacks, in NEEDED's order. In
    a thread, Send Messages in Threads is what lets the bot post."""
    def has(name: str) -> bool:
        if thread and name == "send_messages":
            return permissions.send_messages_in_threads
        return bool(getattr(permissions, name))

    return [name for name in NEEDED if not has(name)]


THREADS = frozenset({discord.ChannelType.public_thread, discord.ChannelType.private_thread,
                     discord.ChannelType.news_thread})


def is_thread(channel: object) -> bool:
    return getattr(channel, "type", None) in THREADS


def missing_text(missing: list[str], lang: Lang) -> str:
    """What the person who asked for a table reads: the permissions, by the
    names Discord's settings show in their language."""
    names = ", ".join(t(lang, f"perm.{name}") for name in missing)
    return t(lang, "reply.missing_permission", permission=names)


UNKNOWN_CHANNEL = 10003
MISSING_ACCESS, MISSING_PERMISSIONS = 50001, 50013


def lost_reason(err: discord.HTTPException) -> str | None:
    """Why a refusal from Discord means the table's channel is lost for good
    ("channel_gone", "no_permission"), or None: it may pass (a 5xx, a 429)."""
    if isinstance(err, discord.NotFound) and err.code == UNKNOWN_CHANNEL:
        return "channel_gone"
    if isinstance(err, discord.Forbidden) and err.code in (MISSING_ACCESS, MISSING_PERMISSIONS):
        return "no_permission"
    return None
