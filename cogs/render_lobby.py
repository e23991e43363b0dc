"""The lobby message: who sits where, the house rules, and the lobby buttons."""

from __future__ import annotations

import logging
from dataclasses import fields
from enum import Enum

import discord

from engine.rules import SPECS, TableRules
from tables.snapshot import Status, TableSnapshot

from .i18n import t
from .ids import LEVELS, encode
from .lobby_remove import remove_menu
from .render_text import (
    MAX_DESCRIPTION,
    MAX_FIELD_VALUE,
    MAX_LABEL,
    Rendered,
    clip,
    names_of,
    plain,
)

log = logging.getLogger(__name__)

_DEFAULTS = TableRules()
# Shown on their own line (the clock), not among the house rules.
_CLOCK_OPTIONS = frozenset({"clock", "window"})
LOBBY_COLOUR = discord.Colour.dark_green()


def lobby_message(snap: TableSnapshot, lang: str) -> Rendered:
    embed = discord.Embed(title=t(lang, "lobby.title"), colour=LOBBY_COLOUR)
    if snap.status is not Status.LOBBY:
        embed.description = t(lang, _closed_key(snap))
        embed.set_footer(text=t(lang, "lobby.footer", id=snap.table_id))
        return Rendered(None, embed, None)
    embed.description = clip("\n".join(_intro(snap, lang)), MAX_DESCRIPTION)
    embed.add_field(name=t(lang, "lobby.seats", count=len(snap.seats),
                           max=snap.rules.max_players),
                    value=clip(_seats_text(snap, lang), MAX_FIELD_VALUE), inline=False)
    rules = rule_lines(snap.rules, lang)
    embed.add_field(name=t(lang, "lobby.rules"),
                    value=clip("\n".join(rules) or t(lang, "lobby.rules_standard"),
                               MAX_FIELD_VALUE), inline=False)
    embed.set_footer(text=t(lang, "lobby.footer", id=snap.table_id))
    return Rendered(None, embed, lobby_view(snap, lang))


def _closed_key(snap: TableSnapshot) -> str:
    return "lobby.timeout" if snap.end_reason == "lobby_timeout" else "lobby.cancelled"


def _intro(snap: TableSnapshot, lang: str) -> list[str]:
    lines = [
        t(lang, "lobby.intro"),
        t(lang, "lobby.host", host=f"<@{snap.host_id}>"),
        t(lang, "lobby.public" if snap.public else "lobby.private"),
        t(lang, "lobby.clock", clock=snap.rules.clock, window=snap.rules.window),
    ]
    seated = {s.user_id for s in snap.seats}
    waiting = sorted(u for u in snap.invited if u not in seated)
    if waiting and not snap.public:  # mentions in an embed notify nobody
        lines.append(t(lang, "lobby.invited", members=" ".join(f"<@{u}>" for u in waiting)))
    if snap.removed:  # how a person taken off the table learns of it
        lines.append(t(lang, "lobby.removed", names=", ".join(plain(n) for n in snap.removed)))
    return lines


def _seats_text(snap: TableSnapshot, lang: str) -> str:
    if not snap.seats:
        return t(lang, "lobby.empty")
    names = names_of(snap)
    lines = []
    for seat in snap.seats:
        name = names[seat.index] if seat.index < len(names) else "?"
        if seat.is_bot:
            lines.append(t(lang, "lobby.seat_bot", number=seat.index + 1, name=name,
                           level=t(lang, f"level.{seat.level}")))
        else:
            lines.append(t(lang, "lobby.seat", number=seat.index + 1, name=name))
    return "\n".join(lines)


def rule_lines(rules: TableRules, lang: str) -> list[str]:
    """The house rules that differ from the defaults, V1 to V14."""
    lines = []
    for f in fields(rules):
        value = getattr(rules, f.name)
        if f.name in _CLOCK_OPTIONS or value == getattr(_DEFAULTS, f.name):
            continue
        lines.append(rule_line(f.name, value, lang))
    return lines


def rule_line(name: str, value: object, lang: str) -> str:
    """One house rule as the lobby words it ("V1: out at 15 marks")."""
    spec = SPECS[name]
    if value is None:
        return t(lang, f"rule.{name}.none")
    if spec.kind is bool:
        return t(lang, f"rule.{name}.{'on' if value else 'off'}")
    if isinstance(value, Enum):
        return t(lang, f"rule.{name}", value=t(lang, f"choice.{value.value}"))
    return t(lang, f"rule.{name}", value=value)


def lobby_view(snap: TableSnapshot, lang: str) -> discord.ui.View:
    """Join, Leave, Start, Cancel; a computer player of each level; the host's
    menu to take anyone but the host off the table. Who may press what is
    checked at click time."""
    view = discord.ui.View(timeout=None)
    tid = snap.table_id
    full = len(snap.seats) >= snap.rules.max_players
    view.add_item(_button(t(lang, "btn.join"), encode(tid, "join"), discord.ButtonStyle.success,
                          0, disabled=full))
    view.add_item(_button(t(lang, "btn.leave"), encode(tid, "leave"),
                          discord.ButtonStyle.secondary, 0))
    view.add_item(_button(t(lang, "btn.start"), encode(tid, "start"), discord.ButtonStyle.primary,
                          0, disabled=len(snap.seats) < 2))
    view.add_item(_button(t(lang, "btn.cancel"), encode(tid, "cancel"),
                          discord.ButtonStyle.danger, 0))
    for level in LEVELS:
        view.add_item(_button(t(lang, "btn.addbot", level=t(lang, f"level.{level}")),
                              encode(tid, "addbot", level), discord.ButtonStyle.secondary, 1,
                              disabled=full))
    menu = remove_menu(snap, lang)
    if menu is not None:
        view.add_item(menu)
    return view


def _button(label: str, custom_id: str, style: discord.ButtonStyle, row: int,
            disabled: bool = False) -> discord.ui.Button[discord.ui.View]:
    return discord.ui.Button(label=clip(label, MAX_LABEL), custom_id=custom_id, style=style,
                             row=row, disabled=disabled)
