"""Small texts: a /toep rules topic and the ping for a person whose turn starts."""

from __future__ import annotations

import logging

from .i18n import t
from .render_text import MAX_CONTENT, clip

log = logging.getLogger(__name__)

TOPICS = ("cards", "tricks", "toep", "vuile_was", "dead_man", "super_toep", "slate")


def rules_topic(topic: str, lang: str) -> str:
    """The text of one /toep rules topic (an ephemeral message's content)."""
    if topic not in TOPICS:
        topic = TOPICS[0]
    return clip(t(lang, f"rules.{topic}"), MAX_CONTENT)


def turn_ping(user_id: int, lang: str) -> str:
    """A short new message that notifies a person whose turn starts."""
    return t(lang, "ping.turn", mention=f"<@{user_id}>")
