"""Toep van de dag's messages (pure): the day's panel before and after a
member's boards, a board in play, the admins' settings and the closing
message. Buttons carry `toepdaily:<guild>:<what>`, routed by
cogs/community_items.py to the daily cog.

Nothing here shows a board's cards or a result of the day to a member who
has not finished their own boards: the panel before the end says only how
far they are and the seed's SHA-256.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from data.daily import DailyPlayer, Day
from engine.board_session import BoardSession
from engine.events import Event
from engine.views import public_view
from tables.daily import FEW, Closing, Standing
from tables.snapshot import SeatInfo, Status, TableSnapshot, decision_stamp

from .i18n import t
from .render_hand import hand_panel
from .render_learn import copy_buttons
from .render_table import table_message
from .render_text import (
    MAX_DESCRIPTION,
    MAX_FIELD_VALUE,
    MAX_LABEL,
    Rendered,
    card_label,
    clip,
    plain,
    timestamp,
)

PREFIX = "toepdaily"
COLOUR = discord.Colour.gold()
SHOWN = 10  # ranking rows shown, the member's own added if lower


def daily_id(guild_id: int, *parts: object) -> str:
    return ":".join([PREFIX, str(guild_id), *("-" if p is None else str(p) for p in parts)])


def _button(guild_id: int, label: str, *parts: object,
            style: discord.ButtonStyle = discord.ButtonStyle.primary) -> discord.ui.Button[
        discord.ui.View]:
    return discord.ui.Button(label=clip(label, MAX_LABEL), style=style,
                             custom_id=daily_id(guild_id, *parts))


def _percent(value: float) -> str:
    return f"{value:.0f}%"


def _header(day: Day, lang: str) -> str:
    return t(lang, "tournament.header" if day.tournament else "daily.header", day=day.day,
             boards=day.boards, closes=timestamp(day.closes_at), hash=day.commitment)


def _title(day: Day, lang: str) -> str:
    return t(lang, "tournament.title" if day.tournament else "daily.title")


def tournament_announcement(day: Day, lang: str) -> discord.Embed:
    """A tournament opened: for everyone in the channel."""
    return discord.Embed(title=t(lang, "tournament.title"), colour=COLOUR,
                         description=t(lang, "tournament.announce", boards=day.boards,
                                       closes=timestamp(day.closes_at), hash=day.commitment))


def day_panel(day: Day, finished: int, lang: str, previous: Day | None,
              note: str | None = None) -> Rendered:
    """Before the member's boards are done: how far they are, nothing more."""
    lines = [_header(day, lang), "", t(lang, "daily.private"),
             t(lang, "daily.progress", done=finished, boards=day.boards)]
    if previous is not None:
        lines += ["", _previous_line(previous, lang)]
    if note:
        lines.insert(0, note + "\n")
    embed = discord.Embed(title=_title(day, lang), colour=COLOUR,
                          description=clip("\n".join(lines), MAX_DESCRIPTION))
    view = discord.ui.View(timeout=None)
    key = "daily.btn.start" if finished == 0 else "daily.btn.next"
    view.add_item(_button(day.guild_id, t(lang, key, number=finished + 1), "open", day.day))
    view.add_item(_button(day.guild_id, t(lang, "daily.btn.days"), "days",
                          style=discord.ButtonStyle.secondary))
    return Rendered(None, embed, view)


def _previous_line(previous: Day, lang: str) -> str:
    return t(lang, "daily.previous", day=previous.day, seed=previous.seed,
             boards=previous.boards)


def board_panel(day: Day, index: int, session: BoardSession, lang: str,
                note: str | None = None) -> tuple[list[discord.Embed], discord.ui.View]:
    """A board in play (or just played): the table and the member's hand."""
    game = session.game
    seats = tuple(SeatInfo(s, 1 if s == session.me else None,
                           None if s == session.me else "hard", game.players[s])
                  for s in range(game.n))
    snap = TableSnapshot(
        table_id=0, guild_id=day.guild_id, channel_id=0, host_id=1, public=False,
        rules=game.rules, status=Status.FINISHED if game.over else Status.PLAYING,
        seats=seats, invited=frozenset(), view=public_view(game), clock=None,
        passed=frozenset(), recent=tuple(session.happened[-8:]),
        stamp=decision_stamp(game))
    table = table_message(snap, lang, discord.utils.utcnow()).embed
    assert table is not None
    table.title = t(lang, "daily.board_title", name=_title(day, lang), number=index + 1,
                    boards=day.boards)
    table.set_footer(text=t(lang, "daily.footer", hash=day.commitment[:16]))
    embeds = [table]
    view = discord.ui.View(timeout=None)
    if not game.over:
        hand = hand_panel(snap, session.view(), lang, story=False)  # the table tells it
        if hand.embed is not None:
            embeds.append(hand.embed)
        if hand.view is not None:
            copy_buttons(hand.view, view, lambda verb, arg, stamp: daily_id(
                day.guild_id, "act", day.day, index, verb, arg, stamp))
    else:
        last = index + 1 >= day.boards
        embeds.append(discord.Embed(colour=COLOUR, description=t(
            lang, "daily.board_done_last" if last else "daily.board_done", number=index + 1)))
        view.add_item(_button(day.guild_id, t(lang, "daily.btn.results") if last
                              else t(lang, "daily.btn.next", number=index + 2),
                              "open", day.day))
    if note:
        embeds.append(discord.Embed(colour=discord.Colour.red(), description=note))
    return embeds, view


def results_panel(day: Day, standing: Standing, versus: Sequence[tuple[float, float | None]],
                  player: DailyPlayer, user_id: int, lang: str) -> Rendered:
    """After the member's boards: their boards, the ranking so far, their figures."""
    own = standing.scores[user_id]
    lines = [_header(day, lang), "", t(lang, "daily.yours")]
    for i, (score, (mp, par)) in enumerate(zip(own, versus, strict=True)):
        key = "daily.board_line_par" if par is not None else "daily.board_line"
        lines.append(t(lang, key, number=i + 1, score=f"{score:+d}", mp=_percent(mp),
                       par=_percent(par or 0.0)))
    if day.par is None and len(standing.scores) < FEW:
        lines.append(t(lang, "daily.par_pending"))
    lines += ["", t(lang, "daily.ranking_so_far" if not day.closed else "daily.ranking",
                    count=len(standing.rows))]
    lines += ranking_lines(standing, lang, user_id)
    if not day.tournament:  # a tournament moves no rating and no streak
        lines += ["", t(lang, "daily.figures", rating=f"{player.rating:.0f}",
                        streak=player.streak, best=player.best_streak, days=player.days)]
    embed = discord.Embed(title=_title(day, lang), colour=COLOUR,
                          description=clip("\n".join(lines), MAX_DESCRIPTION))
    view = discord.ui.View(timeout=None)
    view.add_item(_button(day.guild_id, t(lang, "daily.btn.refresh"), "open", day.day,
                          style=discord.ButtonStyle.secondary))
    view.add_item(_button(day.guild_id, t(lang, "daily.btn.days"), "days",
                          style=discord.ButtonStyle.secondary))
    return Rendered(None, embed, view)


def ranking_lines(standing: Standing, lang: str, user_id: int | None = None) -> list[str]:
    lines = []
    for i, row in enumerate(standing.rows):
        if i >= SHOWN and row.who != user_id:
            continue
        assert isinstance(row.who, int)
        name = plain(standing.names[row.who])
        mine = row.who == user_id
        text = t(lang, "daily.rank_line", place=row.place, name=name,
                 average=_percent(row.average))
        lines.append(f"**{text}**" if mine else text)
    return lines


def choice_text(event: Event | None, lang: str) -> str:
    """A choice at a board, for the closing message."""
    if event is None:
        return t(lang, "daily.choice.ended")
    if event.card is not None:
        return t(lang, "daily.choice.play", card=card_label(event.card, lang))
    return t(lang, f"daily.choice.{event.do}")


def closing_message(closing: Closing, lang: str) -> Rendered:
    """The day closed: the ranking, the telling board, the seed to check it all."""
    day, standing = closing.day, closing.standing
    lines = [t(lang, "daily.nobody")]
    if standing.rows:
        lines = [t(lang, "daily.closed_intro", day=day.day, count=len(standing.rows)),
                 *ranking_lines(standing, lang)]
    if closing.telling is not None and closing.best is not None:
        best_score = standing.scores[closing.best][closing.telling]
        lines += ["", t(lang, "daily.telling", number=closing.telling + 1,
                        name=plain(standing.names[closing.best]), score=f"{best_score:+d}")]
        parted = closing.parted
        if parted is not None:
            lines.append(t(lang, "daily.parted", best=choice_text(parted.best, lang),
                           usual=choice_text(parted.usual, lang), count=parted.usual_count,
                           alike=parted.alike))
    lines += ["", t(lang, "daily.seed", seed=day.seed, hash=day.commitment),
              f"`python -m engine.boards --seed {day.seed} --count {day.boards} "
              f"--commitment {day.commitment}`"]
    title = t(lang, "tournament.closed_title") if day.tournament else t(
        lang, "daily.closed_title", day=day.day)
    embed = discord.Embed(title=title, colour=COLOUR,
                          description=clip("\n".join(lines), MAX_DESCRIPTION))
    return Rendered(None, embed, None)


def days_panel(days: Sequence[tuple[str, bool, list[int | None]]], today: str | None,
               guild_id: int, lang: str) -> Rendered:
    """The member's daily history: each day's boards, and a record for a closed day."""
    lines = []
    view = discord.ui.View(timeout=None)
    for day, closed, scores in days:
        shown = " ".join("…" if s is None else f"{s:+d}" for s in scores)
        if day == today and not closed:
            shown = t(lang, "daily.days_open", done=sum(s is not None for s in scores))
        lines.append(t(lang, "daily.days_line", day=day, scores=shown))
        if closed and len(view.children) < 5:
            view.add_item(_button(guild_id, t(lang, "daily.btn.records", day=day),
                                  "records", day, style=discord.ButtonStyle.secondary))
    text = "\n".join(lines) if lines else t(lang, "daily.days_none")
    embed = discord.Embed(title=t(lang, "daily.days_title"), colour=COLOUR,
                          description=clip(text, MAX_FIELD_VALUE * 3))
    return Rendered(None, embed, view if view.children else None)


def settings_text(time_zone: str, channel_id: int | None, lang: str) -> str:
    channel = f"<#{channel_id}>" if channel_id else t(lang, "daily.no_channel")
    return t(lang, "daily.settings", zone=time_zone, channel=channel)
