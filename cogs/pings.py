"""Turn pings in the channel: whom the rule (cogs/ping_rule.py) says to
ping, the one short message that does it, and the timer for the next look.

A ping is a new message (a mention added by an edit notifies nobody). One
stands at a time per table; it names everyone pinged who is still on turn,
but `allowed_mentions` lets it notify only those pinged just now, so a
second person's ping (a dead man's choice) or a table message posted anew
(the ping follows it with the new link) notifies nobody twice. The ping is
deleted once none of those it names is on turn any more.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Protocol

import discord

from cogs.i18n import Lang
from cogs.ping_rule import Reason, Watch, next_look, ping_due
from cogs.render_ping import ping_text
from data import ping_settings
from data.db import Database
from data.ping_settings import PingChoice
from tables.clock import ClockSource, Timer
from tables.load import LoadGauge
from tables.snapshot import Status, TableSnapshot

log = logging.getLogger(__name__)

MAX_CACHED = 50_000  # members' choices kept in memory; past it the cache starts over


@dataclass
class Turn:
    """One person's turn, as the pings follow it."""

    started: datetime
    stamp: str  # the decision it is
    pinged: bool = False
    last_called: bool = False


@dataclass
class TablePings:
    """The pings of one table."""

    ping_id: int | None = None  # the standing ping's message
    named: tuple[int, ...] = ()  # whom it names (unknown after a restart: none)
    turns: dict[int, Turn] = field(default_factory=dict)  # people on turn, by user id
    relink: bool = False  # the table message was posted anew: the ping follows it
    timer: Timer | None = None

    def cancel(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


class PingHost(Protocol):
    """What the pings need of the presenter."""

    client: discord.Client
    db: Database
    clock: ClockSource
    load: LoadGauge
    closing: bool  # shutting down: no timer is left behind

    def table_link(self, snap: TableSnapshot) -> str:
        """A link to the table message (the channel's, before it is posted)."""
        ...

    async def table_lang(self, guild_id: int) -> Lang: ...

    async def save_ping(self, table_id: int) -> None:
        """Save the standing ping's id, so a restart deletes it."""
        ...

    def looked(self, table_id: int, user_id: int, snap: TableSnapshot
               ) -> tuple[datetime | None, bool]:
        """When the person last opened or clicked their hand panel (None: no
        live one), and whether it shows the decision on hand now."""
        ...

    def wake_pings(self, table_id: int) -> None:
        """Look at the table's pings again soon (on their lane)."""
        ...


class Choices:
    """Members' ping choices and servers' defaults, read once and kept: the
    commands that change them tell it (`forget`), and a guild's commands
    reach the process that drives its tables."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._members: dict[tuple[int, int], PingChoice | None] = {}
        self._servers: dict[int, PingChoice | None] = {}

    async def of(self, guild_id: int, user_ids: Collection[int]) -> dict[int, PingChoice]:
        missing = [u for u in user_ids if (guild_id, u) not in self._members]
        if missing:
            found = await ping_settings.member_choices(self.db, guild_id, missing)
            if len(self._members) > MAX_CACHED:
                self._members.clear()
            self._members.update({(guild_id, u): found.get(u) for u in missing})
        if guild_id not in self._servers:
            self._servers[guild_id] = await ping_settings.guild_default(self.db, guild_id)
        server = self._servers[guild_id]
        return {u: ping_settings.effective(self._members.get((guild_id, u)), server)
                for u in user_ids}

    def forget(self, guild_id: int, user_id: int | None = None) -> None:
        """A choice changed: a member's, or (no user) the server's default."""
        if user_id is None:
            self._servers.pop(guild_id, None)
        else:
            self._members.pop((guild_id, user_id), None)


def turn_users(snap: TableSnapshot) -> list[int]:
    """People whose turn it is now (turns, not windows: silence is fine there)."""
    if snap.status is not Status.PLAYING or snap.clock is None or snap.clock.window:
        return []
    users = [snap.seats[s].user_id for s in snap.clock.seats]
    return [u for u in users if u is not None]


class Pings:
    def __init__(self, host: PingHost) -> None:
        self.host = host
        self.choices = Choices(host.db)

    async def update(self, state: TablePings, snap: TableSnapshot) -> None:
        """Ping whom the rule says to, now; delete a ping whose people are
        no longer on turn; arm the next look."""
        now = self.host.clock.now()
        users = turn_users(snap)
        _follow(state, snap, users, now)
        choices = await self.choices.of(snap.guild_id, users)
        watches = {u: self._watch(state, snap, u, choices[u], now) for u in users}
        due = {u: r for u, w in watches.items() if (r := ping_due(w)) is not None}
        still = tuple(u for u in state.named if u in users)
        if state.ping_id is not None and (due or state.relink or not still):
            await self._delete(state, snap)
        if due or (state.relink and still):
            await self._post(state, snap, still, due)
        state.relink = False
        self._arm(state, snap, watches.values(), now)

    def _watch(self, state: TablePings, snap: TableSnapshot, user: int, choice: PingChoice,
               now: datetime) -> Watch:
        turn = state.turns[user]
        clock = snap.clock
        deadline = None if clock is None or clock.paused else clock.deadline
        looked_at, shows = self.host.looked(snap.table_id, user, snap)
        return Watch(
            choice=choice, waited=_seconds(now - turn.started),
            length=None if deadline is None else _seconds(deadline - turn.started),
            left=None if deadline is None else _seconds(deadline - now),
            looked=looked_at is not None and looked_at >= turn.started, panel_shows=shows,
            pinged=turn.pinged, last_called=turn.last_called,
            busy=not self.host.load.shedding.pings)

    async def _delete(self, state: TablePings, snap: TableSnapshot) -> None:
        channel = self.host.client.get_partial_messageable(snap.channel_id)
        if state.ping_id is not None:
            with contextlib.suppress(discord.NotFound):  # deleted by someone already
                await channel.get_partial_message(state.ping_id).delete()
        state.ping_id, state.named = None, ()
        await self.host.save_ping(snap.table_id)

    async def _post(self, state: TablePings, snap: TableSnapshot, still: Sequence[int],
                    due: dict[int, Reason]) -> None:
        named = tuple(still) + tuple(u for u in due if u not in still)
        lang = await self.host.table_lang(snap.guild_id)
        last_call = any(r is Reason.LAST_CALL for r in due.values())
        deadline = snap.clock.deadline if snap.clock is not None and last_call else None
        text = ping_text(named, lang, self.host.table_link(snap), deadline)
        channel = self.host.client.get_partial_messageable(snap.channel_id)
        message = await channel.send(text, allowed_mentions=discord.AllowedMentions(
            users=[discord.Object(id=u) for u in due], everyone=False, roles=False))
        state.ping_id, state.named = message.id, named
        for user, reason in due.items():
            turn = state.turns[user]
            turn.pinged = True
            turn.last_called = turn.last_called or reason is Reason.LAST_CALL
        log.debug("table %s: pinged %s (%s)", snap.table_id, sorted(due),
                  ", ".join(sorted({r.value for r in due.values()})))
        await self.host.save_ping(snap.table_id)  # a restart deletes it

    def _arm(self, state: TablePings, snap: TableSnapshot, watches: Collection[Watch],
             now: datetime) -> None:
        state.cancel()
        looks = [s for w in watches if (s := next_look(w)) is not None]
        if not looks or snap.status is not Status.PLAYING or self.host.closing:
            return
        table_id = snap.table_id

        async def look() -> None:
            self.host.wake_pings(table_id)

        state.timer = self.host.clock.call_at(now + timedelta(seconds=min(looks)), look)


def _follow(state: TablePings, snap: TableSnapshot, users: Sequence[int], now: datetime) -> None:
    """Who is on turn since when. A new decision of someone still on turn
    (leading after winning a trick) is a new turn; an unread ping of theirs
    that still stands counts for it."""
    for user in [u for u in state.turns if u not in users]:
        del state.turns[user]
    for user in users:
        turn = state.turns.get(user)
        if turn is None:
            state.turns[user] = Turn(now, snap.stamp)
        elif turn.stamp != snap.stamp:
            state.turns[user] = Turn(now, snap.stamp, pinged=user in state.named)


def _seconds(delta: timedelta) -> float:
    return delta.total_seconds()
