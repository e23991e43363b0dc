"""The house-rule options of `/toep new private:true` and `/toep house-rules`
(V1-V14), and the rules they make."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cogs.text_limits import user_text
from engine.rules import RulesError, TableRules
from tables.errors import Refusal

RULE_OPTIONS = ("limit", "max_stake", "folded_card_wins", "no_toep_past_limit", "next_leader",
                "rounds", "seven_counts", "redeal_after", "dead_man", "small_players",
                "two_left", "max_players", "clock", "window")


def chosen_options(values: Mapping[str, Any]) -> dict[str, Any]:
    """The options a person gave (0 small players: the ranking off). A text is
    the person's own (a forged client sends any, of any length): clipped, so a
    refusal that quotes it stays short; too long to be valid, it stays invalid."""
    chosen = {k: user_text(v) if isinstance(v, str) else v
              for k, v in values.items() if k in RULE_OPTIONS and v is not None}
    if chosen.get("small_players") == 0:
        chosen["small_players"] = None
    return chosen


def rules_from(chosen: Mapping[str, Any], base: Mapping[str, Any] | None = None) -> TableRules:
    """`chosen` over `base` (the standard rules if none); Refusal if they do not fit."""
    try:
        return TableRules.from_json({**(base or {}), **chosen})
    except RulesError as err:
        raise Refusal("bad_rules", reason=str(err)) from None


def public_table_rules(stored: Mapping[str, Any]) -> TableRules:
    """A new public table's rules: the server's public house rules (/toep
    settings), always with the standard clock (R16)."""
    return rules_from({k: v for k, v in stored.items() if k != "clock"})
