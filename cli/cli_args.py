"""Arguments shared by the command-line tools (duel and play): computer
levels, and table options from `--rules JSON` and one flag per option, all
checked by `TableRules.from_json`."""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping

from engine.bots import LEVELS, make_bot
from engine.rules import SPECS, OptionSpec, RulesError, TableRules

# No clocks run in the terminal (R18: a lone human against the computer has
# no clock), so the clock and window options get no flags there.
FLAG_OPTIONS = tuple(name for name in SPECS if name not in ("clock", "window"))

# What each flag means, where "on or off" alone would not say.
_MEANING = {
    "limit": "marks that put you out",
    "max_stake": "highest stake",
    "folded_card_wins": "a folded player's card can win the trick (off: V3)",
    "no_toep_past_limit": "no toep that could put yourself past the limit",
    "next_leader": "who leads from round 2",
    "rounds": "game length in rounds (off: until one is left)",
    "seven_counts": "three low cards and a 7 are a genuine vuile was",
    "redeal_after": "vuile was calls in a row before a redeal",
    "dead_man": "dead man's round",
    "small_players": "small players ranking: folds before a forced call",
    "two_left": "when two players are left",
    "max_players": "most players at the table",
}

_ON = ("on", "true", "yes", "1")
_OFF = ("off", "false", "no", "0")


class UsageError(Exception):
    """A bad argument: reported as one line on stderr, exit status 2."""


def check_level(level: str) -> None:
    """Refuse an unknown computer level, or one whose module is not written yet."""
    if level not in LEVELS:
        raise UsageError(f"unknown level {level!r}: choose from {', '.join(LEVELS)}")
    try:
        make_bot(level, 0)
    except ImportError as err:
        raise UsageError(f"level {level!r} is not available: {err}") from None


def flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def add_rule_flags(parser: argparse.ArgumentParser) -> None:
    """--rules JSON plus a flag per option (--limit 10, --dead-man off ...)."""
    parser.add_argument("--rules", default="{}",
                        help='table options as JSON, e.g. \'{"limit": 10}\'')
    for name in FLAG_OPTIONS:
        spec = SPECS[name]
        parser.add_argument(flag(name), dest=f"rule_{name}", metavar="VALUE",
                            help=f"{spec.vid} {_MEANING.get(name, name)}: {_describe(spec)}")


def _describe(spec: OptionSpec) -> str:
    if spec.kind is bool:
        return "on or off"
    if spec.nullable:
        return f"off or {spec.low}-{spec.high}"
    return spec.describe()


def flag_values(ns: argparse.Namespace) -> dict[str, str]:
    """The option flags that were given, by option name."""
    out: dict[str, str] = {}
    for name in FLAG_OPTIONS:
        value = getattr(ns, f"rule_{name}", None)
        if value is not None:
            out[name] = value
    return out


def _flag_value(name: str, text: str) -> object:
    spec = SPECS[name]
    word = text.strip().lower()
    if spec.kind is bool:
        if word in _ON or word in _OFF:
            return word in _ON
        raise UsageError(f"{flag(name)} must be on or off, got {text!r}")
    if spec.nullable and word in ("off", "none", "null"):
        return None
    if spec.choices:
        return word  # from_json names the choices if it is none of them
    try:
        return int(word)
    except ValueError:
        raise UsageError(f"{flag(name)} must be {_describe(spec)}, got {text!r}") from None


def table_rules(json_text: str, flags: Mapping[str, str], seats: int) -> TableRules:
    """The options of `--rules` with the flags on top. With more than 6 seats
    V12 is raised to fit unless max_players was given."""
    try:
        data = json.loads(json_text)
    except ValueError as err:
        raise UsageError(f"--rules is not valid JSON: {err}") from None
    if not isinstance(data, dict):
        raise UsageError("--rules must be a JSON object of option names to values")
    for name, text in flags.items():
        data[name] = _flag_value(name, text)
    if "max_players" not in data and seats > 6:
        data["max_players"] = seats
    try:
        rules = TableRules.from_json(data)
    except RulesError as err:
        raise UsageError(f"rules: {err}") from None
    if seats > rules.max_players:
        raise UsageError(f"rules: {seats} seats, but V12 max_players is {rules.max_players}")
    return rules
