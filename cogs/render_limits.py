"""The fair limits per member in the settings message (`/toep-admin
settings`): their lines, their entries in the "change…" menu, and the menu of
values for the one picked (`toepset:<guild>:value:max_hosted` and so on)."""

from __future__ import annotations

import discord

from data.guilds import DEFAULT_LIMITS, LIMIT_RANGES, Limits

from .i18n import t

# The settings' option names -> the limits' own names (data/guilds.py).
LIMIT_OPTIONS: dict[str, str] = {
    "max_hosted": "hosted", "max_seated": "seated", "max_tables": "tables"}
MAX_SELECT = 25
_ROUND = (15, 20, 25, 30, 40, 50, 60, 75, 100, 125, 150, 200)


def limit_lines(limits: Limits, lang: str) -> list[str]:
    lines = [t(lang, "settings.limits_head")]
    for option, name in LIMIT_OPTIONS.items():
        value = getattr(limits, name)
        lines.append("• " + t(lang, f"settings.limit.{option}", value=_shown(name, value, lang)))
    return lines


def limit_picks(picked: str | None, lang: str) -> list[discord.SelectOption]:
    """The limits' entries in the menu of what to change."""
    return [discord.SelectOption(label=t(lang, f"settings.opt.{option}"), value=option,
                                 default=option == picked)
            for option in LIMIT_OPTIONS]


def limit_values(option: str, limits: Limits, lang: str) -> list[discord.SelectOption]:
    """The values an admin may pick for one limit (at most 25, a menu's most)."""
    name = LIMIT_OPTIONS[option]
    current = getattr(limits, name)
    low, high = LIMIT_RANGES[name]
    wanted = {v for v in range(low, min(high, 10) + 1)} | {v for v in _ROUND if v <= high}
    wanted |= {current, getattr(DEFAULT_LIMITS, name)}
    values = sorted(wanted)[:MAX_SELECT]
    return [discord.SelectOption(label=_shown(name, v, lang), value=str(v), default=v == current)
            for v in values]


def parse_limit(option: str, code: str) -> int | None:
    """A picked value, if it is one the menu offers a limit; else None."""
    name = LIMIT_OPTIONS.get(option)
    if name is None or not code.isdigit() or len(code) > 3:
        return None
    low, high = LIMIT_RANGES[name]
    value = int(code)
    return value if low <= value <= high else None


def _shown(name: str, value: int, lang: str) -> str:
    if value == getattr(DEFAULT_LIMITS, name):
        return t(lang, "settings.limit_standard", value=value)
    return str(value)
