"""The end of a rated game: each person's rating before and after it.

The rating shown is the one the leaderboard orders by (data/ratings.py: the
ordinal, a cautious estimate that grows surer with every game), so a change
here is a move on the board. Until a player has PROVISIONAL_GAMES rated
games their rating means little, and they are shown as unrated, with how
far they have come."""

from __future__ import annotations

from data.ratings import PROVISIONAL_GAMES, RatingChange
from tables.snapshot import TableSnapshot

from .i18n import t
from .render_community import decimal
from .render_text import names_of
from .standings import placed


def signed(value: float, lang: str) -> str:
    """'+1.6', '−0.8' (a real minus), '±0.0' when it rounds to nothing."""
    text = decimal(abs(value), lang)
    if text == decimal(0.0, lang):
        return "±" + text
    return ("+" if value > 0 else "−") + text


def rating_line(change: RatingChange, name: str, lang: str) -> str:
    """One person's line: the move, a first rating, or how far from one."""
    if not change.shown:
        return t(lang, "rating.unrated", name=name, games=change.games, min=PROVISIONAL_GAMES)
    after = decimal(change.after.ordinal, lang)
    if change.games == PROVISIONAL_GAMES:
        return t(lang, "rating.first", name=name, after=after, games=change.games)
    delta = change.after.ordinal - change.before.ordinal
    return t(lang, "rating.change", name=name, before=decimal(change.before.ordinal, lang),
             after=after, delta=signed(delta, lang))


def ratings_text(snap: TableSnapshot, lang: str) -> str:
    """The lines of every person rated, in the order of the final standings."""
    if not snap.ratings or snap.view is None:
        return ""
    names = names_of(snap)
    by_user = {change.user_id: change for change in snap.ratings}
    lines: list[str] = []
    for _, seat in placed(snap.view):
        user = snap.seats[seat].user_id
        if user is not None and user in by_user:
            lines.append(rating_line(by_user[user], names[seat], lang))
    return "\n".join(lines)

