"""Which permissions a table needs, in a channel and in a thread, and which
refusals from Discord mean its channel is lost for good."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord

from cogs.i18n import t
from cogs.permissions import (
    INVITE,
    NEEDED,
    is_thread,
    lost_reason,
    missing_permissions,
    missing_text,
)


class _Response:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "refused"


def _error(kind: type[discord.HTTPException], status: int, code: int) -> discord.HTTPException:
    return kind(_Response(status), {"code": code, "message": "refused"})


def test_a_channel_needs_view_send_embed_and_attach() -> None:
    everything = discord.Permissions(view_channel=True, send_messages=True, embed_links=True,
                                     attach_files=True)
    assert missing_permissions(everything) == []
    mute = discord.Permissions(view_channel=True, embed_links=True)
    assert missing_permissions(mute) == ["send_messages", "attach_files"]
    assert missing_text(["send_messages", "attach_files"], "nl") == t(
        "nl", "reply.missing_permission", permission="Berichten versturen, Bestanden bijvoegen")


def test_in_a_thread_send_messages_in_threads_is_what_counts() -> None:
    # A common set-up: no Send Messages in the channel, but in its threads.
    thread_only = discord.Permissions(view_channel=True, send_messages_in_threads=True,
                                      embed_links=True, attach_files=True)
    assert missing_permissions(thread_only, thread=True) == []
    assert missing_permissions(thread_only) == ["send_messages"]
    parent_only = discord.Permissions(view_channel=True, send_messages=True, embed_links=True,
                                      attach_files=True)
    assert missing_permissions(parent_only, thread=True) == ["send_messages"]
    thread: Any = type("T", (), {"type": discord.ChannelType.public_thread})()
    text: Any = type("C", (), {"type": discord.ChannelType.text})()
    assert is_thread(thread) and not is_thread(text) and not is_thread(None)


def test_only_a_lost_channel_or_permission_ends_a_table() -> None:
    assert lost_reason(_error(discord.NotFound, 404, 10003)) == "channel_gone"
    assert lost_reason(_error(discord.NotFound, 404, 10008)) is None  # a message: post anew
    assert lost_reason(_error(discord.Forbidden, 403, 50013)) == "no_permission"
    assert lost_reason(_error(discord.Forbidden, 403, 50001)) == "no_permission"
    assert lost_reason(_error(discord.DiscordServerError, 503, 0)) is None


def test_the_readme_invite_address_asks_for_what_the_bot_uses() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    asked = re.findall(r"oauth2/authorize\?\S*permissions=(\d+)", readme)
    assert asked == [str(INVITE.value)]
    assert all(getattr(INVITE, name) for name in NEEDED)
