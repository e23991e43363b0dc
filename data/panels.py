"""Open hand panels, saved so that a restarted bot goes on editing them.

A hand panel is an ephemeral message that only its interaction's token can
edit, for 15 minutes. The token, the application id, the owner, the game and
the language are saved with the panel's expiry; at start-up the panels still
valid are taken back and the lapsed ones deleted. Tokens are secrets: they
are never logged, and a row goes as soon as its panel lapses or its game ends
(a trigger deletes the rows of a game that ends, whoever ends it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from data.db import Database
from data.times import from_db, to_db


@dataclass(frozen=True)
class SavedPanel:
    game_id: int
    user_id: int
    interaction_id: int
    application_id: int
    token: str
    lang: str  # "en" | "nl"
    opened_at: datetime
    expires_at: datetime

    def __repr__(self) -> str:  # the token stays out of every log and traceback
        return (f"SavedPanel(game_id={self.game_id}, user_id={self.user_id}, "
                f"expires_at={self.expires_at.isoformat()})")


async def save_panels(db: Database, panels: Sequence[SavedPanel],
                      gone: Sequence[tuple[int, int]], now: datetime) -> None:
    """Save `panels` (replacing each person's earlier one at that game) and
    delete the panels `gone` ((game id, user id)) and those lapsed by `now`,
    in one transaction. A panel of a game no longer in play is not saved."""
    if not panels and not gone:
        return
    async with db.transaction() as conn:
        await conn.execute("DELETE FROM hand_panels WHERE expires_at <= ?", (to_db(now),))
        if gone:
            await conn.executemany(
                "DELETE FROM hand_panels WHERE game_id = ? AND user_id = ?", gone)
        for p in panels:
            await conn.execute(
                "INSERT INTO hand_panels (game_id, user_id, interaction_id, application_id,"
                " token, lang, opened_at, expires_at)"
                " SELECT ?, ?, ?, ?, ?, ?, ?, ? FROM games WHERE id = ? AND status = 'playing'"
                " ON CONFLICT (game_id, user_id) DO UPDATE SET"
                " interaction_id = excluded.interaction_id,"
                " application_id = excluded.application_id, token = excluded.token,"
                " lang = excluded.lang, opened_at = excluded.opened_at,"
                " expires_at = excluded.expires_at",
                (p.game_id, p.user_id, p.interaction_id, p.application_id, p.token, p.lang,
                 to_db(p.opened_at), to_db(p.expires_at), p.game_id))


async def take_back(db: Database, now: datetime) -> list[SavedPanel]:
    """The panels still valid at `now`, oldest first; the lapsed ones are deleted."""
    async with db.transaction() as conn:
        await conn.execute("DELETE FROM hand_panels WHERE expires_at <= ?", (to_db(now),))
        rows = await conn.execute_fetchall(
            "SELECT game_id, user_id, interaction_id, application_id, token, lang,"
            " opened_at, expires_at FROM hand_panels ORDER BY opened_at, game_id, user_id")
    return [SavedPanel(int(r[0]), int(r[1]), int(r[2]), int(r[3]), str(r[4]), str(r[5]),
                       from_db(r[6]), from_db(r[7])) for r in rows]
