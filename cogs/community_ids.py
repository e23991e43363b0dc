"""The custom_ids of the community components, read strictly: the leaderboard's
pages, the settings message, the bans list, the practice game and the rules
menu.

  toepboard:<guild>:<offset>                       a leaderboard page
  toepset:<guild>:lang|pick|reset|ping             the settings message
  toepset:<guild>:value:<option>                   a value of one house rule or limit
  toepban:<guild>:<user>                           lift a ban
  toeplearn:<game>:<verb>:<arg|->:<stamp|->        the practice game
  toeprules:pick                                   the rules menu (any server's)
  toepweb:<guild>:open                             open the web table (the Activity)
  toepreview:<game>                                review a finished game of yours
  toepdaily:<guild>:open|records:<day>             Toep van de dag: a day's (or a tournament's)
  toepdaily:<guild>:days                             panel, its records, your days
  toepdaily:<guild>:act:<day>:<board>:<verb>:<arg|->:<stamp|->   a move at a board

The renderers write them (cogs/render_community.py, cogs/render_learn.py);
`read` is the one place a clicked one is taken apart (cogs/ids.py hands it
here), and it refuses anything they would not write: numbers are ASCII digits
of a bounded length (`str.isdigit` also takes "²", which `int` refuses), every
word is one of a known few.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.cards import DECK
from engine.rules import SPECS

from .ids import GAME_VERBS, ForgedId
from .render_limits import LIMIT_OPTIONS

KINDS = ("toepboard", "toepset", "toepban", "toeplearn", "toeprules", "toepweb", "toepreview",
         "toepdaily")
MAX_OFFSET = 10**7  # leaderboard rows: far past any server's
SETTINGS = frozenset({"lang", "pick", "reset", "ping"})
# The house rules an admin sets for public tables (the public clock stays),
# and the server's fair limits per member.
SETTING_OPTIONS = frozenset(name for name in SPECS if name != "clock") | frozenset(LIMIT_OPTIONS)
LEARN_VERBS = GAME_VERBS | {"new", "quit"}
_CARDS = frozenset(card.text for card in DECK)
# A snowflake: at most 20 ASCII digits, no leading zero (Discord's ids are
# below 2**64).
_SNOWFLAKE = re.compile(r"[1-9][0-9]{0,19}")
_NUMBER = re.compile(r"0|[1-9][0-9]{0,18}")
_STAMP = re.compile(r"[0-9A-Za-z]{1,16}")
# A day (2026-12-04) or a tournament (tournament-20261204-183000): tables/daily.py.
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}|tournament-[0-9]{8}-[0-9]{6}")
MAX_BOARD = 64  # boards of a day or tournament: far past any (tables/daily.py)


@dataclass(frozen=True)
class BoardId:
    guild_id: int
    offset: int


@dataclass(frozen=True)
class SettingsId:
    guild_id: int
    what: str  # lang, pick, reset or value
    option: str | None = None  # the house rule of `value`


@dataclass(frozen=True)
class BanId:
    guild_id: int
    user_id: int


@dataclass(frozen=True)
class LearnId:
    game: int
    verb: str
    arg: str | None
    stamp: str | None


@dataclass(frozen=True)
class RulesId:
    """The rules menu: the topic is the menu's value, the reply the reader's own."""


@dataclass(frozen=True)
class WebId:
    """The table message's "Open the table": it launches the Activity, and
    changes no message."""

    guild_id: int


@dataclass(frozen=True)
class ReviewId:
    """A finished game to review: the reviewer's own seat, checked by its cog
    (a game's number is no secret: it is on the table message)."""

    game_id: int


@dataclass(frozen=True)
class DailyId:
    """A button of Toep van de dag's private panel: `what` and its words, read
    strictly (the cog acts on `parts`: open/records <day>, days, act <day>
    <board> <verb> <arg|-> <stamp|->)."""

    guild_id: int
    parts: tuple[str, ...]


CommunityId = BoardId | SettingsId | BanId | LearnId | RulesId | WebId | ReviewId | DailyId


def read(kind: str, rest: str) -> CommunityId:
    """The component behind `<kind>:<rest>`, or ForgedId with the reason."""
    parts = rest.split(":")
    if kind == "toeplearn":
        return _learn(parts)
    if kind == "toeprules":
        if parts != ["pick"]:
            raise ForgedId("not a toeprules id")
        return RulesId()
    if kind == "toepreview":
        if len(parts) != 1:
            raise ForgedId("not a toepreview id")
        return ReviewId(number(parts[0]))
    guild_id = snowflake(parts[0])
    if kind == "toepweb" and parts[1:] == ["open"]:
        return WebId(guild_id)
    if kind == "toepdaily":
        return DailyId(guild_id, _daily(parts[1:]))
    if kind == "toepboard" and len(parts) == 2:
        offset = number(parts[1])
        if offset > MAX_OFFSET:
            raise ForgedId("offset too large")
        return BoardId(guild_id, offset)
    if kind == "toepban" and len(parts) == 2:
        return BanId(guild_id, snowflake(parts[1]))
    if kind == "toepset":
        if len(parts) == 2 and parts[1] in SETTINGS:
            return SettingsId(guild_id, parts[1])
        if len(parts) == 3 and parts[1] == "value" and parts[2] in SETTING_OPTIONS:
            return SettingsId(guild_id, "value", parts[2])
    raise ForgedId(f"not a {kind} id")


def _learn(parts: list[str]) -> LearnId:
    if len(parts) != 4:
        raise ForgedId("not a toeplearn id")
    game, verb, arg, stamp = parts
    if verb not in LEARN_VERBS:
        raise ForgedId("unknown verb")
    if not (arg in _CARDS if verb == "play" else arg == "-"):
        raise ForgedId("bad argument")
    # A move answers one moment (its stamp); "new" and "quit" answer none.
    if not (_STAMP.fullmatch(stamp) if verb in GAME_VERBS else stamp == "-"):
        raise ForgedId("bad stamp")
    return LearnId(number(game), verb, None if arg == "-" else arg,
                   None if stamp == "-" else stamp)


def _daily(parts: list[str]) -> tuple[str, ...]:
    if parts == ["days"]:
        return tuple(parts)
    if len(parts) == 2 and parts[0] in ("open", "records") and _DAY.fullmatch(parts[1]):
        return tuple(parts)
    if len(parts) == 6 and parts[0] == "act" and _DAY.fullmatch(parts[1]):
        if number(parts[2]) >= MAX_BOARD:
            raise ForgedId("no such board")
        _move(*parts[3:])
        return tuple(parts)
    raise ForgedId("not a toepdaily id")


def _move(verb: str, arg: str, stamp: str) -> None:
    """A move's words as a game's buttons write them (the practice game's too)."""
    if verb not in GAME_VERBS:
        raise ForgedId("unknown verb")
    if not (arg in _CARDS if verb == "play" else arg == "-"):
        raise ForgedId("bad argument")
    if not _STAMP.fullmatch(stamp):
        raise ForgedId("bad stamp")


def snowflake(text: str) -> int:
    """A Discord id written in ASCII digits; ForgedId otherwise."""
    if not _SNOWFLAKE.fullmatch(text) or int(text) >= 2**64:
        raise ForgedId("bad id")
    return int(text)


def number(text: str) -> int:
    """A count (0 up) in ASCII digits, no leading zero; ForgedId otherwise."""
    if not _NUMBER.fullmatch(text):
        raise ForgedId("bad number")
    return int(text)
