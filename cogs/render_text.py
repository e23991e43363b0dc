"""Text pieces: cards, names, lists, marks, happening lines and refusals.

Pure functions of values and a language; they read no view, so they can show
nothing hidden unless a caller hands them a hidden card.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache

import discord

from engine import events as ev
from engine.cards import Card, CardError, parse_card
from engine.events import Happening
from engine.state import DEAD_MAN, SUPER_TOEP
from tables.snapshot import TableSnapshot

from .i18n import t

# Discord's limits and clipping live in text_limits; the renderers take them from here.
from .text_limits import MAX_CONTENT as MAX_CONTENT
from .text_limits import MAX_DESCRIPTION as MAX_DESCRIPTION
from .text_limits import MAX_FIELD_VALUE as MAX_FIELD_VALUE
from .text_limits import MAX_LABEL as MAX_LABEL
from .text_limits import MAX_NAME, user_text
from .text_limits import MAX_PER_ROW as MAX_PER_ROW
from .text_limits import MAX_TITLE as MAX_TITLE
from .text_limits import clip as clip

log = logging.getLogger(__name__)

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}



@dataclass(frozen=True)
class Rendered:
    """One message: what goes into send/edit as content, embed and view."""

    content: str | None
    embed: discord.Embed | None
    view: discord.ui.View | None


def timestamp(moment: datetime, style: str = "R") -> str:
    """A Discord timestamp: every client shows it in its own time and language."""
    return f"<t:{int(moment.timestamp())}:{style}>"


@cache
def card_label(card: Card, lang: str) -> str:
    """'10♥' in English, 'B♠' (boer) in Dutch."""
    return t(lang, f"rank.{card.rank.label}") + SUIT_SYMBOLS[card.suit.value]


def cards_label(cards: Sequence[Card], lang: str) -> str:
    return " ".join(card_label(c, lang) for c in cards) or t(lang, "hand.no_cards")


def join_list(items: Sequence[str], lang: str, word: str = "and") -> str:
    """'Anna, Bob and Carl' / 'Anna, Bob en Carl'."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    first = t(lang, "list.sep").join(items[:-1])
    return t(lang, f"list.{word}", first=first, last=items[-1])


def marks_text(count: int, lang: str) -> str:
    return t(lang, "marks.one" if count == 1 else "marks.many", count=count)


# Every character that Discord's markdown gives a meaning: formatting, quotes,
# headings, lists, masked links (`[a](b)`), mentions (`<@1>`, `@everyone`),
# timestamps (`<t:0:R>`), custom emoji (`<:a:1>`, `:a:`) and links (`https://`).
# A backslash before any of them shows the character itself.
_MEANINGFUL = re.compile(r"([\\`*_~|>#\-\[\]()<@:/])")


def plain(name: str, limit: int = MAX_NAME) -> str:
    """A name (a person's own text) shown as the characters it is, never as a
    mention, a time, a link or formatting; on one line, at most `limit`
    characters."""
    return _MEANINGFUL.sub(r"\\\1", user_text(name, limit))


def raw_names(snap: TableSnapshot) -> tuple[str, ...]:
    """Seat names as the players chose them (for pictures and alt text)."""
    if snap.view is not None:
        return tuple(snap.view.players)
    return tuple(s.name for s in snap.seats)


def names_of(snap: TableSnapshot) -> tuple[str, ...]:
    """Seat names, safe to put in markdown (see `plain`)."""
    return tuple(plain(name) for name in raw_names(snap))


def seat_name(names: Sequence[str], seat: int | None, lang: str) -> str:
    if seat is not None and 0 <= seat < len(names):
        return names[seat]
    return t(lang, "seat.name", number="?" if seat is None else seat)


def kind_name(kind: str, lang: str) -> str:
    return t(lang, f"kind.{kind}")


# --- happenings --------------------------------------------------------------------


def happening_line(h: Happening, names: Sequence[str], lang: str) -> str:
    """One line for the table's "what happened"."""
    render = _LINES.get(type(h))
    if render is None:
        log.warning("no line for happening %s", type(h).__name__)
        return t(lang, "hap.unknown")
    return render(h, names, lang)


def _seat_line(key: str) -> Callable[[Happening, Sequence[str], str], str]:
    def line(h: Happening, names: Sequence[str], lang: str) -> str:
        return t(lang, key, name=seat_name(names, getattr(h, "seat", None), lang))
    return line


def _round_started(h: Happening, names: Sequence[str], lang: str) -> str:
    assert isinstance(h, ev.RoundStarted)
    key = {DEAD_MAN: "hap.round_started.dead_man",
           SUPER_TOEP: "hap.round_started.super_toep"}.get(h.kind, "hap.round_started")
    return t(lang, key, number=h.number, leader=seat_name(names, h.leader, lang), stake=h.stake)


def _dealt(h: Happening, names: Sequence[str], lang: str) -> str:
    assert isinstance(h, ev.Dealt)
    return t(lang, "hap.dealt.redeal" if h.redeal else "hap.dealt")


def _reshuffled(h: Happening, names: Sequence[str], lang: str) -> str:
    assert isinstance(h, ev.Reshuffled)
    return t(lang, "hap.reshuffled", cards=h.cards)


def _dead_mans_round(h: Happening, names: Sequence[str], lang: str) -> str:
    assert isinstance(h, ev.DeadMansRound)
    dead = join_list([seat_name(names, s, lang) for s in h.dead], lang)
    return t(lang, "hap.dead_mans_round", dead=dead, leader=seat_name(names, h.leader, lang))


def _played_in(h: Happening, names: Sequence[str], lang: str) -> str:
    assert isinstance(h, ev.PlayedIn)
    key = "hap.played_in.forced" if h.forced else "hap.played_in"
    return t(lang, key, name=seat_name(names, h.seat, lang))


def _super_asked(h: Happening, names: Sequence[str], lang: str) -> str:
    assert isinstance(h, ev.SuperToepAsked)
    asked = join_list([seat_name(names, s, lang) for s in h.seats], lang)
    return t(lang, "hap.super_toep_asked", names=asked)


def _super_answered(h: Happening, names: Sequence[str], lang: str) -> str:
    assert isinstance(h, ev.SuperToepAnswered)
    key = "hap.super_toep_answered.yes" if h.yes else "hap.super_toep_answered.no"
    return t(lang, key, name=seat_name(names, h.seat, lang))


def _super_decided(h: Happening, names: Sequence[str], lang: str) -> str:
    assert isinstance(h, ev.SuperToepDecided)
    return t(lang, "hap.super_toep_decided.yes" if h.super_toep else "hap.super_toep_decided.no")


def _outcome(h: Happening, names: Sequence[str], lang: str) -> str:
    assert isinstance(h, ev.VuileWasOutcome)
    name = seat_name(names, h.caller, lang)
    checkers = join_list([seat_name(names, s, lang) for s in h.checkers], lang)
    key = f"hap.vuile_was.{h.outcome}"
    if h.outcome == "new_cards" and h.genuine and h.checkers:
        key = "hap.vuile_was.genuine"
    return t(lang, key, name=name, checkers=checkers)


def _redealt(h: Happening, names: Sequence[str], lang: str) -> str:
    assert isinstance(h, ev.Redealt)
    return t(lang, "hap.redealt", row=h.row)


def _window_closed(h: Happening, names: Sequence[str], lang: str) -> str:
    return t(lang, "hap.window_closed")


def _card_played(h: Happening, names: Sequence[str], lang: str) -> str:
    assert isinstance(h, ev.CardPlayed)
    return t(lang, "hap.card_played", name=seat_name(names, h.seat, lang),
             card=card_label(h.card, lang))


def _toeped(h: Happening, names: Sequence[str], lang: str) -> str:
    assert isinstance(h, ev.Toeped)
    return t(lang, "hap.toeped", name=seat_name(names, h.seat, lang), stake=h.stake)


def _called(h: Happening, names: Sequence[str], lang: str) -> str:
    assert isinstance(h, ev.Called)
    return t(lang, "hap.called.forced" if h.forced else "hap.called",
             name=seat_name(names, h.seat, lang))


def _marks(h: Happening, names: Sequence[str], lang: str) -> str:
    assert isinstance(h, ev.MarksTaken)
    return t(lang, f"hap.marks.{h.reason}", name=seat_name(names, h.seat, lang),
             marks=marks_text(h.marks, lang), total=h.total)


def _trick_won(h: Happening, names: Sequence[str], lang: str) -> str:
    assert isinstance(h, ev.TrickWon)
    params = {"name": seat_name(names, h.seat, lang), "number": h.number,
              "card": card_label(h.card, lang)}
    if h.leads_next is not None and h.leads_next != h.seat:
        return t(lang, "hap.trick_won.other_leads", next=seat_name(names, h.leads_next, lang),
                 **params)
    return t(lang, "hap.trick_won", **params)


def _round_won(h: Happening, names: Sequence[str], lang: str) -> str:
    assert isinstance(h, ev.RoundWon)
    if h.seat is None:
        return t(lang, "hap.round_won.nobody", number=h.number)
    key = "hap.round_won.jack_finish" if h.jack_finish else "hap.round_won"
    return t(lang, key, name=seat_name(names, h.seat, lang), number=h.number)


def _player_out(h: Happening, names: Sequence[str], lang: str) -> str:
    assert isinstance(h, ev.PlayerOut)
    return t(lang, f"hap.player_out.{h.reason}", name=seat_name(names, h.seat, lang))


_LINES: dict[type, Callable[[Happening, Sequence[str], str], str]] = {
    ev.RoundStarted: _round_started,
    ev.Dealt: _dealt,
    ev.Reshuffled: _reshuffled,
    ev.DeadMansRound: _dead_mans_round,
    ev.PlayedIn: _played_in,
    ev.SatOut: _seat_line("hap.sat_out"),
    ev.SuperToepAsked: _super_asked,
    ev.SuperToepAnswered: _super_answered,
    ev.SuperToepDecided: _super_decided,
    ev.VuileWasCalled: _seat_line("hap.vuile_was_called"),
    ev.Checked: _seat_line("hap.checked"),
    ev.Believed: _seat_line("hap.believed"),
    ev.VuileWasOutcome: _outcome,
    ev.Redealt: _redealt,
    ev.WindowClosed: _window_closed,
    ev.CardPlayed: _card_played,
    ev.Toeped: _toeped,
    ev.Called: _called,
    ev.Folded: _seat_line("hap.folded"),
    ev.MarksTaken: _marks,
    ev.TrickWon: _trick_won,
    ev.RoundWon: _round_won,
    ev.PlayerOut: _player_out,
    ev.Forfeited: _seat_line("hap.forfeited"),
    ev.GameWon: _seat_line("hap.game_won"),
}
HAPPENING_TYPES: tuple[type, ...] = tuple(_LINES)


# --- cards by their text (hints) ---------------------------------------------------


def _card_text(text: str, lang: str) -> str:
    try:
        return card_label(parse_card(text), lang)
    except CardError:
        return text


# --- hints -------------------------------------------------------------------------


def hint_text(key: str, params: Mapping[str, object], names: Sequence[str], lang: str) -> str:
    """"Hint: play 10♥ ..." for engine.bots.hints' Hint(key, params): cards
    become labels and seat numbers names."""
    local: dict[str, object] = dict(params)
    for name in ("card", "keep"):
        if name in local:
            local[name] = _card_text(str(local[name]), lang)
    if "seat" in local:
        seat = str(local["seat"])
        local["seat"] = seat_name(names, int(seat), lang) if seat.isdigit() else seat
    if "old" in local and str(local["old"]).isdigit():
        local["old"] = marks_text(int(str(local["old"])), lang)
    return t(lang, "hint.line", text=t(lang, f"hint.{key}", **local))
