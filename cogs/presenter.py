"""Shows tables in Discord: the table listener.

After every change a table hands over its snapshot; the presenter keeps the
latest and, at most once a second per table, edits the public table message,
refreshes the hand panels whose interaction tokens are still fresh, and pings
a person whose turn starts (a new short message, deleted when the turn ends:
a mention added by an edit notifies nobody).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import discord

from cogs.buttons import unlistened
from cogs.i18n import Lang, lang_for_locale
from cogs.permissions import lost_reason
from cogs.render import (
    Rendered,
    hand_panel,
    lobby_message,
    panel_notice,
    raw_names,
    table_message,
    turn_ping,
)
from cogs.slate_picture import round_picture, standings_picture
from data import games, guilds
from data.db import Database
from engine.events import Happening
from tables.snapshot import SeatUpdate, Status, TableSnapshot
from tables.table import Table

log = logging.getLogger(__name__)

EDIT_INTERVAL = 1.0  # seconds between two edits of one table message
PANEL_LIFETIME = timedelta(minutes=14, seconds=30)  # tokens last 15 minutes
PANEL_WARNING = timedelta(minutes=3)  # a panel says this long before that it will stop
_EXPIRED = ":expired"
REPOST_AFTER = timedelta(minutes=55)  # before Discord's hour of edits runs out
REPOST_COOLDOWN = timedelta(seconds=10)  # /toep table again within this: no new message


@dataclass
class Panel:
    """A person's hand panel: the interaction whose token edits it."""

    interaction: discord.Interaction
    lang: Lang
    opened: datetime
    shown: str = ""


@dataclass
class Shown:
    """What the presenter knows of one table in Discord."""

    snap: TableSnapshot | None = None
    updates: dict[int, SeatUpdate] = field(default_factory=dict)
    dirty: bool = False
    task: asyncio.Task[None] | None = None
    last_edit: float = -EDIT_INTERVAL
    message_id: int | None = None
    posted_at: datetime | None = None
    ping_id: int | None = None
    ping_key: str = ""
    picture_key: str = ""  # rounds done, game over: which slate picture is shown
    repost: bool = False  # post the message anew at the next update (/toep table)
    edits: int = 0
    table: Table | None = None
    lost: bool = False  # the channel is gone, or the bot may not post there


class Presenter:
    def __init__(self, client: discord.Client, db: Database,
                 now: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.client = client
        self.db = db
        self.now = now
        self.shown: dict[int, Shown] = {}
        self.panels: dict[tuple[int, int], Panel] = {}
        self._langs: dict[int, Lang] = {}

    # --- the listener ------------------------------------------------------------------

    async def table_changed(self, table: Table, snap: TableSnapshot,
                            updates: Sequence[SeatUpdate],
                            happenings: Sequence[Happening]) -> None:
        shown = self.shown.setdefault(table.id, Shown())
        if shown.message_id is None and shown.snap is None:
            shown.message_id = table.row.message_id
        shown.snap, shown.table = snap, table
        shown.updates.update({u.user_id: u for u in updates})
        shown.dirty = True
        if shown.task is None or shown.task.done():
            shown.task = asyncio.get_running_loop().create_task(self._flush(table.id, shown))

    async def _flush(self, table_id: int, shown: Shown) -> None:
        loop = asyncio.get_running_loop()
        while shown.dirty:
            wait = shown.last_edit + EDIT_INTERVAL - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            shown.dirty = False
            if self.client.is_closed():
                return  # shutting down: the restart shows the table from its saved state
            snap = shown.snap
            if snap is None:
                return
            updates = dict(shown.updates)
            shown.last_edit = loop.time()
            # Panels edit through their own interaction tokens: they need not
            # wait behind the channel's edits and pings (its rate limit).
            await asyncio.gather(self._guarded(self._refresh_panels(snap, updates)),
                                 self._guarded(self._show_and_ping(table_id, shown, snap)))

    async def _show_and_ping(self, table_id: int, shown: Shown, snap: TableSnapshot) -> None:
        if shown.lost:
            return  # the hand panels still show how the table ended
        try:
            await self._show_table(table_id, shown, snap)
            await self._ping(shown, snap)
        except discord.HTTPException as err:
            reason = lost_reason(err)
            if reason is None or shown.table is None:
                raise
            log.warning("table %s: Discord refused it for good (%s %s): %s",
                        table_id, err.status, err.code, reason)
            shown.lost = True
            await shown.table.lose_channel(reason)

    async def _guarded(self, work: Awaitable[None]) -> None:
        try:
            await work
        except discord.HTTPException as err:
            log.warning("Discord refused an update: %s %s", err.status, err.text)
        except Exception:
            log.exception("showing a table failed")

    async def settled(self) -> None:
        """Wait until every pending update is shown (tests, shutdown)."""
        for shown in list(self.shown.values()):
            if shown.task is not None and not shown.task.done():
                await shown.task

    # --- the table message ---------------------------------------------------------------

    async def table_lang(self, guild_id: int) -> Lang:
        """The guild's language: an admin's choice, else its preferred locale."""
        lang = self._langs.get(guild_id)
        if lang is None:
            settings = await guilds.get_settings(self.db, guild_id)
            guild = self.client.get_guild(guild_id)
            chosen = settings.language
            lang = ("nl" if chosen == "nl" else "en") if chosen else lang_for_locale(
                guild.preferred_locale if guild else None)
            self._langs[guild_id] = lang
        return lang

    def forget_lang(self, guild_id: int) -> None:
        self._langs.pop(guild_id, None)

    def render_table(self, snap: TableSnapshot, lang: Lang) -> Rendered:
        if snap.status is Status.LOBBY or snap.view is None:
            return lobby_message(snap, lang)
        return table_message(snap, lang, self.now())

    async def _picture(self, shown: Shown, snap: TableSnapshot, lang: Lang) -> discord.File | None:
        """The slates after a round (the standings after the game), rendered
        off the event loop; None when the picture on the message is current."""
        view = snap.view
        if view is None or not view.rounds:
            return None
        over = snap.status is Status.FINISHED
        key = f"{len(view.rounds)}:{over}"
        if key == shown.picture_key:
            return None
        shown.picture_key = key
        names = raw_names(snap)  # a picture shows no markdown: the names as they are
        if over:
            picture = await asyncio.to_thread(standings_picture, view, names, lang)
        else:
            picture = await asyncio.to_thread(round_picture, view, names, lang, view.rounds[-1])
        # The same information as text, for screen readers: the image's alt text.
        return discord.File(io.BytesIO(picture.png), filename="slates.png",
                            description=picture.text[:1000])

    async def _show_table(self, table_id: int, shown: Shown, snap: TableSnapshot) -> None:
        lang = await self.table_lang(snap.guild_id)
        rendered = self.render_table(snap, lang)
        picture = await self._picture(shown, snap, lang)
        files = [picture] if picture is not None else []
        channel = self.client.get_partial_messageable(snap.channel_id)
        stale = shown.repost or (
            shown.posted_at is not None and self.now() - shown.posted_at > REPOST_AFTER)
        if shown.message_id is not None and not stale:
            try:
                await channel.get_partial_message(shown.message_id).edit(
                    content=rendered.content, embed=rendered.embed, view=unlistened(rendered.view),
                    attachments=files or discord.utils.MISSING)
                shown.edits += 1
                return
            except discord.NotFound:
                log.info("table %s: its message is gone; posting it anew", table_id)
        if shown.message_id is not None and stale:
            # A render of its own: greying out `rendered` would send the new message grey.
            await self._disable(channel, shown.message_id, self.render_table(snap, lang))
        message = await channel.send(content=rendered.content,
                                     embed=rendered.embed or discord.utils.MISSING,
                                     view=unlistened(rendered.view) or discord.utils.MISSING,
                                     files=files or discord.utils.MISSING)
        shown.message_id, shown.posted_at, shown.repost = message.id, self.now(), False
        shown.ping_key = ""  # a standing ping goes below the new message, with its link
        await games.set_message(self.db, table_id, message.id)

    async def _disable(self, channel: discord.PartialMessageable, message_id: int,
                       rendered: Rendered) -> None:
        """The old message keeps its text, its buttons greyed out."""
        view = rendered.view
        if view is not None:
            for item in view.children:
                if isinstance(item, discord.ui.Button):
                    item.disabled = True
        with contextlib.suppress(discord.HTTPException):
            await channel.get_partial_message(message_id).edit(view=unlistened(view))

    # --- pings --------------------------------------------------------------------------

    async def _ping(self, shown: Shown, snap: TableSnapshot) -> None:
        users = self._turn_users(snap)
        # A ping stands while the same people are on turn (a trick's winner
        # leading next keeps it); it goes when their turn passes to others.
        key = ",".join(map(str, users))
        if key == shown.ping_key:
            return
        shown.ping_key = key
        channel = self.client.get_partial_messageable(snap.channel_id)
        if shown.ping_id is not None:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(shown.ping_id).delete()
            shown.ping_id = None
        if not users:
            return
        lang = await self.table_lang(snap.guild_id)
        text = turn_ping(users, lang, self.link(snap, shown))
        message = await channel.send(text, allowed_mentions=discord.AllowedMentions(
            users=[discord.Object(id=u) for u in users], everyone=False, roles=False))
        shown.ping_id = message.id

    def link(self, snap: TableSnapshot, shown: Shown) -> str:
        """A link to the table message (the channel's, before it is posted)."""
        channel = self.client.get_partial_messageable(snap.channel_id, guild_id=snap.guild_id)
        if shown.message_id is None:
            return channel.jump_url
        return channel.get_partial_message(shown.message_id).jump_url

    async def bring_back(self, table: Table) -> str | None:
        """Post the table message anew at the bottom of the channel (the old
        one greyed out, as before Discord's hour of edits runs out); its link.
        None if it was posted moments ago: asking again changes nothing."""
        shown = self.shown.setdefault(table.id, Shown())
        if shown.posted_at is not None and self.now() - shown.posted_at < REPOST_COOLDOWN:
            return None
        shown.repost = True
        await table.announce()
        task = shown.task
        if task is not None and not task.done():
            await asyncio.wait([task])
        return self.link(table.snapshot(), shown)

    def _turn_users(self, snap: TableSnapshot) -> list[int]:
        """People whose turn it is now (turns, not windows: silence is fine there)."""
        if snap.status is not Status.PLAYING or snap.clock is None or snap.clock.window:
            return []
        users = [snap.seats[s].user_id for s in snap.clock.seats]
        return [u for u in users if u is not None]

    # --- hand panels ----------------------------------------------------------------------

    def register_panel(self, table_id: int, user_id: int, interaction: discord.Interaction,
                       lang: Lang, shown: str = "") -> None:
        self.panels[(table_id, user_id)] = Panel(interaction, lang, self.now(), shown)

    def panel_key(self, snap: TableSnapshot, update: SeatUpdate) -> str:
        return f"{snap.stamp}:{snap.status.value}:{len(snap.passed)}:{update.view.legal}"

    async def _refresh_panels(self, snap: TableSnapshot, updates: dict[int, SeatUpdate]) -> None:
        for user_id, update in updates.items():
            panel = self.panels.get((snap.table_id, user_id))
            if panel is None:
                continue
            stops = panel.opened + PANEL_LIFETIME
            if panel.shown.endswith(_EXPIRED):
                del self.panels[(snap.table_id, user_id)]  # its last edit said so
                continue
            # Near its end the panel says when it stops following the game,
            # and at the end that it did: never a panel frozen in silence.
            now = self.now()
            notice = panel_notice(stops, now, panel.lang) if now >= stops - PANEL_WARNING else None
            key = self.panel_key(snap, update) + (_EXPIRED if now >= stops else
                                                  ":warned" if notice else "")
            if key == panel.shown:
                continue
            rendered = hand_panel(snap, update.view, panel.lang, now, notice=notice)
            try:
                await panel.interaction.edit_original_response(
                    content=rendered.content, embed=rendered.embed,
                    view=unlistened(rendered.view))
                panel.shown = key
            except discord.HTTPException:
                del self.panels[(snap.table_id, user_id)]
        if snap.status not in (Status.LOBBY, Status.PLAYING):
            for done in [k for k in self.panels if k[0] == snap.table_id]:
                del self.panels[done]
