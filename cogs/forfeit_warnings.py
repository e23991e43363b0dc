"""The clock warning on a hand panel (R19, "bans speak"): while a player's
turn clock runs at a table where a forfeit counts toward a ban, their panel
says which forfeit in the window running out would be, and for the one that
bans, until when. Private: the public last-call ping (cogs/pings.py) names
nobody's forfeits.

A panel is drawn often, so the player's standing is read from the database
at most once a minute per player and server; it changes only when a game of
theirs ends in a forfeit, which the next read after a minute finds.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from cogs.ban_notices import forfeit_warning_for
from cogs.i18n import Lang
from data.db import Database
from tables.snapshot import Status, TableSnapshot

FRESH = timedelta(seconds=60)  # how long a player's standing is taken as read
MAX_KEPT = 10_000  # standings kept at most; the oldest go first


def on_forfeit_clock(snap: TableSnapshot, seat: int) -> bool:
    """Whether `seat` is on a turn clock now: running out forfeits (a window's
    silence is an answer, and a paused or unstarted clock forfeits nobody)."""
    clock = snap.clock
    return (snap.status is Status.PLAYING and clock is not None and not clock.window
            and seat in clock.seats and (clock.deadline is not None or clock.held is not None))


class ForfeitWarnings:
    """The warning lines of panels, each player's standing read once a minute."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._read: dict[tuple[int, int, str], tuple[datetime, str | None]] = {}

    async def line(self, snap: TableSnapshot, counts: bool, seat: int, user_id: int,
                   lang: Lang, now: datetime) -> str | None:
        """The panel's warning, or None: not on a turn clock, or a table where
        forfeits do not count (`counts`: Table.forfeits_count), or banned already."""
        if not counts or not on_forfeit_clock(snap, seat):
            return None
        key = (snap.guild_id, user_id, lang)
        kept = self._read.get(key)
        if kept is not None and now - kept[0] < FRESH:
            return kept[1]
        text = await forfeit_warning_for(self.db, snap.guild_id, user_id, now, lang)
        if len(self._read) >= MAX_KEPT:
            del self._read[next(iter(self._read))]
        self._read[key] = (now, text)
        return text
