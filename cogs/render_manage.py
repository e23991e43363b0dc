"""Messages for managing a table: the question before a walk-out forfeits,
and the "play again" button under a finished table."""

from __future__ import annotations

import discord

from .i18n import t
from .ids import encode
from .render_text import MAX_LABEL, Rendered, clip


def leave_question(table_id: int, why_free: str | None, lang: str,
                   warning: str | None = None) -> Rendered:
    """"Leave the game?" with what it costs: a forfeit, counted toward a ban
    unless `why_free` ("private": a private table; "alone": one person);
    `warning`: which forfeit it would be (cogs/render_bans.py)."""
    key = "leave.confirm.counts" if why_free is None else f"leave.confirm.{why_free}"
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=clip(t(lang, "btn.walkout"), MAX_LABEL),
                                    custom_id=encode(table_id, "walkout"),
                                    style=discord.ButtonStyle.danger))
    view.add_item(discord.ui.Button(label=clip(t(lang, "btn.stay"), MAX_LABEL),
                                    custom_id=encode(table_id, "stay"),
                                    style=discord.ButtonStyle.secondary))
    text = t(lang, key) if warning is None else f"{t(lang, key)}\n{warning}"
    return Rendered(text, None, view)


def again_view(table_id: int, lang: str) -> discord.ui.View:
    """Under a finished game: a new lobby, the same people invited, the same
    rules; and each player's own review of it (cogs/review_cog.py)."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=clip(t(lang, "btn.again"), MAX_LABEL),
                                    custom_id=encode(table_id, "again"),
                                    style=discord.ButtonStyle.success))
    view.add_item(discord.ui.Button(label=clip(t(lang, "btn.review"), MAX_LABEL),
                                    custom_id=review_id(table_id),
                                    style=discord.ButtonStyle.secondary))
    return view


def review_id(game_id: int) -> str:
    return f"toepreview:{game_id}"
