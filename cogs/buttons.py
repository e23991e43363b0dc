"""Views are sent `unlistened`: discord.py need not keep them (see there).
Clicks reach the bot by their custom_id (cogs/clicks.py)."""

from __future__ import annotations

from typing import TypeVar

import discord

V = TypeVar("V", bound=discord.ui.View | None)


def unlistened(view: V) -> V:
    """`view`, stopped and let go of by its items, so that sending it leaves no
    copy in discord.py's view store and no garbage that only the cycle collector
    can free.

    Clicks reach the bot through cogs/clicks.py, which routes them by their
    custom_id; a stored View would only add a no-op dispatch to every click.
    Worse, discord.py keeps the stored items of a message by custom_id, and
    ours carry the table's stamp, so every edit added a set of Buttons that
    were never dropped: a heap that grew with every click and a garbage
    collector that paused the event loop longer and longer (0.1 to 0.4 s
    after two minutes of 100 tables). A stopped view is still sent whole:
    only the keeping is skipped.

    Each item also points back at its View, so every View sent was a cycle:
    the View, its items, their components, a Future, lists. At 800 tables
    that was some 500 Views a second and four fifths of the garbage each
    full collection found (the rest: discord.py's Interactions), and what
    kept the collector running. Without the pointers a View is freed as soon
    as it is sent; an item needs it only to run a callback, and ours have none.
    Sending the same view again (a message posted anew) still works."""
    if view is not None:
        view.stop()
        for item in view.children:
            item._view = None
    return view
