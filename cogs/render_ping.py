"""The text of a turn ping: who is on turn, and a link to the table message;
a last call says when the clock runs out."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from .i18n import t
from .render_text import MAX_CONTENT, clip, timestamp
from .render_topics import turn_ping

log = logging.getLogger(__name__)


def ping_text(user_ids: Sequence[int], lang: str, link: str,
              runs_out: datetime | None = None) -> str:
    """The ping for `user_ids`; `runs_out`: a last call, the clock's end."""
    if runs_out is None:
        return clip(turn_ping(user_ids, lang, link), MAX_CONTENT)
    mention = " ".join(f"<@{u}>" for u in user_ids)
    return clip(t(lang, "ping.last_call", mention=mention, time=timestamp(runs_out), link=link),
                MAX_CONTENT)
