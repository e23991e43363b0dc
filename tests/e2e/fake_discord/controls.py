"""The faults a test can switch on, all in one place (FakeDiscord has these methods).

Every answer is shaped as Discord sends it; every fault that answered is logged in
`fake.fault_hits`. tests/e2e/README.md lists them with their effect on discord.py.
"""

from __future__ import annotations

import time

from .core import Core
from .faults import FaultHit, Faults, Storm
from .gateway import Gateway
from .models import Channel, Guild, User
from .rest_messages import VIEW_CHANNEL
from .store import Store

INTENT_GUILDS = 1 << 0
RESUMABLE_CLOSE = 4000  # "Unknown error": discord.py reconnects and RESUMEs


class FaultControls:
    gateway: Gateway
    store: Store
    bot_user: User
    _core: Core

    @property
    def faults(self) -> Faults:
        return self._core.faults

    @property
    def fault_hits(self) -> list[FaultHit]:
        """Each answer a fault gave (a 5xx, a 429, a refused connection, a late RESUME)."""
        return self._core.faults.hits

    # -- the gateway -----------------------------------------------------------------------

    async def drop_gateway(
        self,
        *,
        code: int = RESUMABLE_CLOSE,
        down_for: float = 0.0,
        resume_delay: float = 0.0,
        invalidate: bool = False,
    ) -> None:
        """Close the bot's gateway connection with `code` (resumable by default).

        For `down_for` seconds new connections are refused (HTTP 503 on the handshake;
        discord.py backs off and retries). The RESUME that follows is answered only after
        `resume_delay` seconds (events meanwhile are replayed then). `invalidate` forgets
        the session: the RESUME gets op 9 and the client IDENTIFYs and gets a new READY.
        """
        faults = self._core.faults
        faults.gateway_down_until = max(faults.gateway_down_until, time.monotonic() + down_for)
        faults.resume_delay = resume_delay
        await self.gateway.drop(code, invalidate=invalidate)

    def restore_gateway(self) -> None:
        """End a `drop_gateway(down_for=...)` outage now."""
        self._core.faults.gateway_down_until = 0.0

    def delay_resume(self, seconds: float) -> None:
        """Answer the next RESUME (after any drop or op 7) only after `seconds`."""
        self._core.faults.resume_delay = seconds

    async def invalidate_session(self) -> None:
        """Send op 9 (not resumable) now: the client IDENTIFYs again and gets a new READY."""
        await self.gateway.invalidate_sessions()

    def delay_guild_create(self, seconds: float, guild: Guild | None = None) -> None:
        """From the next IDENTIFY on, send GUILD_CREATE `seconds` after READY (for one guild
        or, by default, for all). The default delay is 0.01 s: the bot always sees READY with
        its guilds unavailable first, as from Discord."""
        if guild is None:
            self._core.faults.guild_create_delay = seconds
        else:
            self._core.faults.guild_delays[guild.id] = seconds

    def deliver_late(self, times: int = 1) -> None:
        """The next `times` interactions reach the bot only once their 3 seconds
        (`ack_limit`) ran out, as a stalled bot or a RESUME's replay sees them:
        every answer to one is refused 404 10062 Unknown interaction."""
        self._core.faults.late_interactions += times

    # -- REST storms -----------------------------------------------------------------------

    def fail_edits(
        self,
        status: int = 503,
        *,
        times: int | None = None,
        seconds: float | None = None,
        channel: Channel | None = None,
        posts: bool = False,
    ) -> None:
        """Answer message edits (channel messages and interaction webhooks) `status` (5xx,
        body {"code": 0, "message": ...}) for `times` requests and/or `seconds`;
        `posts`: new messages (channel messages, followups) too, a REST outage."""
        if not 500 <= status <= 599:
            raise ValueError(f"fail_edits wants a 5xx status, not {status}")
        self._add_storm(status, None, False, channel, times, seconds, posts)

    def rate_limit_edits(
        self,
        retry_after: float | None = None,
        *,
        times: int | None = None,
        seconds: float | None = None,
        channel: Channel | None = None,
        is_global: bool = False,
    ) -> None:
        """Answer message edits 429 with `retry_after` (default: the rest of the storm) for
        `times` requests and/or `seconds`. `is_global` is Discord's global limit: every
        authenticated bot request is refused (interaction callbacks and webhooks are not)."""
        self._add_storm(429, retry_after, is_global, channel, times, seconds)

    def end_storms(self) -> None:
        self._core.faults.storms.clear()

    def _add_storm(
        self,
        status: int,
        retry_after: float | None,
        is_global: bool,
        channel: Channel | None,
        times: int | None,
        seconds: float | None,
        posts: bool = False,
    ) -> None:
        if times is None and seconds is None:
            raise ValueError("a storm needs times= and/or seconds=")
        until = None if seconds is None else time.monotonic() + seconds
        channel_id = None if channel is None else channel.id
        self._core.faults.storms.append(
            Storm(status, retry_after, is_global, channel_id, times, until, posts)
        )

    # -- channels and permissions ----------------------------------------------------------

    async def delete_channel(self, channel: Channel) -> None:
        """Delete a channel: every route on it (and on interaction webhooks from it) answers
        404 10003 Unknown Channel from now on; the bot gets CHANNEL_DELETE."""
        channel.deleted = True
        self.store.touch()
        await self.gateway.dispatch("CHANNEL_DELETE", channel.payload(), intent=INTENT_GUILDS)

    async def deny_permission(self, channel: Channel, permissions: int) -> None:
        """Deny the bot `permissions` in `channel` (a member overwrite; CHANNEL_UPDATE is
        sent). Posts without Send Messages, and posts/edits carrying embeds without Embed
        Links or files without Attach Files, answer 403 50013; without View Channel every
        route answers 403 50001. Interactions there carry the reduced `app_permissions`."""
        denied = channel.denied.get(self.bot_user.id, 0) | permissions
        await self._set_denied(channel, denied)

    async def allow_permission(self, channel: Channel, permissions: int) -> None:
        """Lift a `deny_permission`."""
        denied = channel.denied.get(self.bot_user.id, 0) & ~permissions
        await self._set_denied(channel, denied)

    async def hide_channel(self, channel: Channel, user: User) -> None:
        """A member overwrite denying `user` View Channel (CHANNEL_UPDATE is sent)."""
        denied = channel.denied.get(user.id, 0) | VIEW_CHANNEL
        await self._set_denied(channel, denied, user.id)

    async def _set_denied(self, channel: Channel, denied: int, user_id: int | None = None) -> None:
        who = self.bot_user.id if user_id is None else user_id
        if denied:
            channel.denied[who] = denied
        else:
            channel.denied.pop(who, None)
        self.store.touch()
        await self.gateway.dispatch("CHANNEL_UPDATE", channel.payload(), intent=INTENT_GUILDS)
