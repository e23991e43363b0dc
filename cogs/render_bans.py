"""What a player is told about their own forfeits and bans (R19): the warning
before a forfeit that counts (the leave question; a turn's clock running
out), and the private notices that a ban started or was lifted. Pure: values
in, text out. Times are Discord timestamps, so each reader sees their own
time zone."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from data.bans import BAN_LENGTH, FORFEITS_FOR_BAN, WINDOW, Ban, Notice, Standing

from .i18n import t
from .render_refusal import with_rule
from .render_text import timestamp


def nth(number: int, lang: str) -> str:
    """'3rd' in English, '3e' in Dutch."""
    if lang == "nl":
        return f"{number}e"
    if number % 100 in (11, 12, 13):
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th')}"


def forfeit_warning(standing: Standing, now: datetime, lang: str) -> str | None:
    """Which forfeit in the window one more now would be, and the ban it would
    start; None while a ban is in force (a forfeit then adds nothing)."""
    if standing.banned is not None:
        return None
    number = nth(standing.counted + 1, lang)
    if standing.next_bans:
        return t(lang, "ban.warn.last", nth=number, days=WINDOW.days,
                 until=timestamp(now + BAN_LENGTH, "f"))
    return t(lang, "ban.warn.count", nth=number, days=WINDOW.days)


def notices_text(notices: Sequence[Notice], now: datetime, lang: str) -> str:
    """The notices a player is told at once, oldest first. A ban that is over
    (it ran out, or was lifted: that notice says so) is not told as begun."""
    lines: list[str] = []
    for notice in notices:
        ban = notice.ban
        if notice.kind == "lift":
            lines.append(t(lang, "ban.notice.lifted"))
        elif ban.lifted_at is None and ban.until > now:
            lines.append(t(lang, "ban.notice.started", nth=nth(FORFEITS_FOR_BAN, lang),
                           days=WINDOW.days, until=timestamp(ban.until, "f"),
                           left=timestamp(ban.until, "R")))
    return "\n".join(lines)


def barred_text(ban: Ban, lang: str) -> str:
    """A banned player's refusal that says it all, where no notice reaches
    them (the web table): until when, how long that is, why, and that
    private tables stay open; with its rule, as every refusal."""
    text = t(lang, "ban.notice.barred", count=FORFEITS_FOR_BAN, days=WINDOW.days,
             until=timestamp(ban.until, "f"), left=timestamp(ban.until, "R"))
    return with_rule(text, "R19", lang)
