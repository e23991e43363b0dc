"""Pure rendering: table snapshots and seat views -> Discord embeds and buttons.

Nothing here talks to Discord; each function returns a `Rendered` (content,
embed, view) the cog sends or edits. The public table message reads the
snapshot's PublicView only; the hand panel adds one seat's SeatView.
"""

from __future__ import annotations

from .render_hand import ask_line, hand_panel, panel_notice, panel_view
from .render_lobby import lobby_message, lobby_view, rule_lines
from .render_refusal import refusal, with_rule
from .render_table import table_message, table_view, turn_line
from .render_text import (
    Rendered,
    card_label,
    cards_label,
    happening_line,
    hint_text,
    names_of,
    plain,
    raw_names,
    timestamp,
)
from .render_topics import rules_topic, turn_ping

__all__ = [
    "Rendered",
    "ask_line",
    "card_label",
    "cards_label",
    "hand_panel",
    "happening_line",
    "hint_text",
    "lobby_message",
    "lobby_view",
    "names_of",
    "panel_notice",
    "panel_view",
    "plain",
    "raw_names",
    "refusal",
    "rule_lines",
    "rules_topic",
    "table_message",
    "table_view",
    "timestamp",
    "turn_line",
    "turn_ping",
    "with_rule",
]
