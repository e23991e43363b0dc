"""Small texts: a /toep rules topic and the ping for a person whose turn starts."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from .i18n import t
from .render_text import MAX_CONTENT, clip

log = logging.getLogger(__name__)

TOPICS = ("cards", "tricks", "toep", "vuile_was", "dead_man", "super_toep", "slate")

# The topic that explains each rule a refusal can cite (engine.errors.CITABLE_RULES,
# tables.errors.TABLE_RULES); the house rules V2 and V4 limit the toep.
RULE_TOPICS = {
    "R4": "tricks", "R8": "toep", "R9": "toep", "R10": "toep", "R12": "vuile_was",
    "R13": "dead_man", "R14": "slate", "R15": "super_toep", "R16": "slate", "R17": "vuile_was",
    "R19": "slate",
    "V2": "toep", "V4": "toep",
}


def rules_topic(topic: str, lang: str) -> str:
    """The text of one /toep rules topic (an ephemeral message's content)."""
    if topic not in TOPICS:
        topic = TOPICS[0]
    return clip(t(lang, f"rules.{topic}"), MAX_CONTENT)


def turn_ping(user_ids: Sequence[int], lang: str, link: str) -> str:
    """A short new message that notifies the people whose turn starts, with a
    link to the table message."""
    return t(lang, "ping.turn", mention=" ".join(f"<@{u}>" for u in user_ids), link=link)
