"""The practice game's panel (`/toep learn`): the table as the channel would
show it, your hand with a hint, and a rule explained the first time it comes
up. It reuses the table and hand renders through a snapshot of the lesson;
its buttons carry `toeplearn:<game>:<verb>:<arg>:<stamp>` so the table cog
never sees them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import discord

from engine.views import public_view
from tables.snapshot import SeatInfo, Status, TableSnapshot

from .i18n import t
from .ids import ForgedId, decode
from .learn_game import ME, Lesson
from .render_hand import hand_panel
from .render_table import table_message
from .render_text import MAX_FIELD_VALUE, MAX_LABEL, clip, hint_text, names_of

log = logging.getLogger(__name__)

PREFIX = "toeplearn"
LEARN_COLOUR = discord.Colour.teal()


def learn_id(number: int, verb: str, arg: str | None = None, stamp: str | None = None) -> str:
    return f"{PREFIX}:{number}:{verb}:{arg or '-'}:{stamp or '-'}"


def snapshot(lesson: Lesson) -> TableSnapshot:
    """The lesson as a table snapshot, so the table and hand renders can show it."""
    game = lesson.game
    seats = tuple(SeatInfo(s, lesson.user_id if s == ME else None,
                           None if s == ME else lesson.bots[s].level, game.players[s])
                  for s in range(game.n))
    return TableSnapshot(
        table_id=0, guild_id=0, channel_id=0, host_id=lesson.user_id, public=False,
        rules=game.rules, status=Status.FINISHED if game.over else Status.PLAYING,
        seats=seats, invited=frozenset(), view=public_view(game), clock=None,
        passed=frozenset({ME}) if lesson.passed else frozenset(),
        recent=tuple(lesson.recent), stamp=lesson.stamp)


@dataclass(frozen=True)
class LearnPanel:
    embeds: list[discord.Embed]
    view: discord.ui.View


def learn_panel(lesson: Lesson, lang: str, first: bool = False,
                note: str | None = None) -> LearnPanel:
    snap = snapshot(lesson)
    names = names_of(snap)
    embeds: list[discord.Embed] = []
    table = table_message(snap, lang, discord.utils.utcnow()).embed
    assert table is not None
    table.set_footer(text=t(lang, "learn.footer"))
    embeds.append(table)
    view = discord.ui.View(timeout=None)
    if not lesson.over:
        found = lesson.hint()
        line = None if found is None else hint_text(found.key, found.params, names, lang)
        hand = hand_panel(snap, lesson.view(), lang, hint=line, story=False)
        if hand.embed is not None:
            embeds.append(hand.embed)
        if hand.view is not None:
            _copy_buttons(hand.view, view, lesson.number)
    else:
        won = lesson.game.winner == ME
        table.description = (table.description or "") + "\n" + t(
            lang, "learn.won" if won else "learn.lost")
    rules = _rules_embed(lesson.take_fresh(), lang, first, note)
    if rules is not None:
        embeds.append(rules)
    verb, style = ("new", discord.ButtonStyle.success) if lesson.over \
        else ("quit", discord.ButtonStyle.secondary)
    view.add_item(discord.ui.Button(label=clip(t(lang, f"learn.btn.{verb}"), MAX_LABEL),
                                    custom_id=learn_id(lesson.number, verb), style=style, row=4))
    return LearnPanel(embeds, view)


def _copy_buttons(source: discord.ui.View, target: discord.ui.View, number: int) -> None:
    """The hand panel's buttons with the lesson's custom_ids instead of a table's."""
    copy_buttons(source, target, lambda verb, arg, stamp: learn_id(number, verb, arg, stamp))


def copy_buttons(source: discord.ui.View, target: discord.ui.View,
                 make_id: Callable[[str, str | None, str | None], str]) -> None:
    """A hand panel's buttons with custom_ids of another kind than a table's
    (`make_id(verb, arg, stamp)`): the practice game's, the daily's."""
    for item in source.children:
        if not isinstance(item, discord.ui.Button) or item.custom_id is None:
            continue
        try:
            button = decode(item.custom_id)
        except ForgedId:
            log.warning("a hand button with an id of its own: %r", item.custom_id)
            continue
        target.add_item(discord.ui.Button(
            label=item.label, style=item.style, disabled=item.disabled, row=item.row,
            custom_id=make_id(button.verb, button.arg, button.stamp)))


def _rules_embed(topics: Sequence[str], lang: str, first: bool,
                 note: str | None) -> discord.Embed | None:
    parts = [note] if note else []
    if first:
        parts.append(t(lang, "learn.welcome"))
    parts += [t(lang, f"learn.rule.{topic}") for topic in topics]
    if not parts:
        return None
    embed = discord.Embed(title=t(lang, "learn.rules_title"), colour=LEARN_COLOUR)
    embed.description = clip("\n\n".join(parts), MAX_FIELD_VALUE * 3)
    return embed
