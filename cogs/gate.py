"""The gate every component click passes before any handler runs
(docs/design.md, "The gate").

A click is a payload a client made, and a modified client makes what it
likes: a custom_id that is on no message of ours, one from another server's
table, select values no select offered, numbers in digits `int` refuses. The
gate checks, in this order, and refuses with a short private answer (nothing
changes) what fails:

1. the click comes from a server (every command of ours is guild-only);
2. its custom_id is one of the enabled components of the message it was
   clicked on (Discord sends that message with the click: an ephemeral one
   too, v2 layouts too), of the same type, and a select's values are among
   that select's options;
3. the id reads as one of ours, strictly (cogs/ids.py, cogs/community_ids.py);
4. what it names belongs to this server: a live table's guild, the guild a
   community id carries;
5. a click whose handler rewrites the clicked message (the answers to "leave
   the game?", the community messages, the practice game) comes from the
   clicker's own ephemeral message: never the public table message.

Past the gate a handler holds a parsed id it may trust, and never parses or
checks these again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import discord

from .community_ids import (
    KINDS,
    BanId,
    BoardId,
    CommunityId,
    DailyId,
    LearnId,
    ReviewId,
    SettingsId,
    WebId,
    read,
)
from .ids import MAX_LENGTH, ButtonId, ForgedId, decode

log = logging.getLogger(__name__)

Parsed = ButtonId | CommunityId
# A live table's guild, or None when the table is not live (a closed table's
# handlers change nothing whatever the guild; "play again" checks it itself).
GuildOf = Callable[[int], int | None]

# Answers to a refused click: catalog keys.
FORGED = "click.forged"
STALE = "click.stale"
GUILD_ONLY = "click.guild_only"
OTHER_SERVER = "click.other_server"
# The table verbs whose handler rewrites the clicked message.
_EDITING_VERBS = frozenset({"stay", "walkout"})
_SELECTS = frozenset({3, 5, 6, 7, 8})
MAX_VALUES = 25  # Discord's limit on a select's options (and so its values)


@dataclass(frozen=True)
class Refused:
    """A click the gate turned away: what the clicker reads, and why (for the log)."""

    key: str
    reason: str


def parse(custom_id: str) -> Parsed:
    """Every prefix of ours read in one place; ForgedId for anything else."""
    if len(custom_id) > MAX_LENGTH:
        raise ForgedId("too long")
    kind, _, rest = custom_id.partition(":")
    if kind == "toep":
        return decode(custom_id)
    if kind in KINDS:
        return read(kind, rest)
    raise ForgedId("not ours")


def admit(interaction: discord.Interaction[Any], guild_of: GuildOf) -> Parsed | Refused:
    """The click's parsed id if it passes the gate, else why not."""
    if interaction.guild_id is None:
        return Refused(GUILD_ONLY, "not in a server")
    data: Any = interaction.data
    if not isinstance(data, dict) or not isinstance(data.get("custom_id"), str):
        return Refused(FORGED, "no custom_id")
    custom_id: str = data["custom_id"]
    message = interaction.message
    if message is None:
        return Refused(FORGED, "no message")
    refused = _on_message(custom_id, data, message)
    if refused is not None:
        return refused
    try:
        parsed = parse(custom_id)
    except ForgedId as err:
        return Refused(FORGED, err.reason)
    return _belongs(parsed, interaction, message, guild_of) or parsed


def _on_message(custom_id: str, data: dict[str, Any],
                message: discord.Message) -> Refused | None:
    component = next((c for c in _components(message.components)
                      if getattr(c, "custom_id", None) == custom_id), None)
    if component is None:
        return _missing(custom_id, message)
    if getattr(component, "disabled", False):
        return Refused(FORGED, "a disabled component")
    kind = int(component.type.value)
    if data.get("component_type", kind) != kind:
        return Refused(FORGED, "another type of component")
    values = data.get("values")
    if kind not in _SELECTS:
        return None if values is None else Refused(FORGED, "values for a button")
    return _values_problem(component, values)


def _values_problem(select: Any, values: object) -> Refused | None:
    if not isinstance(values, list) or len(values) > MAX_VALUES or not all(
            isinstance(value, str) for value in values):
        return Refused(FORGED, "no list of values")
    if not select.min_values <= len(values) <= select.max_values:
        return Refused(FORGED, "too few or too many values")
    offered = {option.value for option in getattr(select, "options", ())}
    if select.type is discord.ComponentType.select and not set(values) <= offered:
        return Refused(FORGED, "a value the select did not offer")
    return None


def _missing(custom_id: str, message: discord.Message) -> Refused:
    """Not on the message: a forged id, or the button of a moment the
    message has since moved past (it shows the same decision, newer)."""
    try:
        clicked = parse(custom_id)
    except ForgedId:
        return Refused(FORGED, "not on the message")
    moment = _moment(clicked)
    if moment is not None:
        for component in _components(message.components):
            try:
                shown = parse(str(getattr(component, "custom_id", None) or ""))
            except ForgedId:
                continue
            if _moment(shown) == moment:
                return Refused(STALE, "a moment the message moved past")
    return Refused(FORGED, "not on the message")


def _moment(parsed: Parsed) -> tuple[object, ...] | None:
    """The table (or practice game, or daily) of an id with a moment: a
    stamped one, or a daily's move or "on to the next board" (a double
    click's second lands on the panel the first moved on)."""
    if isinstance(parsed, ButtonId) and parsed.stamp is not None:
        return ("toep", parsed.table_id)
    if isinstance(parsed, LearnId) and parsed.stamp is not None:
        return ("toeplearn", parsed.game)
    if isinstance(parsed, DailyId) and parsed.parts[0] in ("act", "open"):
        return ("toepdaily", parsed.guild_id, parsed.parts[1])
    return None


def _belongs(parsed: Parsed, interaction: discord.Interaction[Any], message: discord.Message,
             guild_of: GuildOf) -> Refused | None:
    guild_id = _guild_of(parsed, guild_of)
    if guild_id is not None and guild_id != interaction.guild_id:
        return Refused(OTHER_SERVER, "another server's")
    if _edits_message(parsed) and not _own_ephemeral(message, interaction.user.id):
        return Refused(FORGED, "would rewrite a message not the clicker's own")
    return None


def _guild_of(parsed: Parsed, guild_of: GuildOf) -> int | None:
    if isinstance(parsed, ButtonId):
        return guild_of(parsed.table_id)
    if isinstance(parsed, BoardId | SettingsId | BanId | WebId | DailyId):
        return parsed.guild_id
    return None  # the practice game belongs to a person, not a server


def _edits_message(parsed: Parsed) -> bool:
    if isinstance(parsed, ButtonId):
        return parsed.verb in _EDITING_VERBS
    # Every other community component rewrites its own message; the web
    # table's Open button launches the Activity from the table message, and
    # a review answers with a private message of its own.
    return not isinstance(parsed, WebId | ReviewId)


def _own_ephemeral(message: discord.Message, user_id: int) -> bool:
    if not message.flags.ephemeral:
        return False
    meta = message.interaction_metadata
    return meta is None or meta.user.id == user_id


def _components(components: list[Any]) -> Iterator[Any]:
    """Every component of a message, depth first: action rows, and the v2
    layouts (containers, sections and their accessories, labels)."""
    for component in components:
        yield component
        yield from _components(list(getattr(component, "children", ())))
        for key in ("accessory", "component"):
            child = getattr(component, key, None)
            if isinstance(child, discord.Component):
                yield from _components([child])
