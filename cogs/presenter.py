"""Shows tables in Discord: the table listener.

After every change a table hands over its snapshot; the presenter keeps the
latest and, at most once a second per table, edits the public table message
and pings a person whose turn starts (a new short message, deleted when the
turn ends: a mention added by an edit notifies nobody); and, as often but on
a lane of its own, refreshes the hand panels whose interaction tokens are
still fresh. The two lanes never wait for each other: a table message held up
by a rate limit leaves the panels live. An update that fails for a passing
reason (a 5xx, a 429) is tried again with backoff, with the newest state,
until it lands: the final "game over" always shows.

Past capacity (tables/load.py) it sheds optional work: the table message
waits longer between edits (the newest state still wins), panels of people
with nothing to do now wait (the panel of a seat on turn, one just clicked,
one about to expire and the final state stay prompt; the skipped ones follow
once the load falls), "My hand" is answered at once and its panel follows
(`follow_panel`; so too for a click that reached the bot late, at any load),
no turn pings are posted and no round pictures drawn.
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

import aiohttp
import discord

from cogs.activity_cog import open_button
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
from data.sql import OUTAGE_ERRORS
from engine.events import Happening
from tables.clock import ClockSource, SystemClock, Timer
from tables.load import EDIT_INTERVAL, Level, LoadGauge
from tables.log_safe import log_failure
from tables.snapshot import SeatUpdate, Status, TableSnapshot
from tables.table import Table

log = logging.getLogger(__name__)

RETRY_MAX = 30.0  # seconds: the longest wait before trying a failed update again
PANEL_LIFETIME = timedelta(minutes=14, seconds=30)  # tokens last 15 minutes
PANEL_WARNING = timedelta(minutes=3)  # a panel says this long before that it will stop
# Past capacity a panel whose person has nothing to do is refreshed at most this
# often (not frozen: the game it follows still moves on it, only less often).
IDLE_PANEL_GAP = timedelta(seconds=5)
_EXPIRED = ":expired"
REPOST_AFTER = timedelta(minutes=55)  # before Discord's hour of edits runs out
REPOST_COOLDOWN = timedelta(seconds=10)  # /toep table again within this: no new message
TOO_OLD_TO_EDIT = 30046  # Discord: a message older than an hour takes no more edits


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


@dataclass
class Lane:
    """One kind of update of a table (its message, its panels): the newest
    state shown at most once per EDIT_INTERVAL, tried again after a failure."""

    dirty: bool = False
    task: asyncio.Task[None] | None = None
    next_at: float = 0.0  # loop time before which it does not try
    failures: int = 0
    interval: Callable[[], float] = field(default=lambda: EDIT_INTERVAL)  # between updates
    urgent: bool = False  # past capacity it goes before others (tables/slots.py)


@dataclass
class Shown:
    """What the presenter knows of one table in Discord."""

    snap: TableSnapshot | None = None
    updates: dict[int, SeatUpdate] = field(default_factory=dict)
    message_lane: Lane = field(default_factory=Lane)  # the table message and pings
    # The hand panels: the game goes on through them, so they go first.
    panel_lane: Lane = field(default_factory=lambda: Lane(urgent=True))
    message_id: int | None = None
    posted_at: datetime | None = None
    ping_id: int | None = None
    ping_key: str = ""
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


class Presenter:
    def __init__(self, client: discord.Client, db: Database,
                 clock: ClockSource | None = None, load: LoadGauge | None = None,
                 activity: bool = False) -> None:
        self.client = client
        self.db = db
        self.clock = clock or SystemClock()
        self.load = load or LoadGauge()
        self.load.on_level = self._load_changed
        self.now = self.clock.now
        self.shown: dict[int, Shown] = {}
        self.panels: dict[tuple[int, int], Panel] = {}
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
        self._deleting: set[asyncio.Task[None]] = set()  # "thinking" answers let go of

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
        if shown.ping_id is None:
            shown.ping_id = table.row.ping_id
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
            await self._run_lane(lane, work)
        finally:
            self._forget_if_done(shown)

    def _forget_if_done(self, shown: Shown) -> None:
        snap = shown.snap
        if snap is None or snap.status in (Status.LOBBY, Status.PLAYING):
            return
        current = asyncio.current_task()
        for lane in (shown.message_lane, shown.panel_lane):
            if lane.dirty or (lane.task is not None and lane.task is not current
                              and not lane.task.done()):
                return  # the other lane forgets it when it is done
        for timer in (shown.repost_timer, shown.idle_timer):
            if timer is not None:
                timer.cancel()
        if self.shown.get(snap.table_id) is shown:
            del self.shown[snap.table_id]

    async def _run_lane(self, lane: Lane, work: Callable[[], Awaitable[None]]) -> None:
        loop = asyncio.get_running_loop()
        while lane.dirty:
            wait = lane.next_at - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            lane.dirty = False
            if self.client.is_closed():
                return  # shutting down: the restart shows the table from its saved state
            try:
                async with self.load.slots.hold(lane.urgent):  # past capacity, in turn
                    await work()
                lane.failures = 0
                delay = None
            except Exception as err:
                delay = retry_delay(err, lane.failures)
                if delay is None:
                    _log_refused(err)
                elif self.closing:
                    return
                else:
                    lane.failures += 1
                    lane.dirty = True  # the newest state, tried again
                    log.warning("showing a table failed (%s); trying again in %.1f s",
                                err, delay)
            # Counted from when the edit landed: one held up by a rate limit
            # is not followed at once by the next.
            lane.next_at = loop.time() + (lane.interval() if delay is None else delay)

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
            await self._ping(shown, snap)
        except discord.HTTPException as err:
            reason = lost_reason(err)
            if reason is None or shown.table is None:
                raise
            log.warning("table %s: Discord refused it for good (%s %s): %s",
                        table_id, err.status, err.code, reason)
            shown.lost = True
            await shown.table.lose_channel(reason)

    def _lanes(self) -> list[Lane]:
        return [lane for shown in list(self.shown.values())
                for lane in (shown.message_lane, shown.panel_lane)]

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
        for lane in self._lanes():
            if lane.failures and lane.task is not None:
                lane.task.cancel()
        await asyncio.gather(*(lane.task for lane in self._lanes() if lane.task is not None),
                             *self._deleting, return_exceptions=True)
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
        lang = await self.table_lang(snap.guild_id)
        rendered = self.render_table(snap, lang)
        picture = await self._picture(shown, snap, lang)
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
                return
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
        shown.ping_key = ""  # a standing ping goes below the new message, with its link
        await self._save_ids(table_id, shown)

    async def _save_ids(self, table_id: int, shown: Shown) -> None:
        """The table message and the standing ping, as a restart finds them:
        saved when they changed. A save that fails (the database locked, the
        disk full) fails the lane's update, which tries again, this first."""
        message_id, ping_id = shown.saved_ids
        if shown.message_id != message_id:
            await games.set_message(self.db, table_id, shown.message_id)
            shown.saved_ids = (shown.message_id, ping_id)
        if shown.ping_id != ping_id:
            await games.set_ping(self.db, table_id, shown.ping_id)
            shown.saved_ids = (shown.message_id, shown.ping_id)

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

    async def _ping(self, shown: Shown, snap: TableSnapshot) -> None:
        if snap.status is Status.PLAYING and not self.load.shedding.pings:
            return  # past capacity: the panel and the table message say whose turn it is
        users = self._turn_users(snap)
        # A ping stands while the same people are on turn (a trick's winner
        # leading next keeps it); it goes when their turn passes to others.
        key = ",".join(map(str, users))
        if key == shown.ping_key:
            return
        channel = self.client.get_partial_messageable(snap.channel_id)
        if shown.ping_id is not None:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(shown.ping_id).delete()
            shown.ping_id = None
            await self._save_ids(snap.table_id, shown)
        if not users:
            shown.ping_key = key
            return
        lang = await self.table_lang(snap.guild_id)
        text = turn_ping(users, lang, self.link(snap, shown))
        message = await channel.send(text, allowed_mentions=discord.AllowedMentions(
            users=[discord.Object(id=u) for u in users], everyone=False, roles=False))
        shown.ping_id, shown.ping_key = message.id, key
        await self._save_ids(snap.table_id, shown)  # a restart deletes it

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

    def _turn_users(self, snap: TableSnapshot) -> list[int]:
        """People whose turn it is now (turns, not windows: silence is fine there)."""
        if snap.status is not Status.PLAYING or snap.clock is None or snap.clock.window:
            return []
        users = [snap.seats[s].user_id for s in snap.clock.seats]
        return [u for u in users if u is not None]

    # --- hand panels ----------------------------------------------------------------------

    def register_panel(self, table_id: int, user_id: int, interaction: discord.Interaction,
                       lang: Lang, shows: tuple[TableSnapshot, SeatUpdate] | None = None,
                       clicked: str | None = None) -> None:
        """A panel to keep up to date; `shows`: what it was sent with, or
        `clicked`: the stamp of the button clicked on it. Call it once the
        interaction is answered: the panel lets go of the clicked message."""
        # Kept for its token, for up to 15 minutes, the interaction would keep
        # the message clicked on too, parsed: its embed, rows and buttons. At
        # 800 tables those 1,600 messages were about a sixth of what every full
        # garbage collection walks, each collection a pause of the event loop.
        interaction.message = None
        old = self.panels.get((table_id, user_id))
        if old is not None and old.thinking and old.interaction is not interaction:
            self._delete_answer(old.interaction)
        panel = Panel(interaction, lang, self.now(), owed=shows is None)
        if shows is not None:
            panel.shown, panel.seen = panel_key(*shows), _moment(shows[0])
        elif old is not None and clicked is not None and old.shown.startswith(f"{clicked}:"):
            # Clicked on the question it shows: it stays as it is until the
            # click's move lands. Shown again meanwhile, the same question
            # would invite a second click, refused as late.
            panel.shown, panel.seen = old.shown, old.seen
        self.panels[(table_id, user_id)] = panel

    def follow_panel(self, table_id: int, user_id: int, interaction: discord.Interaction,
                     lang: Lang) -> None:
        """A panel still to be shown: `interaction` was answered with
        "thinking", and the panel replaces that answer in its turn."""
        self.register_panel(table_id, user_id, interaction, lang)
        self.panels[(table_id, user_id)].thinking = True
        shown = self.shown.get(table_id)
        if shown is not None:
            self._wake_panels(shown)

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
        if snap.status not in (Status.LOBBY, Status.PLAYING):
            for done in [k for k in self.panels if k[0] == snap.table_id]:
                del self.panels[done]
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
                             update: SeatUpdate) -> None:
        panel = self.panels.get((snap.table_id, user_id))
        if panel is None:
            return
        stops = panel.opened + PANEL_LIFETIME
        if panel.shown.endswith(_EXPIRED):
            del self.panels[(snap.table_id, user_id)]  # its last edit said so
            return
        # Near its end the panel says when it stops following the game,
        # and at the end that it did: never a panel frozen in silence.
        now = self.now()
        notice = panel_notice(stops, now, panel.lang) if now >= stops - PANEL_WARNING else None
        key = panel_key(snap, update) + (_EXPIRED if now >= stops else
                                         ":warned" if notice else "")
        if key == panel.shown or _moment(snap) < panel.seen:
            return  # shown already, or a newer state is (a refresh that started late)
        rendered = hand_panel(snap, update.view, panel.lang, now, notice=notice)
        try:
            await panel.interaction.edit_original_response(
                content=rendered.content, embed=rendered.embed,
                view=unlistened(rendered.view))
            panel.shown, panel.seen = key, max(panel.seen, _moment(snap))
            panel.owed, panel.refreshed, panel.thinking = False, now, False
        except discord.HTTPException as err:
            if retry_delay(err, 0) is not None:
                raise  # a passing trouble: the panel stays, tried again
            # Its token expired or its message is gone: the person opens a new
            # one (unless they did while this edit was out).
            if self.panels.get((snap.table_id, user_id)) is panel:
                del self.panels[(snap.table_id, user_id)]


def panel_key(snap: TableSnapshot, update: SeatUpdate) -> str:
    """What a hand panel shows, as far as it changes: a panel whose key is
    unchanged is not edited. In the vuile was window a panel shows whether its
    own seat passed, not who else did, so a pass edits only the panel of the
    seat that passed (it used to edit every panel at the table)."""
    passed = update.seat in snap.passed
    return f"{snap.stamp}:{snap.status.value}:{passed}:{update.view.legal}"


def _moment(snap: TableSnapshot) -> int:
    """How far the table's game is: its event count (-1 in the lobby)."""
    return snap.view.event_count if snap.view is not None else -1


def _log_refused(err: Exception) -> None:
    if isinstance(err, discord.HTTPException):
        log.warning("Discord refused an update: %s %s", err.status, err.text)
    else:
        log_failure(log, logging.ERROR, "showing a table failed", error=err)


def retry_delay(err: Exception, failures: int) -> float | None:
    """Seconds to wait before trying an update again after `err`; None when
    trying again cannot help (a refusal: the channel is gone, a bad body)."""
    backoff = min(RETRY_MAX, EDIT_INTERVAL * 2.0 ** failures)
    if isinstance(err, discord.RateLimited):
        return max(err.retry_after, EDIT_INTERVAL)
    if isinstance(err, discord.HTTPException):
        return backoff if err.status == 429 or err.status >= 500 else None
    if isinstance(err, OSError | aiohttp.ClientError | asyncio.TimeoutError):
        return backoff  # the network
    if isinstance(err, OUTAGE_ERRORS):
        return backoff  # the database locked for a moment, the disk full, gone away
    return None
