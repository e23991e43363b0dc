"""The hand panels the presenter keeps up to date: by table and person, each
with the interaction whose token edits it; saved, so that a restarted bot
goes on editing them until their token lapses.

A panel is saved (data/panels.py) a moment after it is opened or clicked on,
several together in one transaction, and deleted when it lapses, when its
person opens a newer one, or when its game ends. After a restart the first
refresh of a table's panels takes the saved ones back (all tables' in one
query, once): a panel opened before the restart is refreshed after it. Its
interaction is rebuilt from what was saved; discord.py edits an interaction's
first message with only its application id and token. Tokens are secrets:
never logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

import aiohttp
import discord

from cogs.i18n import Lang
from data import panels as saved_panels
from data.db import Database
from data.lease import LeaseLost
from data.panels import SavedPanel
from data.sql import OUTAGE_ERRORS
from tables.log_safe import log_failure
from tables.snapshot import SeatUpdate, TableSnapshot

log = logging.getLogger(__name__)

TOKEN_LIFETIME = timedelta(minutes=15)  # Discord's, for an interaction's token
PANEL_LIFETIME = timedelta(minutes=14, seconds=30)  # edited this long, a margin before it
PANEL_WARNING = timedelta(minutes=3)  # a panel says this long before that it will stop
SAVE_DELAY = 0.5  # seconds: panels opened meanwhile are saved together
SAVE_RETRY = 5.0  # seconds before saving again after the database failed

Key = tuple[int, int]  # (table id, user id)


@dataclass
class Panel:
    """A person's hand panel: the interaction whose token edits it."""

    interaction: discord.Interaction
    lang: Lang
    opened: datetime
    shown: str = ""  # the key of what it shows
    seen: int = -1  # the table's event count when what it shows was taken
    owed: bool = False  # the person clicked on it: the result shows, whatever the load
    refreshed: datetime | None = None  # when it was last sent or edited (None: `opened`)
    thinking: bool = False  # answered "thinking" and not yet edited into the panel


class HandPanels:
    def __init__(self, client: discord.Client, db: Database,
                 now: Callable[[], datetime]) -> None:
        self.client, self.db, self.now = client, db, now
        self.open: dict[Key, Panel] = {}
        self._to_save: set[Key] = set()
        self._gone: set[Key] = set()
        self._saver: asyncio.Task[None] | None = None
        self._deleting: set[asyncio.Task[None]] = set()  # "thinking" answers let go of
        self._saved: dict[int, list[SavedPanel]] | None = None  # taken back, by table
        self._taking_back = asyncio.Lock()
        self._lapse = now()  # when the last of the panels taken back lapses

    # --- opening and dropping ----------------------------------------------------------

    def register(self, table_id: int, user_id: int, interaction: discord.Interaction,
                 lang: Lang, shows: tuple[TableSnapshot, SeatUpdate] | None = None,
                 clicked: str | None = None) -> Panel:
        """A panel to keep up to date (see `Presenter.register_panel`)."""
        # Kept for its token, for up to 15 minutes, the interaction would keep
        # the message clicked on too, parsed: its embed, rows and buttons. At
        # 800 tables those 1,600 messages were about a sixth of what every full
        # garbage collection walks, each collection a pause of the event loop.
        interaction.message = None
        key = (table_id, user_id)
        old = self.open.get(key)
        if old is not None and old.thinking and old.interaction is not interaction:
            self._delete_answer(old.interaction)
        panel = Panel(interaction, lang, self.now(), owed=shows is None)
        if shows is not None:
            panel.shown, panel.seen = panel_key(*shows), moment(shows[0])
        elif old is not None and clicked is not None and old.shown.startswith(f"{clicked}:"):
            # Clicked on the question it shows: it stays as it is until the
            # click's move lands. Shown again meanwhile, the same question
            # would invite a second click, refused as late.
            panel.shown, panel.seen = old.shown, old.seen
        self.open[key] = panel
        self._save(key)
        return panel

    def drop(self, key: Key, panel: Panel | None = None) -> None:
        """Stop following a panel (lapsed, or its message gone); `panel`: only
        if it is still that one (not a newer one opened meanwhile)."""
        if key in self.open and (panel is None or self.open[key] is panel):
            del self.open[key]
            self._forget(key)

    def drop_table(self, table_id: int) -> None:
        """Its game is over: its panels showed how it ended."""
        for key in [k for k in self.open if k[0] == table_id]:
            del self.open[key]
            self._forget(key)
        if self._saved is not None:
            self._saved.pop(table_id, None)

    def _delete_answer(self, interaction: discord.Interaction) -> None:
        """A "thinking" answer that a newer panel replaced before it became one
        (two quick clicks on "My hand" past capacity): deleted, not left
        thinking until Discord gives up on it."""
        async def delete() -> None:
            # Tidying only: a refusal or the network failing leaves it be.
            with contextlib.suppress(discord.HTTPException, aiohttp.ClientError, OSError,
                                     asyncio.TimeoutError):
                await interaction.delete_original_response()

        task = asyncio.get_running_loop().create_task(delete())
        self._deleting.add(task)
        task.add_done_callback(self._deleting.discard)

    # --- saved for a restart -------------------------------------------------------------

    def _save(self, key: Key) -> None:
        self._gone.discard(key)
        self._to_save.add(key)
        self._schedule(SAVE_DELAY)

    def _forget(self, key: Key) -> None:
        self._to_save.discard(key)
        self._gone.add(key)
        self._schedule(SAVE_DELAY)

    def _schedule(self, delay: float) -> None:
        if self._saver is None or self._saver.done():
            self._saver = asyncio.get_running_loop().create_task(self._save_soon(delay))

    async def _save_soon(self, delay: float) -> None:
        await asyncio.sleep(delay)
        await self.flush()

    async def flush(self) -> None:
        """Save what changed since the last save, in one transaction; tried
        again later if the database fails (until then a restart would find
        the panel as it was last saved, or not at all)."""
        keys, gone = self._to_save, self._gone
        self._to_save, self._gone = set(), set()
        rows = [_row(key, self.open[key]) for key in keys if key in self.open]
        try:
            await saved_panels.save_panels(self.db, rows, sorted(gone), self.now())
        except OUTAGE_ERRORS:
            log_failure(log, logging.WARNING,
                        "saving %d hand panels failed; trying again", len(rows) + len(gone))
            self._to_save |= {k for k in keys if k not in self._gone}
            self._gone |= {k for k in gone if k not in self._to_save}
            if self._saver is asyncio.current_task():
                self._saver = None  # this one ends: another tries again
            self._schedule(SAVE_RETRY)  # (or the save already on its way does)
        except LeaseLost:
            log.info("hand panels not saved: this process lost its lease and stops")
        except Exception:  # not the database's passing trouble: not tried again
            log_failure(log, logging.ERROR, "saving %d hand panels failed",
                        len(rows) + len(gone))

    async def take_back(self, table_id: int) -> None:
        """The panels of `table_id` saved before a restart, followed again
        (all tables' are read at the first call; lapsed ones deleted)."""
        async with self._taking_back:
            if self._saved is None:
                try:
                    found = await saved_panels.take_back(self.db, self.now())
                except OUTAGE_ERRORS:
                    log_failure(log, logging.WARNING,
                                "reading the saved hand panels failed; trying again later")
                    return
                self._saved = {}
                for row in found:
                    self._saved.setdefault(row.game_id, []).append(row)
                self._lapse = max((row.expires_at for row in found), default=self.now())
        now = self.now()
        for row in self._saved.pop(table_id, []):
            key = (table_id, row.user_id)
            if key not in self.open and row.expires_at > now:  # none opened since
                self.open[key] = Panel(_rebuilt(self.client, row), _lang(row.lang),
                                       row.opened_at)
        if self._saved and now >= self._lapse:
            self._saved.clear()  # tables not restored here (another shard's): lapsed

    async def close(self) -> None:
        """Save what is pending (shutting down)."""
        if self._saver is not None and not self._saver.done():
            self._saver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._saver
        with contextlib.suppress(*OUTAGE_ERRORS):
            await self.flush()
        if self._saver is not None:
            self._saver.cancel()
        await asyncio.gather(*self._deleting, return_exceptions=True)


def panel_key(snap: TableSnapshot, update: SeatUpdate) -> str:
    """What a hand panel shows, as far as it changes: a panel whose key is
    unchanged is not edited. In the vuile was window a panel shows whether its
    own seat passed, not who else did, so a pass edits only the panel of the
    seat that passed (it used to edit every panel at the table)."""
    passed = update.seat in snap.passed
    return f"{snap.stamp}:{snap.status.value}:{passed}:{update.view.legal}"


def moment(snap: TableSnapshot) -> int:
    """How far the table's game is: its event count (-1 in the lobby)."""
    return snap.view.event_count if snap.view is not None else -1


def _row(key: Key, panel: Panel) -> SavedPanel:
    interaction = panel.interaction
    return SavedPanel(key[0], key[1], interaction.id, interaction.application_id,
                      interaction.token, panel.lang, panel.opened,
                      panel.opened + TOKEN_LIFETIME)


def _lang(text: str) -> Lang:
    return "nl" if text == "nl" else "en"


def _rebuilt(client: discord.Client, row: SavedPanel) -> discord.Interaction:
    """The interaction of a saved panel, as far as editing its message needs:
    discord.py's `edit_original_response` uses only its application id and
    token (type 3: a component's, as "My hand" is)."""
    data = {"id": str(row.interaction_id), "type": 3, "token": row.token, "version": 1,
            "application_id": str(row.application_id),
            "attachment_size_limit": 8 * 1024 * 1024}
    return discord.Interaction(data=cast(Any, data), state=client._connection)
