"""A finished game of the person asking, in this server: the one check that
`/toep history game:` and `/toep review` make before they show anything."""

from __future__ import annotations

import logging

from data.db import Database
from data.errors import NotFoundError
from data.gameload import load_game
from data.gamevalues import LoadedGame

log = logging.getLogger(__name__)


class NotOwnFinished(Exception):
    """Why not: "not_yours" (no such game, another server's, or not theirs:
    whether it exists is not theirs to know), "in_progress" (its hidden
    cards are still secret), or the game's status ("cancelled", "ended")."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


async def own_finished_game(db: Database, guild_id: int, user_id: int,
                            game_id: int) -> tuple[LoadedGame, int]:
    """The game and the person's seat in it, or NotOwnFinished."""
    try:
        loaded = await load_game(db, game_id)
    except NotFoundError:
        raise NotOwnFinished("not_yours") from None
    seat = next((s.seat for s in loaded.seats if s.user_id == user_id), None)
    if loaded.game.guild_id != guild_id or seat is None:
        raise NotOwnFinished("not_yours")
    status = loaded.game.status
    if status in ("lobby", "playing"):
        raise NotOwnFinished("in_progress")
    if status != "finished":
        raise NotOwnFinished(status)
    return loaded, seat
