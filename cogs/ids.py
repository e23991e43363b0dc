"""Button custom_ids: `toep:<table_id>:<verb>[:<arg>][:<stamp>]` (docs/design.md).

Every button the bot posts carries one of these, and every click brings one
back, so `decode` is the border where untrusted text enters: anything that is
not exactly what `encode` would write is refused with `ForgedId`. The gate
(cogs/gate.py) reads every clicked id through it (the community kinds through
cogs/community_ids.py) before any handler runs.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from engine.cards import DECK, Card

log = logging.getLogger(__name__)

PREFIX = "toep"
MAX_LENGTH = 100  # Discord's limit for a custom_id
MAX_TABLE_ID = 2**63 - 1  # table ids are SQLite integers

# "remove" is the host's select (its value: the seat, see cogs/lobby_remove.py);
# "removebot" the buttons it replaced, still answered on older messages.
LOBBY_VERBS = frozenset({"join", "leave", "addbot", "removebot", "remove", "start", "cancel"})
# Game verbs answer one decision, so they carry the stamp of that decision.
GAME_VERBS = frozenset({"play", "toep", "call", "fold", "vuile_was", "pass", "check",
                        "believe", "play_in", "sit_out", "super_yes", "super_no"})
# "hand" opens a panel of whatever is asked now: no decision, no stamp.
PANEL_VERBS = frozenset({"hand"})
# Managing a table: the answers to "leave the game?" and "play again" after one.
MANAGE_VERBS = frozenset({"walkout", "stay", "again"})
VERBS = LOBBY_VERBS | GAME_VERBS | PANEL_VERBS | MANAGE_VERBS
ARG_VERBS = frozenset({"addbot", "removebot", "play"})
LEVELS = ("easy", "normal", "hard")
MAX_SEATS = 8

_CARDS: dict[str, Card] = {card.text: card for card in DECK}
_TABLE_RE = re.compile(r"(?:0|[1-9][0-9]{0,18})")
_STAMP_RE = re.compile(r"[0-9A-Za-z]{1,16}")


class ForgedId(ValueError):
    """A custom_id that no button of ours carries."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


@dataclass(frozen=True)
class ButtonId:
    table_id: int
    verb: str
    arg: str | None = None
    stamp: str | None = None

    @property
    def card(self) -> Card | None:
        return _CARDS[self.arg] if self.verb == "play" and self.arg is not None else None

    @property
    def level(self) -> str | None:
        return self.arg if self.verb == "addbot" else None

    @property
    def seat(self) -> int | None:
        return int(self.arg) if self.verb == "removebot" and self.arg is not None else None

    @property
    def is_game(self) -> bool:
        return self.verb in GAME_VERBS

    def encode(self) -> str:
        return encode(self.table_id, self.verb, self.arg, self.stamp)


def encode(table_id: int, verb: str, arg: str | None = None, stamp: str | None = None) -> str:
    """The custom_id of a button; ValueError for anything `decode` would refuse."""
    parts = [PREFIX, str(table_id), verb]
    if arg is not None:
        parts.append(arg)
    if stamp is not None:
        parts.append(stamp)
    text = ":".join(parts)
    try:
        decode(text)
    except ForgedId as err:
        raise ValueError(f"cannot encode {text!r}: {err.reason}") from None
    return text


def decode(custom_id: str) -> ButtonId:
    """The button behind `custom_id`, or ForgedId with the reason."""
    if not isinstance(custom_id, str):
        raise ForgedId("not a string")
    if len(custom_id) > MAX_LENGTH:
        raise ForgedId("too long")
    parts = custom_id.split(":")
    if len(parts) < 3 or parts[0] != PREFIX:
        raise ForgedId("wrong prefix")
    table_id = _table_id(parts[1])
    verb = parts[2]
    if verb not in VERBS:
        raise ForgedId("unknown verb")
    rest = parts[3:]
    arg = _arg(verb, rest.pop(0) if verb in ARG_VERBS and rest else None)
    stamp = _stamp(verb, rest.pop(0) if verb in GAME_VERBS and rest else None)
    if rest:
        raise ForgedId("too many parts")
    return ButtonId(table_id, verb, arg, stamp)


def _table_id(text: str) -> int:
    if not _TABLE_RE.fullmatch(text):
        raise ForgedId("bad table id")
    number = int(text)
    if number > MAX_TABLE_ID:
        raise ForgedId("table id too large")
    return number


def _arg(verb: str, arg: str | None) -> str | None:
    if verb not in ARG_VERBS:
        return None
    if arg is None:
        raise ForgedId(f"{verb} needs an argument")
    if verb == "play" and arg not in _CARDS:
        raise ForgedId("bad card")
    if verb == "addbot" and arg not in LEVELS:
        raise ForgedId("bad level")
    if verb == "removebot" and not (len(arg) == 1 and "0" <= arg < str(MAX_SEATS)):
        raise ForgedId("bad seat")
    return arg


def _stamp(verb: str, stamp: str | None) -> str | None:
    if verb not in GAME_VERBS:
        return None
    if stamp is None:
        raise ForgedId("missing stamp")
    if not _STAMP_RE.fullmatch(stamp):
        raise ForgedId("bad stamp")
    return stamp


def table_id_of(custom_id: str) -> int | None:
    """The table a custom_id names, or None for a forged one (for the log)."""
    try:
        return decode(custom_id).table_id
    except ForgedId:
        return None
