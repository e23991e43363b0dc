"""The words for a refusal: a table's `Refusal` -> a player's sentence."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from cogs.i18n import t
from cogs.render import refusal, timestamp, with_rule
from cogs.render_text import plain
from tables.errors import Refusal

# A refusal's parameters that hold a person's own text (a seat's name; a
# house rule's reason quotes the value given), and how much of it is shown.
_THEIR_TEXT = {"name": 100, "reason": 300}

# Table refusal keys -> catalog keys.
_KEYS = {
    "moment_passed": "click.stale",
    "not_seated": "click.not_seated",
    "table_full": "click.table_full",
    "already_seated": "click.already_seated",
    "invited_only": "click.invited_only",
    "banned": "click.banned",
    "seat_banned": "click.seat_banned",
    "host_only": "click.host_only",
    "need_two_players": "click.need_two",
    "need_a_person": "click.need_a_person",
    "channel_busy": "click.channel_busy",
    "not_started": "click.not_started",
    "table_lobby": "click.not_started",
    "table_playing": "click.already_started",
    "table_finished": "click.finished",
    "table_ended": "click.finished",
    "table_cancelled": "click.finished",
    "not_a_bot_seat": "click.not_a_bot_seat",
    "invite_public": "click.invite_public",
    "nothing_to_pass": "click.nothing_to_pass",
    "window_passed": "click.window_passed",
    "already_out": "click.already_out",
    "unknown_action": "click.forged",
    "house_rules_private": "click.house_rules_private",
    "bad_rules": "click.bad_rules",
    "not_invited": "click.not_invited",
    "rules_public": "click.rules_public",
    "not_a_player": "click.not_a_player",
    "limit_hosted": "click.limit_hosted",
    "limit_seated": "click.limit_seated",
    "limit_tables": "click.limit_tables",
    "seat_changed": "click.seat_changed",
    "remove_host": "click.remove_host",
}


def refusal_text(err: Refusal, lang: str, names: Sequence[str] = ()) -> str:
    if err.engine is not None:
        return refusal(err.engine, lang, names)
    params = dict(err.params)
    for key, limit in _THEIR_TEXT.items():
        text = params.get(key)
        if isinstance(text, str):
            params[key] = plain(text, limit)
    until = params.get("until")
    if isinstance(until, datetime):
        params["until"] = timestamp(until, "f")
    params.setdefault("action", t(lang, "click.action_default"))
    return with_rule(t(lang, _KEYS.get(err.key, "click.error"), **params), err.rule, lang)
