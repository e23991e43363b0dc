"""A refusal in the player's words: the engine's key and typed parameters
(seats, cards, moments) become a sentence from locales/, and a cited rule
names the `/toep rules` topic that explains it."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from engine.cards import Card
from engine.errors import IllegalEvent, Param, SeatRef
from engine.state import Phase

from .i18n import t
from .render_text import card_label, join_list, kind_name, seat_name
from .render_topics import RULE_TOPICS

log = logging.getLogger(__name__)


def refusal(err: IllegalEvent, lang: str, names: Sequence[str] = ()) -> str:
    """The player's reason for a refused event, with its rule and where to
    read it: "... (R4, see /toep rules: Tricks and rounds)"."""
    params = {name: _word(name, err.key, value, lang, names)
              for name, value in err.params.items()}
    return with_rule(t(lang, f"err.{err.key}", **params), err.rule, lang)


def with_rule(text: str, rule: str, lang: str) -> str:
    """`text` with the rule it cites and the /toep rules topic for it."""
    if not rule:
        return text
    topic = RULE_TOPICS.get(rule)
    if topic is None:
        log.warning("rule %s has no /toep rules topic", rule)
        return t(lang, "err.with_rule", text=text, rule=rule)
    command = f"/{t(lang, 'cmd.toep.name')} {t(lang, 'cmd.toep.rules.name')}"
    return t(lang, "err.with_rule_topic", text=text, rule=rule, command=command,
             topic=t(lang, f"choice.{topic}"))


def _word(name: str, key: str, value: Param, lang: str, names: Sequence[str]) -> object:
    if isinstance(value, SeatRef):
        return seat_name(names, value.seat, lang)
    if isinstance(value, Phase):
        return t(lang, f"moment.{value.value}")
    if isinstance(value, Card):
        return card_label(value, lang)
    if isinstance(value, tuple):
        return join_list([card_label(c, lang) for c in value], lang, "or")
    if name == "do" and key == "wrong_moment":
        return t(lang, f"do.{value}")
    if name == "kind":
        return kind_name(str(value), lang)
    return value
