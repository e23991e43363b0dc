"""Shows tables in Discord: the table listener.

After every change a table hands over its snapshot; the presenter keeps the
latest and, at most once a second per table, edits the public table message;
then, on a lane of their own, the turn pings (cogs/pings.py: whom, when, and
the timer for the next look); and, as often but on a lane of its own,
refreshes the hand panels whose interaction tokens are still fresh. The
lanes never wait for each other: a table message held up by a rate limit
leaves the panels live. An update that fails for a passing
reason (a 5xx, a 429) is tried again with backoff, with the newest state,
until it lands: the final "game over" always shows.

Past capacity (tables/load.py) it sheds optional work: the table message
waits longer between edits (the newest state still wins), panels of people
with nothing to do now wait (the panel of a seat on turn, one just clicked,
one about to expire and the final state stay prompt; the skipped ones follow
once the load falls), "My hand" is answered at once and its panel follows
(`follow_panel`; so too for a click that reached the bot late, at any load),
no turn pings but last calls are posted and no round pictures drawn.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import discord

from cogs.activity_cog import open_button
from cogs.buttons import unlistened
from cogs.edit_backoff import Backoff, Lane, discord_trouble, retry_delay
from cogs.forfeit_warnings import ForfeitWarnings
from cogs.i18n import Lang, lang_for_locale
from cogs.panels import (
    PANEL_LIFETIME,
    PANEL_WARNING,
    HandPanels,
    moment,
    panel_key,
)
from cogs.permissions import lost_reason
from cogs.pings import Pings, TablePings
from cogs.render import (
    Rendered,
    hand_panel,
    lobby_message,
    panel_notice,
    raw_names,
    table_message,
)
from cogs.slate_picture import round_picture, standings_picture
from data import games, guilds
from data.db import Database
from engine.events import Happening
from tables.clock import ClockSource, SystemClock, Timer
from tables.load import Level, LoadGauge
from tables.log_safe import log_failure
from tables.snapshot import SeatUpdate, Status, TableSnapshot, drawn_at
from tables.table import Table

log = logging.getLogger(__name__)

# Past capacity a panel whose person has nothing to do is refreshed at most this
# often (not frozen: the game it follows still moves on it, only less often).
IDLE_PANEL_GAP = timedelta(seconds=5)
_EXPIRED = ":expired"
REPOST_AFTER = timedelta(minutes=55)  # before Discord's hour of edits runs out
REPOST_COOLDOWN = timedelta(seconds=10)  # /toep table again within this: no new message
TOO_OLD_TO_EDIT = 30046  # Discord: a message older than an hour takes no more edits
# An edit that took longer than this to land (discord.py waited out a rate
# limit, or tried a 502 again) starts its clock from when it landed.
LANDED_LATE = 2.0


@dataclass
class Shown:
    """What the presenter knows of one table in Discord."""

    snap: TableSnapshot | None = None
    updates: dict[int, SeatUpdate] = field(default_factory=dict)
    message_lane: Lane = field(default_factory=Lane)  # the table message
    ping_lane: Lane = field(default_factory=Lane)  # turn pings (cogs/pings.py)
    # The hand panels: the game goes on through them, so they go first.
    panel_lane: Lane = field(default_factory=lambda: Lane(urgent=True))
    message_id: int | None = None
    posted_at: datetime | None = None
    pings: TablePings = field(default_factory=TablePings)  # the standing ping and its turns
    saved_ids: tuple[int | None, int | None] = (None, None)  # (message, ping) in the database
    picture_key: str = ""  # rounds done, game over: which slate picture is shown
    repost: bool = False  # post the message anew at the next update (/toep table)
    edits: int = 0
    table: Table | None = None
    lost: bool = False  # the channel is gone, or the bot may not post there
    waits_for_guild: bool = False  # shown once Discord sent its guild (its language)
    repost_timer: Timer | None = None
    showing: asyncio.Lock = field(default_factory=asyncio.Lock)  # one show at a time
    idle_waiting: bool = False  # panels left stale past capacity: refreshed once it falls
    idle_timer: Timer | None = None  # their next refresh, IDLE_PANEL_GAP on
    landed: bool = False  # a request for it succeeded in the lane's current work


class Presenter:
    def __init__(self, client: discord.Client, db: Database,
                 clock: ClockSource | None = None, load: LoadGauge | None = None,
                 activity: bool = False) -> None:
        self.client = client
        self.db = db
        self.forfeit_warnings = ForfeitWarnings(db)  # the clock warning on a panel
        self.clock = clock or SystemClock()
        self.load = load or LoadGauge()
        self.load.on_level = self._load_changed
        self.now = self.clock.now
        self.shown: dict[int, Shown] = {}
        # The hand panels to keep up to date, saved for a restart (cogs/panels.py).
        self.hand = HandPanels(client, db, self.now)
        self.panels = self.hand.open
        self._langs: dict[int, Lang] = {}
        self.closing = False  # shutting down: no more tries after a failure
        self.activity = activity  # table messages get "Open the table" (ACTIVITY)
        # Slate pictures are drawn one at a time, in a thread of their own.
        # Drawing holds the interpreter's lock much of the time, and the event
        # loop waits for that lock after every read and write on a socket: with
        # six threads drawing (asyncio's default executor), the rounds of many
        # tables ending together slowed the loop's input and output some
        # 30 times while they lasted; with one, some 4 times, and one thread
        # draws nearly as many pictures a second on two cores.
        self._pictures = ThreadPoolExecutor(max_workers=1, thread_name_prefix="toep-pictures")
        self.pings = Pings(self)
        self.backoff = Backoff()  # failed updates tried again (cogs/edit_backoff.py)

    # --- the listener ------------------------------------------------------------------

    async def table_changed(self, table: Table, snap: TableSnapshot,
                            updates: Sequence[SeatUpdate],
                            happenings: Sequence[Happening]) -> None:
        shown = self._shown(table.id)
        if shown.snap is None:  # first seen (new, or restored): what Discord holds of it
            self._adopt(shown, table)
        shown.snap, shown.table = snap, table
        shown.updates.update({u.user_id: u for u in updates})
        self._wake_message(table.id, shown)
        self._wake_panels(shown)

    def _shown(self, table_id: int) -> Shown:
        shown = self.shown.get(table_id)
        if shown is None:
            shown = self.shown[table_id] = Shown()
            # The table message's gap grows with the load; panels keep theirs.
            shown.message_lane.interval = lambda: self.load.shedding.edit_interval
        return shown

    def _load_changed(self, level: Level) -> None:
        """The load fell so far that idle panels are refreshed again: those
        left stale meanwhile are brought up to date now, not at the next move."""
        if not self.load.shedding.idle_panels:
            return
        for shown in list(self.shown.values()):
            if shown.idle_waiting:
                shown.idle_waiting = False
                self._wake_panels(shown)

    def _wake_panels(self, shown: Shown) -> None:
        self._wake(shown, shown.panel_lane, lambda: self._refresh_panels(shown))

    def _wake_message(self, table_id: int, shown: Shown) -> None:
        self._wake(shown, shown.message_lane, lambda: self._show_and_ping(table_id, shown))

    def _adopt(self, shown: Shown, table: Table) -> None:
        """The table message and ping a table already has in Discord (after a
        restart): a message's age is in its id, so it is posted anew before
        Discord's hour of edits runs out; the old ping goes with the next one."""
        if shown.message_id is None and table.row.message_id is not None:
            self._posted(table.id, shown, table.row.message_id,
                         discord.utils.snowflake_time(table.row.message_id))
        if shown.pings.ping_id is None:
            shown.pings.ping_id = table.row.ping_id
        shown.saved_ids = (table.row.message_id, table.row.ping_id)

    def guild_available(self, guild_id: int) -> None:
        """Discord sent the guild: its language is known now. Tables that
        waited for it are shown (a restart shows no table in English first)."""
        self._langs.pop(guild_id, None)
        for table_id, shown in list(self.shown.items()):
            if shown.waits_for_guild and shown.snap is not None and (
                    shown.snap.guild_id == guild_id):
                shown.waits_for_guild = False
                self._wake_message(table_id, shown)

    def _wake(self, shown: Shown, lane: Lane, work: Callable[[], Awaitable[None]]) -> None:
        lane.dirty = True
        if lane.task is None or lane.task.done():
            lane.task = asyncio.get_running_loop().create_task(self._run(shown, lane, work))

    async def _run(self, shown: Shown, lane: Lane, work: Callable[[], Awaitable[None]]) -> None:
        """Show the newest state until nothing is left to show; a closed
        table's last state shown, the presenter forgets it."""
        try:
            await self._run_lane(shown, lane, work)
        finally:
            self._forget_if_done(shown)

    def _forget_if_done(self, shown: Shown) -> None:
        snap = shown.snap
        if snap is None or snap.status in (Status.LOBBY, Status.PLAYING):
            return
        current = asyncio.current_task()
        for lane in (shown.message_lane, shown.panel_lane, shown.ping_lane):
            if lane.dirty or (lane.task is not None and lane.task is not current
                              and not lane.task.done()):
                return  # the other lane forgets it when it is done
        for timer in (shown.repost_timer, shown.idle_timer):
            if timer is not None:
                timer.cancel()
        shown.pings.cancel()
        if self.shown.get(snap.table_id) is shown:
            del self.shown[snap.table_id]

    async def _run_lane(self, shown: Shown, lane: Lane,
                        work: Callable[[], Awaitable[None]]) -> None:
        loop = asyncio.get_running_loop()
        while lane.dirty:
            wait = lane.next_at - loop.time()
            if wait > 0:
                await lane.pause(wait)  # cut short once Discord answers again
            lane.dirty = False
            if self.client.is_closed():
                self.backoff.forget(lane)
                return  # shutting down: the restart shows the table from its saved state
            shown.landed = False
            try:
                async with self.load.slots.hold(lane.urgent):  # past capacity, in turn
                    await work()
                lane.failures = 0
                delay = None
                if shown.landed:  # Discord took a request for this table
                    self.backoff.succeeded(lane, (shown.message_lane, shown.panel_lane))
                else:
                    self.backoff.forget(lane)
            except Exception as err:
                if discord_trouble(err) and shown.table is not None:
                    # The table (or a panel) cannot be shown: its clock waits.
                    shown.table.show_failed()
                delay = retry_delay(err, lane.failures)
                if delay is None:
                    self.backoff.forget(lane)
                    _log_refused(err)
                elif self.closing:
                    self.backoff.forget(lane)
                    return
                else:
                    lane.failures += 1
                    lane.dirty = True  # the newest state, tried again
                    if discord_trouble(err):  # probed: tried early once Discord answers
                        self.backoff.failed(lane)
                    log.warning("showing a table failed (%s); trying again in %.1f s",
                                err, delay)
            # Counted from when the edit landed: one held up by a rate limit
            # is not followed at once by the next.
            lane.tried_at = loop.time()
            lane.next_at = lane.tried_at + (lane.interval() if delay is None else delay)

    async def _show_and_ping(self, table_id: int, shown: Shown) -> None:
        async with shown.showing:  # the lane's work and a due repost, one after the other
            await self._show_and_ping_now(table_id, shown)

    async def _show_and_ping_now(self, table_id: int, shown: Shown) -> None:
        snap = shown.snap
        if shown.lost or snap is None:
            return  # the hand panels still show how the table ended
        if await self._lang_unknown(snap.guild_id):
            shown.waits_for_guild = True  # `guild_available` shows it
            return
        try:
            await self._save_ids(table_id, shown)  # one whose save failed before
            await self._show_table(table_id, shown, snap)
        except discord.HTTPException as err:
            await self._refused_for_good(table_id, shown, err)
        self.wake_pings(table_id)  # after the table message: a ping links to it

    async def _refused_for_good(self, table_id: int, shown: Shown,
                                err: discord.HTTPException) -> None:
        """The channel is gone, or the bot may not post there: the game ends
        (unrated); anything else Discord refused is raised for the lane."""
        reason = lost_reason(err)
        if reason is None or shown.table is None:
            raise err
        log.warning("table %s: Discord refused it for good (%s %s): %s",
                    table_id, err.status, err.code, reason)
        shown.lost = True
        await shown.table.lose_channel(reason)

    def _lanes(self) -> list[Lane]:
        return [lane for shown in list(self.shown.values())
                for lane in (shown.message_lane, shown.panel_lane, shown.ping_lane)]

    async def settled(self) -> None:
        """Wait until every pending update is shown (tests, shutdown)."""
        for lane in self._lanes():
            if lane.task is not None and not lane.task.done():
                await lane.task

    async def close(self) -> None:
        """Show what is pending, once more at most (shutting down): an update
        waiting to be tried again is left to the restart. No timer is left."""
        self.closing = True
        for shown in self.shown.values():
            for timer in (shown.repost_timer, shown.idle_timer):
                if timer is not None:
                    timer.cancel()
            shown.repost_timer = shown.idle_timer = None
            shown.pings.cancel()
        for lane in self._lanes():
            if lane.failures and lane.task is not None:
                lane.task.cancel()
        await asyncio.gather(*(lane.task for lane in self._lanes() if lane.task is not None),
                             return_exceptions=True)
        await self.hand.close()
        self.backoff.close()
        self._pictures.shutdown(wait=False, cancel_futures=True)

    # --- the table message ---------------------------------------------------------------

    async def table_lang(self, guild_id: int) -> Lang:
        """The guild's language: an admin's choice, else its preferred locale
        (English while Discord has not yet sent the guild; that is not kept)."""
        lang = self._langs.get(guild_id)
        if lang is None:
            settings = await guilds.get_settings(self.db, guild_id)
            guild = self.client.get_guild(guild_id)
            chosen = settings.language
            lang = ("nl" if chosen == "nl" else "en") if chosen else lang_for_locale(
                guild.preferred_locale if guild else None)
            if chosen or guild is not None:
                self._langs[guild_id] = lang
        return lang

    async def _lang_unknown(self, guild_id: int) -> bool:
        """True while the guild's language cannot be known: no admin chose
        one and Discord has not sent the guild (just after a restart)."""
        if guild_id in self._langs or self.client.get_guild(guild_id) is not None:
            return False
        return (await guilds.get_settings(self.db, guild_id)).language is None

    def forget_lang(self, guild_id: int) -> None:
        self._langs.pop(guild_id, None)

    def render_table(self, snap: TableSnapshot, lang: Lang) -> Rendered:
        if snap.status is Status.LOBBY or snap.view is None:
            rendered = lobby_message(snap, lang)
        else:
            rendered = table_message(snap, lang, self.now())
        # "Open the table" when the Activity is configured (cogs/activity_cog.py).
        button = open_button(snap, lang) if self.activity else None
        if button is not None and rendered.view is not None:
            rendered.view.add_item(button)
        return rendered

    async def _picture(self, shown: Shown, snap: TableSnapshot,
                       lang: Lang) -> tuple[discord.File, str] | None:
        """The slates after a round (the standings after the game), rendered
        off the event loop, and its key; None when the picture on the message
        is current."""
        view = snap.view
        if view is None or not view.rounds:
            return None
        over = snap.status is Status.FINISHED
        key = f"{len(view.rounds)}:{over}"
        if key == shown.picture_key or not (over or self.load.shedding.pictures):
            return None  # past capacity only the final standings are drawn
        names = raw_names(snap)  # a picture shows no markdown: the names as they are
        loop = asyncio.get_running_loop()
        if over:
            picture = await loop.run_in_executor(self._pictures, standings_picture, view,
                                                 names, lang)
        else:
            picture = await loop.run_in_executor(self._pictures, round_picture, view, names,
                                                 lang, view.rounds[-1])
        # The same information as text, for screen readers: the image's alt text.
        return discord.File(io.BytesIO(picture.png), filename="slates.png",
                            description=picture.text[:1000]), key

    async def _show_table(self, table_id: int, shown: Shown, snap: TableSnapshot) -> None:
        """Edit (or post) the table message. A decision's clock waits for it:
        it starts as the message showing it lands, and waits again, keeping
        its time, while Discord fails the edits (tables/timekeeper.py)."""
        table = shown.table
        snap, drawn, took = await self._put_table(table_id, shown, snap)
        shown.landed = True
        if table is not None:
            # Held up (discord.py waited out a rate limit, tried a 502 again):
            # its clock counts from now, and the deadline shown is put right.
            late = took > LANDED_LATE
            table.shown(moment(snap), self.now() if late else drawn, late)

    async def _put_table(self, table_id: int, shown: Shown,
                         snap: TableSnapshot) -> tuple[TableSnapshot, datetime, float]:
        """The table message edited, or posted anew; what it shows, when that
        was drawn, and how many seconds the request took."""
        lang = await self.table_lang(snap.guild_id)
        picture = await self._picture(shown, snap, lang)
        drawn, began = self.now(), asyncio.get_running_loop().time()
        snap = drawn_at(snap, drawn)
        rendered = self.render_table(snap, lang)
        files = [picture[0]] if picture is not None else []
        channel = self.client.get_partial_messageable(snap.channel_id)
        stale = shown.repost or (
            shown.posted_at is not None and self.now() - shown.posted_at >= REPOST_AFTER)
        if shown.message_id is not None and not stale:
            try:
                await channel.get_partial_message(shown.message_id).edit(
                    content=rendered.content, embed=rendered.embed, view=unlistened(rendered.view),
                    attachments=files or discord.utils.MISSING)
                shown.edits += 1
                shown.picture_key = picture[1] if picture else shown.picture_key
                return snap, drawn, asyncio.get_running_loop().time() - began
            except discord.NotFound:
                log.info("table %s: its message is gone; posting it anew", table_id)
            except discord.HTTPException as err:
                if err.code != TOO_OLD_TO_EDIT:
                    raise
                log.info("table %s: its message is past Discord's hour of edits; "
                         "posting it anew", table_id)
                stale = True
        if shown.message_id is not None and stale:
            # A render of its own: greying out `rendered` would send the new message grey.
            await self._disable(channel, shown.message_id, self.render_table(snap, lang))
        message = await channel.send(content=rendered.content,
                                     embed=rendered.embed or discord.utils.MISSING,
                                     view=unlistened(rendered.view) or discord.utils.MISSING,
                                     files=files or discord.utils.MISSING)
        self._posted(table_id, shown, message.id, self.now())
        shown.repost = False
        shown.picture_key = picture[1] if picture else shown.picture_key
        shown.pings.relink = True  # a standing ping goes below the new message, with its link
        took = asyncio.get_running_loop().time() - began
        await self._save_ids(table_id, shown)
        return snap, drawn, took

    async def _save_ids(self, table_id: int, shown: Shown) -> None:
        """The table message and the standing ping, as a restart finds them:
        saved when they changed. A save that fails (the database locked, the
        disk full) fails the lane's update, which tries again, this first."""
        message_id, ping_id = shown.saved_ids
        if shown.message_id != message_id:
            await games.set_message(self.db, table_id, shown.message_id)
            shown.saved_ids = (shown.message_id, ping_id)
        if shown.pings.ping_id != ping_id:
            await games.set_ping(self.db, table_id, shown.pings.ping_id)
            shown.saved_ids = (shown.message_id, shown.pings.ping_id)

    def _posted(self, table_id: int, shown: Shown, message_id: int, at: datetime) -> None:
        """The table message is `message_id`, posted `at`. Before Discord's
        hour of edits runs out it is posted anew, also when nothing happens
        at the table meanwhile: later the old one could no longer be greyed out."""
        shown.message_id, shown.posted_at = message_id, at
        if shown.repost_timer is not None:
            shown.repost_timer.cancel()
        shown.repost_timer = self.clock.call_at(at + REPOST_AFTER,
                                                lambda: self._repost_due(table_id, message_id))

    async def _repost_due(self, table_id: int, message_id: int) -> None:
        """Posted anew now, not at the next change: that may come too late."""
        shown = self.shown.get(table_id)
        if shown is None or shown.message_id != message_id or shown.snap is None:
            return
        if shown.snap.status not in (Status.LOBBY, Status.PLAYING) or self.closing:
            return
        lane, loop = shown.message_lane, asyncio.get_running_loop()
        async with shown.showing:  # after an edit in flight, at the pace of edits
            wait = lane.next_at - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                await self._show_and_ping_now(table_id, shown)
            except Exception:  # the lane shows it (posting anew) with its retries
                log_failure(log, logging.WARNING,
                            "table %s: posting its message anew failed; trying again", table_id)
                self._wake_message(table_id, shown)
            lane.next_at = loop.time() + lane.interval()

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

    async def _ping(self, table_id: int, shown: Shown) -> None:
        snap = shown.snap
        if shown.lost or snap is None or shown.waits_for_guild:
            return
        try:
            await self._save_ids(table_id, shown)  # one whose save failed before
            await self.pings.update(shown.pings, snap)
        except discord.HTTPException as err:
            await self._refused_for_good(table_id, shown, err)

    # What the pings need of the presenter (cogs.pings.PingHost).

    def table_link(self, snap: TableSnapshot) -> str:
        return self.link(snap, self._shown(snap.table_id))

    async def save_ping(self, table_id: int) -> None:
        shown = self.shown.get(table_id)
        if shown is not None:
            await self._save_ids(table_id, shown)

    def looked(self, table_id: int, user_id: int, snap: TableSnapshot
               ) -> tuple[datetime | None, bool]:
        panel = self.panels.get((table_id, user_id))
        if panel is None or self.now() >= panel.opened + PANEL_LIFETIME:
            return None, False
        shows = panel.shown.startswith(f"{snap.stamp}:") and not panel.shown.endswith(_EXPIRED)
        return panel.opened, shows and not panel.thinking

    def wake_pings(self, table_id: int) -> None:
        shown = self.shown.get(table_id)
        if shown is not None and not self.closing:
            self._wake(shown, shown.ping_lane, lambda: self._ping(table_id, shown))

    def link(self, snap: TableSnapshot, shown: Shown) -> str:
        """A link to the table message (the channel's, before it is posted)."""
        channel = self.client.get_partial_messageable(snap.channel_id, guild_id=snap.guild_id)
        if shown.message_id is None:
            return channel.jump_url
        return channel.get_partial_message(shown.message_id).jump_url

    async def posted_link(self, table: Table, timeout: float = 5.0) -> str:
        """A link to the table message once its first post is done (a new
        table's answer points at it); the channel's if that takes longer."""
        shown = self._shown(table.id)
        task = shown.message_lane.task
        if shown.message_id is None and task is not None and not task.done():
            await asyncio.wait([task], timeout=timeout)
        return self.link(table.snapshot(), shown)

    async def bring_back(self, table: Table) -> str | None:
        """Post the table message anew at the bottom of the channel (the old
        one greyed out, as before Discord's hour of edits runs out); its link.
        None if it was posted moments ago: asking again changes nothing."""
        shown = self._shown(table.id)
        if shown.posted_at is not None and self.now() - shown.posted_at < REPOST_COOLDOWN:
            return None
        shown.repost = True
        await table.announce()
        task = shown.message_lane.task
        if task is not None and not task.done():
            await asyncio.wait([task])
        return self.link(table.snapshot(), shown)

    # --- hand panels ----------------------------------------------------------------------

    def register_panel(self, table_id: int, user_id: int, interaction: discord.Interaction,
                       lang: Lang, shows: tuple[TableSnapshot, SeatUpdate] | None = None,
                       clicked: str | None = None) -> None:
        """A panel to keep up to date; `shows`: what it was sent with, or
        `clicked`: the stamp of the button clicked on it. Call it once the
        interaction is answered: the panel lets go of the clicked message."""
        self.hand.register(table_id, user_id, interaction, lang, shows, clicked)

    def follow_panel(self, table_id: int, user_id: int, interaction: discord.Interaction,
                     lang: Lang) -> None:
        """A panel still to be shown: `interaction` was answered with
        "thinking", and the panel replaces that answer in its turn."""
        self.register_panel(table_id, user_id, interaction, lang)
        self.panels[(table_id, user_id)].thinking = True
        shown = self.shown.get(table_id)
        if shown is not None:
            self._wake_panels(shown)

    def told(self, table_id: int, user_id: int) -> tuple[TableSnapshot, SeatUpdate] | None:
        """The table as it was last told to the presenter (saved), with this
        person's seat; None before it was told anything of them."""
        shown = self.shown.get(table_id)
        update = None if shown is None else shown.updates.get(user_id)
        if shown is None or shown.snap is None or update is None:
            return None
        return shown.snap, update

    async def _refresh_panels(self, shown: Shown) -> None:
        """Every panel edits through its own token, all at once: one that
        waits (a rate limit, a slow answer) holds up no other."""
        snap = shown.snap
        if snap is None:
            return
        await self.hand.take_back(snap.table_id)  # after a restart: the panels opened before
        updates = dict(shown.updates)
        idle_too = self.load.shedding.idle_panels
        due = {user_id: update for user_id, update in updates.items()
               if idle_too or self._needed_now(snap, user_id, update)}
        shown.idle_waiting = any((snap.table_id, user_id) in self.panels
                                 for user_id in updates if user_id not in due)
        if shown.idle_waiting and shown.idle_timer is None and not self.closing:
            shown.idle_timer = self.clock.call_at(self.now() + IDLE_PANEL_GAP,
                                                  lambda: self._idle_due(shown))
        results = await asyncio.gather(
            *(self._refresh_panel(snap, user_id, update) for user_id, update in due.items()),
            return_exceptions=True)
        if any(result is True for result in results):
            shown.landed = True
            if shown.table is not None:
                shown.table.reached()  # a clock held for a failed panel runs on
        if snap.status not in (Status.LOBBY, Status.PLAYING):
            self.hand.drop_table(snap.table_id)
        for result in results:
            if isinstance(result, Exception):
                raise result  # the lane tries again (with the newest state)

    async def _idle_due(self, shown: Shown) -> None:
        shown.idle_timer = None
        self._wake_panels(shown)

    def _needed_now(self, snap: TableSnapshot, user_id: int, update: SeatUpdate) -> bool:
        """Whether a panel is refreshed even past capacity: its person has
        something to decide (or a clock runs for them), they just clicked on
        it, it is about to stop following the game, the game is over, or it
        was last refreshed IDLE_PANEL_GAP ago."""
        panel = self.panels.get((snap.table_id, user_id))
        if panel is None:
            return False
        now = self.now()
        on_clock = snap.clock is not None and update.seat in snap.clock.seats
        ending = now >= panel.opened + PANEL_LIFETIME - PANEL_WARNING
        stale = now >= (panel.refreshed or panel.opened) + IDLE_PANEL_GAP
        return (bool(update.view.legal) or on_clock or panel.owed or ending or stale
                or snap.status not in (Status.LOBBY, Status.PLAYING))

    async def _refresh_panel(self, snap: TableSnapshot, user_id: int,
                             update: SeatUpdate) -> bool:
        """Edit one panel if what it shows changed; True if an edit landed."""
        panel = self.panels.get((snap.table_id, user_id))
        if panel is None:
            return False
        stops = panel.opened + PANEL_LIFETIME
        if panel.shown.endswith(_EXPIRED):
            self.hand.drop((snap.table_id, user_id))  # its last edit said so
            return False
        # Near its end the panel says when it stops following the game,
        # and at the end that it did: never a panel frozen in silence.
        now = self.now()
        notice = panel_notice(stops, now, panel.lang) if now >= stops - PANEL_WARNING else None
        key = panel_key(snap, update) + (_EXPIRED if now >= stops else
                                         ":warned" if notice else "")
        if key == panel.shown or moment(snap) < panel.seen:
            return False  # shown already, or a newer state is (a refresh that started late)
        shown = self.shown.get(snap.table_id)
        counts = shown is not None and shown.table is not None and shown.table.forfeits_count
        warning = await self.forfeit_warnings.line(snap, counts, update.seat, user_id,
                                                   panel.lang, now)
        rendered = hand_panel(snap, update.view, panel.lang, now, notice=notice,
                              warning=warning)
        try:
            await panel.interaction.edit_original_response(
                content=rendered.content, embed=rendered.embed,
                view=unlistened(rendered.view))
            panel.shown, panel.seen = key, max(panel.seen, moment(snap))
            panel.owed, panel.refreshed, panel.thinking = False, now, False
            return True
        except discord.HTTPException as err:
            if retry_delay(err, 0) is not None:
                raise  # a passing trouble: the panel stays, tried again
            # Its token expired or its message is gone: the person opens a new
            # one (unless they did while this edit was out).
            self.hand.drop((snap.table_id, user_id), panel)
            return False


def _log_refused(err: Exception) -> None:
    if isinstance(err, discord.HTTPException):
        log.warning("Discord refused an update: %s %s", err.status, err.text)
    else:
        log_failure(log, logging.ERROR, "showing a table failed", error=err)
