"""Views are sent `unlistened`: discord.py need not keep them (see there).
Clicks reach the bot by their custom_id (cogs/clicks.py)."""

from __future__ import annotations

from typing import TypeVar

import discord

V = TypeVar("V", bound=discord.ui.View | None)


def unlistened(view: V) -> V:
    """`view`, stopped, so that sending it leaves no copy in discord.py's view store.

    Clicks reach the bot through cogs/clicks.py, which routes them by their
    custom_id; a stored View would only add a no-op dispatch to every click.
    Worse, discord.py keeps the stored items of a message by custom_id, and
    ours carry the table's stamp, so every edit added a set of Buttons that
    were never dropped: a heap that grew with every click and a garbage
    collector that paused the event loop longer and longer (0.1 to 0.4 s
    after two minutes of 100 tables). A stopped view is still sent whole:
    only the keeping is skipped."""
    if view is not None:
        view.stop()
    return view
