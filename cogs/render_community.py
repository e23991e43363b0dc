"""Pure rendering of the community commands: leaderboard, stats, history,
guild settings and bans. Values in, `Rendered` out; nothing talks to Discord.

Component custom_ids (never `toep:`, which the table buttons own):
  toepboard:<guild>:<offset>           a leaderboard page
  toepset:<guild>:lang|pick|reset      the settings message
  toepset:<guild>:value:<option>       a value of one house rule or limit
  toepset:<guild>:ping                 the members' default turn pings
  toepban:<guild>:<user>               lift a ban
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from enum import Enum
from typing import Any

import discord

from data.bans import Ban
from data.guilds import DEFAULT_LIMITS, Limits
from data.history import HistoryEntry
from data.leaderboard import LeaderboardRow
from data.ping_settings import PingChoice
from data.ratings import PROVISIONAL_GAMES
from data.stats import PlayerStats
from engine.rules import SPECS, OptionSpec, RulesError, TableRules

from .i18n import t
from .render_limits import LIMIT_OPTIONS, limit_lines, limit_picks, limit_values
from .render_lobby import rule_line
from .render_manage import review_id
from .render_ping import server_ping_line, server_ping_select
from .render_text import (
    MAX_DESCRIPTION,
    MAX_FIELD_VALUE,
    MAX_LABEL,
    MAX_TITLE,
    Rendered,
    clip,
    plain,
    timestamp,
)

log = logging.getLogger(__name__)

MIN_GAMES = PROVISIONAL_GAMES  # rated games before a rating is shown, and on the board
PAGE_SIZE = 10
MAX_BAN_BUTTONS = 20  # four rows of five; the list says how many more there are
MAX_REVIEW_BUTTONS = 10  # two rows of five: every game /toep history lists
BOARD_COLOUR = discord.Colour.gold()
INFO_COLOUR = discord.Colour.blurple()

# The house rules an admin sets for public tables: V1-V12 and V14 (the public
# clock, V13, stays 20 s).
SETTING_OPTIONS: tuple[str, ...] = tuple(name for name in SPECS if name != "clock")
MAX_SELECT = 25
_DEFAULTS = TableRules()


# --- numbers ---------------------------------------------------------------------------


def decimal(value: float, lang: str, digits: int = 1) -> str:
    """'1.3' in English, '1,3' in Dutch."""
    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if lang == "nl" else text


def percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "–"


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


# --- leaderboard -----------------------------------------------------------------------


def board_id(guild_id: int, offset: int) -> str:
    return f"toepboard:{guild_id}:{offset}"


def leaderboard_message(rows: Sequence[LeaderboardRow], total: int, offset: int,
                        guild_id: int, lang: str) -> Rendered:
    embed = discord.Embed(title=clip(t(lang, "board.title"), MAX_TITLE), colour=BOARD_COLOUR)
    if not rows:
        embed.description = t(lang, "board.empty", min=MIN_GAMES)
    else:
        embed.description = clip("\n".join(_board_line(row, lang) for row in rows),
                                 MAX_DESCRIPTION)
    pages = max(1, (total + PAGE_SIZE - 1) // PAGE_SIZE)
    page = min(pages, offset // PAGE_SIZE + 1)
    embed.set_footer(text=t(lang, "board.footer", page=page, pages=pages, min=MIN_GAMES))
    if total <= PAGE_SIZE:
        return Rendered(None, embed, None)
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(
        label=t(lang, "board.prev"), custom_id=board_id(guild_id, max(0, offset - PAGE_SIZE)),
        style=discord.ButtonStyle.secondary, disabled=offset <= 0))
    view.add_item(discord.ui.Button(
        label=t(lang, "board.next"), custom_id=board_id(guild_id, offset + PAGE_SIZE),
        style=discord.ButtonStyle.secondary, disabled=offset + PAGE_SIZE >= total))
    return Rendered(None, embed, view)


def _board_line(row: LeaderboardRow, lang: str) -> str:
    marks = "–" if row.marks_per_round is None else decimal(row.marks_per_round, lang, 2)
    return t(lang, "board.line", rank=row.rank, user=mention(row.user_id),
             rating=decimal(row.ordinal, lang), games=row.games, wins=row.wins,
             share=percent(row.wins, row.games), marks=marks)


# --- stats -----------------------------------------------------------------------------


def stats_message(name: str, stats: PlayerStats | None, board_size: int, lang: str) -> Rendered:
    """A person's figures in this guild, or a line saying there are none yet."""
    if stats is None:
        return Rendered(t(lang, "stats.none", name=name), None, None)
    s = stats.totals
    embed = discord.Embed(title=clip(t(lang, "stats.title", name=name), MAX_TITLE),
                          colour=INFO_COLOUR)
    marks = "–" if not s.rounds else decimal(s.marks / s.rounds, lang, 2)
    fields = (
        ("stats.rating", _rating(stats, board_size, lang)),
        ("stats.games", t(lang, "stats.games_value", games=s.games, wins=s.wins,
                          share=percent(s.wins, s.games))),
        ("stats.rounds", t(lang, "stats.rounds_value", rounds=s.rounds, won=s.rounds_won,
                           marks=marks)),
        ("stats.toeps", t(lang, "stats.toeps_value", toeps=s.toeps, won=s.toeps_won,
                          share=percent(s.toeps_won, s.toeps))),
        ("stats.folds", t(lang, "stats.folds_value", folds=s.folds)),
        ("stats.vuile_was", t(lang, "stats.vuile_was_value", called=s.vuile_was,
                              caught=s.vuile_was_caught)),
        ("stats.checks", t(lang, "stats.checks_value", checks=s.checks, right=s.checks_right,
                           share=percent(s.checks_right, s.checks))),
        ("stats.dead_man", t(lang, "stats.dead_man_value", rounds=s.dead_man_rounds,
                             survived=s.dead_man_survived)),
    )
    for key, value in fields:
        embed.add_field(name=t(lang, key), value=clip(value, MAX_FIELD_VALUE), inline=True)
    return Rendered(None, embed, None)


def _rating(stats: PlayerStats, board_size: int, lang: str) -> str:
    """The rating and place, or, until it means something, how far to go."""
    if stats.rated_games < MIN_GAMES:
        return t(lang, "stats.unrated", rated=stats.rated_games, min=MIN_GAMES)
    rating = t(lang, "stats.rating_value", rating=decimal(stats.rating.ordinal, lang),
               mu=decimal(stats.rating.mu, lang), sigma=decimal(stats.rating.sigma, lang))
    if stats.rank is None:  # min_games asked of the board is higher: never with MIN_GAMES
        return rating
    return rating + "\n" + t(lang, "stats.rank", rank=stats.rank, total=board_size)


# --- history ---------------------------------------------------------------------------


def history_message(entries: Sequence[HistoryEntry], lang: str) -> Rendered:
    if not entries:
        return Rendered(t(lang, "history.none"), None, None)
    embed = discord.Embed(title=clip(t(lang, "history.title"), MAX_TITLE), colour=INFO_COLOUR)
    embed.description = clip("\n".join(_history_line(e, lang) for e in entries),
                             MAX_DESCRIPTION)
    embed.set_footer(text=t(lang, "history.footer"))
    return Rendered(None, embed, _review_buttons(entries, lang))


def _review_buttons(entries: Sequence[HistoryEntry], lang: str) -> discord.ui.View | None:
    """A Review button for each finished game listed (ended ones have no review)."""
    done = [e.game.id for e in entries if e.game.status == "finished"]
    if not done:
        return None
    view = discord.ui.View(timeout=None)
    for game_id in done[:MAX_REVIEW_BUTTONS]:
        view.add_item(discord.ui.Button(label=clip(t(lang, "btn.review_game", id=game_id),
                                                   MAX_LABEL),
                                        custom_id=review_id(game_id),
                                        style=discord.ButtonStyle.secondary))
    return view


def _history_line(entry: HistoryEntry, lang: str) -> str:
    game = entry.game
    when = game.finished_at or game.started_at or game.created_at
    mine = next((s for s in entry.seats if s.seat == entry.seat), None)
    others = [plain(s.name) for s in entry.seats if s.seat != entry.seat]
    if game.status == "ended":
        result = t(lang, "history.result.ended")
    elif mine is not None and mine.place == 1:
        result = t(lang, "history.result.won", marks=mine.marks or 0)
    elif mine is not None and mine.place is not None:
        result = t(lang, "history.result.place", place=mine.place, marks=mine.marks or 0)
    else:
        result = t(lang, "history.result.other")
    kind = t(lang, "history.rated" if game.rated else "history.unrated")
    return t(lang, "history.line", id=game.id, when=timestamp(when, "d"), result=result,
             kind=kind, others=", ".join(others))


def export_name(game_id: int, seat: int) -> str:
    return f"toep-game-{game_id}-seat-{seat}.json"


# --- settings --------------------------------------------------------------------------


def settings_id(guild_id: int, what: str) -> str:
    return f"toepset:{guild_id}:{what}"


def settings_message(guild_id: int, language: str | None, effective: str,
                     rules: Mapping[str, Any], lang: str, picked: str | None = None,
                     note: str | None = None, limits: Limits = DEFAULT_LIMITS,
                     ping: PingChoice | None = None) -> Rendered:
    """The guild's language, public house rules, fair limits per member and
    default turn pings (`ping`),
    with selects to change them."""
    current = public_rules(rules)
    embed = discord.Embed(title=clip(t(lang, "settings.title"), MAX_TITLE), colour=INFO_COLOUR)
    shown = t(lang, f"settings.lang.{language or 'auto'}")
    lines = [t(lang, "settings.language_line", language=shown,
               effective=t(lang, f"settings.lang.{effective}"))]
    lines.append(t(lang, "settings.rules_head"))
    lines += ["• " + rule_line(name, getattr(current, name), lang) for name in SETTING_OPTIONS]
    lines.append(t(lang, "settings.clock_note"))
    lines += limit_lines(limits, lang)
    lines.append(server_ping_line(ping, lang))
    if note:
        lines.insert(0, note)
    embed.description = clip("\n".join(lines), MAX_DESCRIPTION)
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Select(
        custom_id=settings_id(guild_id, "lang"), placeholder=t(lang, "settings.pick_language"),
        row=0, options=[discord.SelectOption(label=t(lang, f"settings.lang.{code}"), value=code,
                                             default=(language or "auto") == code)
                        for code in ("auto", "en", "nl")]))
    view.add_item(discord.ui.Select(
        custom_id=settings_id(guild_id, "pick"), placeholder=t(lang, "settings.pick_option"),
        row=1, options=[discord.SelectOption(label=clip(t(lang, f"settings.opt.{name}"), 100),
                                             value=name, default=name == picked)
                        for name in SETTING_OPTIONS] + limit_picks(picked, lang)))
    if picked in LIMIT_OPTIONS:
        view.add_item(discord.ui.Select(
            custom_id=settings_id(guild_id, f"value:{picked}"), row=2,
            placeholder=clip(t(lang, "settings.pick_value",
                               option=t(lang, f"settings.opt.{picked}")), 150),
            options=limit_values(picked, limits, lang)))
    if picked in SETTING_OPTIONS:
        value = getattr(current, picked)
        view.add_item(discord.ui.Select(
            custom_id=settings_id(guild_id, f"value:{picked}"), row=2,
            placeholder=clip(t(lang, "settings.pick_value",
                               option=t(lang, f"settings.opt.{picked}")), 150),
            options=[discord.SelectOption(label=clip(value_label(picked, v, lang), 100),
                                          value=value_code(v), default=v == value)
                     for v in option_values(picked, value)]))
    view.add_item(discord.ui.Button(label=clip(t(lang, "settings.reset"), MAX_LABEL),
                                    custom_id=settings_id(guild_id, "reset"),
                                    style=discord.ButtonStyle.danger, row=3))
    # Turn pings: a select of its own, on the last row.
    view.add_item(server_ping_select(settings_id(guild_id, "ping"), ping, lang, row=4))
    return Rendered(None, embed, view)


def public_rules(stored: Mapping[str, Any]) -> TableRules:
    """The stored public rules as TableRules (the clock left out); defaults if they
    no longer validate."""
    chosen = {k: v for k, v in stored.items() if k != "clock"}
    try:
        return TableRules.from_json(chosen)
    except RulesError:
        log.warning("stored public rules do not validate; showing the defaults")
        return TableRules()


def option_values(name: str, current: object) -> list[object]:
    """The values an admin may choose for `name`, at most 25 (a select's limit):
    every value of a short range, else the first ten, round numbers, the
    default and the current value."""
    spec: OptionSpec = SPECS[name]
    default = getattr(_DEFAULTS, name)
    if spec.kind is bool:
        return [True, False]
    if spec.choices:
        return [spec.kind(c) for c in spec.choices]
    assert spec.low is not None and spec.high is not None
    values: list[object] = [None] if spec.nullable else []
    span = range(spec.low, spec.high + 1)
    if len(span) + len(values) <= MAX_SELECT:
        return values + list(span)
    step = 5 if len(span) <= 40 else 10
    values += [v for v in span if v < spec.low + 10 or v % step == 0 or v in (current, default)]
    return values[:MAX_SELECT]


def value_code(value: object) -> str:
    """A value as a select option's value: "none", "true", "false", a number or a choice."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Enum):
        return str(value.value)
    return str(value)


def parse_value(name: str, code: str) -> object:
    """A select's value back to the record's JSON value; RulesError if not allowed."""
    spec = SPECS.get(name)
    if spec is None or name == "clock":
        raise RulesError(f"unknown option {name!r}")
    if code == "none" and spec.nullable:
        return None
    if spec.kind is bool:
        if code not in ("true", "false"):
            raise RulesError(f"{spec.vid} {name} must be true or false")
        return code == "true"
    if spec.choices:
        if code not in spec.choices:
            raise RulesError(f"{spec.vid} {name} must be {spec.describe()}")
        return code
    if not code.isdigit() or len(code) > 3:
        raise RulesError(f"{spec.vid} {name} must be {spec.describe()}")
    return int(code)


def value_label(name: str, value: object, lang: str) -> str:
    if value is None:
        return t(lang, "settings.value.none")
    if isinstance(value, bool):
        return t(lang, "settings.value.on" if value else "settings.value.off")
    if isinstance(value, Enum):
        return t(lang, f"choice.{value.value}")
    return str(value)


# --- bans ------------------------------------------------------------------------------


def ban_id(guild_id: int, user_id: int) -> str:
    return f"toepban:{guild_id}:{user_id}"


def bans_message(bans: Sequence[Ban], guild_id: int, lang: str, now: datetime,
                 note: str | None = None) -> Rendered:
    embed = discord.Embed(title=clip(t(lang, "bans.title"), MAX_TITLE), colour=INFO_COLOUR)
    lines = [note] if note else []
    if not bans:
        lines.append(t(lang, "bans.none"))
    for number, ban in enumerate(bans, start=1):
        lines.append(t(lang, "bans.line", number=number, user=mention(ban.user_id),
                       since=timestamp(ban.since, "f"), until=timestamp(ban.until, "f"),
                       left=timestamp(ban.until, "R")))
    if len(bans) > MAX_BAN_BUTTONS:
        lines.append(t(lang, "bans.more", count=len(bans) - MAX_BAN_BUTTONS))
    embed.description = clip("\n".join(lines), MAX_DESCRIPTION)
    embed.set_footer(text=t(lang, "bans.footer"))
    if not bans:
        return Rendered(None, embed, None)
    view = discord.ui.View(timeout=None)
    for number, ban in enumerate(bans[:MAX_BAN_BUTTONS], start=1):
        view.add_item(discord.ui.Button(
            label=clip(t(lang, "bans.lift", number=number), MAX_LABEL),
            custom_id=ban_id(guild_id, ban.user_id), style=discord.ButtonStyle.danger,
            row=(number - 1) // 5))
    return Rendered(None, embed, view)
