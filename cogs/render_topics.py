"""Small texts: a /toep rules topic and the ping for a person whose turn starts."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from .i18n import t
from .render_text import MAX_CONTENT, clip

log = logging.getLogger(__name__)

TOPICS = ("cards", "tricks", "toep", "vuile_was", "dead_man", "super_toep", "slate")


def rules_topic(topic: str, lang: str) -> str:
    """The text of one /toep rules topic (an ephemeral message's content)."""
    if topic not in TOPICS:
        topic = TOPICS[0]
    return clip(t(lang, f"rules.{topic}"), MAX_CONTENT)


def turn_ping(user_ids: Sequence[int], lang: str, link: str) -> str:
    """A short new message that notifies the people whose turn starts, with a
    link to the table message."""
    return t(lang, "ping.turn", mention=" ".join(f"<@{u}>" for u in user_ids), link=link)
