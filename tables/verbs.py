"""One click's verb to the table method it calls: the same for a button in
Discord (cogs/table_cog.py) and a click in the web table (web/server/actions.py),
so the two can never drift apart. Who clicks and whether they may are the
caller's to know; the table checks the rules."""

from __future__ import annotations

from engine.cards import Card
from tables.table import Table


async def perform(table: Table, user_id: int, name: str, verb: str, arg: str | None = None,
                  card: Card | None = None, stamp: str | None = None) -> None:
    """Do `verb` at `table` for `user_id` (`name`: their display name, for a join);
    a game verb goes to `Table.act`, which refuses one it does not know."""
    if verb == "join":
        await table.join(user_id, name)
    elif verb == "leave":
        await table.leave(user_id)
    elif verb == "addbot":
        await table.add_bot(user_id, arg or "normal")
    elif verb == "removebot":  # the buttons of lobby messages before the host's menu
        await table.remove_bot(user_id, int(arg or -1))
    elif verb == "start":
        await table.start(user_id)
    elif verb == "cancel":
        await table.cancel(user_id)
    else:
        await table.act(user_id, verb, card, stamp)
