"""The text of a turn ping (who is on turn, and a link to the table
message; a last call says when the clock runs out), and of the choice of
pings: a member's in `/toep settings`, the server's default in
`/toep-admin settings`."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

import discord

from data.ping_settings import PingChoice, effective

from .i18n import t
from .render_text import MAX_CONTENT, clip, timestamp
from .render_topics import turn_ping

log = logging.getLogger(__name__)

MAX_PLACEHOLDER = 150  # Discord's limits on a select
MAX_OPTION = 100


def ping_text(user_ids: Sequence[int], lang: str, link: str,
              runs_out: datetime | None = None) -> str:
    """The ping for `user_ids`; `runs_out`: a last call, the clock's end."""
    if runs_out is None:
        return clip(turn_ping(user_ids, lang, link), MAX_CONTENT)
    mention = " ".join(f"<@{u}>" for u in user_ids)
    return clip(t(lang, "ping.last_call", mention=mention, time=timestamp(runs_out), link=link),
                MAX_CONTENT)


# --- the choice: /toep settings and the server's default in /toep-admin settings ----------


def choice_label(choice: PingChoice, lang: str) -> str:
    return t(lang, f"choice.{choice.value}")


def member_ping_text(member: PingChoice | None, server: PingChoice | None, lang: str,
                     command: str, saved: bool = False) -> str:
    """A member's answer from `/toep settings`: what counts for them and
    where it comes from, how to change it, and the last call that always comes."""
    source = t(lang, "settings.ping.yours" if member is not None else "settings.ping.server")
    choice = choice_label(effective(member, server), lang)
    lines = [t(lang, "settings.ping.saved")] if saved else []
    lines.append(t(lang, "settings.ping.now", choice=choice, source=source))
    lines.append(t(lang, "settings.ping.explain", command=command))
    return clip("\n".join(lines), MAX_CONTENT)


def server_ping_line(server: PingChoice | None, lang: str) -> str:
    """The settings message's line for the server's default."""
    return t(lang, "settings.ping.default_line", choice=choice_label(effective(None, server),
                                                                     lang))


def server_ping_select(custom_id: str, server: PingChoice | None, lang: str,
                       row: int) -> discord.ui.Select[discord.ui.View]:
    """The select of the server's default for members who chose none."""
    current = effective(None, server)
    return discord.ui.Select(
        custom_id=custom_id, row=row,
        placeholder=clip(t(lang, "settings.ping.pick"), MAX_PLACEHOLDER),
        options=[discord.SelectOption(label=clip(choice_label(c, lang), MAX_OPTION),
                                      value=c.value, default=c is current)
                 for c in PingChoice])
