"""The host's menu under a lobby: take a person or a computer player off the
table (issue 26). Each option names the seat and who sat there when the menu
was drawn (`<seat>:<user id>` or `<seat>:bot`), so a pick from a menu that
others' leaving has made stale takes nobody else off (the table checks)."""

from __future__ import annotations

import re

import discord

from tables.snapshot import TableSnapshot

from .i18n import t
from .ids import encode
from .render_text import clip

_VALUE = re.compile(r"(?P<seat>[0-7]):(?P<who>bot|[1-9][0-9]{0,19})")
MAX_OPTION = 100  # Discord's limit for an option's label, value and description


def remove_menu(snap: TableSnapshot, lang: str) -> discord.ui.Select[discord.ui.View] | None:
    """Everyone seated but the host; None when nobody is."""
    options = [
        discord.SelectOption(
            label=clip(seat.name, MAX_OPTION),  # labels show no markdown: names as they are
            value=seat_value(seat.index, seat.user_id),
            description=(clip(t(lang, "lobby.remove_bot", level=t(lang, f"level.{seat.level}")),
                              MAX_OPTION) if seat.is_bot else None))
        for seat in snap.seats if seat.user_id != snap.host_id]
    if not options:
        return None
    return discord.ui.Select(custom_id=encode(snap.table_id, "remove"),
                             placeholder=clip(t(lang, "lobby.remove"), 150),
                             options=options, row=2)


def seat_value(seat: int, user_id: int | None) -> str:
    return f"{seat}:{'bot' if user_id is None else user_id}"


def parse_seat_value(values: list[str]) -> tuple[int, int | None] | None:
    """The seat and who sat there, from the menu's one value; None if it is
    not what `seat_value` writes (a forged or broken click)."""
    if len(values) != 1:
        return None
    match = _VALUE.fullmatch(values[0])
    if match is None:
        return None
    who = match["who"]
    return int(match["seat"]), None if who == "bot" else int(who)
