"""FakeDiscord: the object tests hold. Builds the world, drives users, reads what happened."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Mapping
from types import TracebackType
from typing import Any, TypeVar

import aiohttp

from .components import find_button, find_component
from .controls import FaultControls
from .core import Core, Settings
from .faults import Faults
from .forgery import Forgery
from .gateway import Connection, Gateway
from .interactions import (
    APPLICATION_COMMAND,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    InteractionRecord,
    new_record,
)
from .models import DEFAULT_EVERYONE, Channel, Edit, Guild, Json, Member, Message, Role, User
from .options import CommandError, command_data, find_command
from .ratelimit import RateLimitConfig, RateLimiter
from .resolver import Build, make_connector
from .results import InteractionResult
from .server import Server
from .snowflake import Snowflakes
from .store import RateLimitHit, Rejection, Store
from .tls import DISCORD_HOSTS, make_tls

T = TypeVar("T")
UserRef = User | int
ChannelRef = Channel | int


class FakeDiscord(FaultControls, Forgery):
    """Faults to inject (gateway drops, storms, deleted channels...) are in controls.py;
    what a modified client sends (forged ids, DMs) in forgery.py."""

    def __init__(
        self,
        token: str = "fake-bot-token",
        *,
        bot_name: str = "Toep",
        ack_limit: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        heartbeat_interval: float = 41.25,
        round_trip: float = 0.1,
        rate_limits: RateLimitConfig | None = None,
        privileged_intents: int = 0,
        recommended_shards: int = 1,
        max_concurrency: int = 1,
        max_guilds_per_shard: int = 2500,
        bot_permissions: int = DEFAULT_EVERYONE,
        wall_clock: Callable[[], float] = time.time,
        activities: bool = False,
    ) -> None:
        self.settings = Settings(
            token=token,
            ack_limit=ack_limit,
            token_lifetime=token_lifetime,
            heartbeat_interval=heartbeat_interval,
            round_trip=round_trip,
            privileged_intents=privileged_intents,
            recommended_shards=recommended_shards,
            max_concurrency=max_concurrency,
            max_guilds_per_shard=max_guilds_per_shard,
            rate_limits=rate_limits or RateLimitConfig(),
            activities=activities,
        )
        self.store = Store(ids=Snowflakes(wall_clock))
        self.bot_user = User(id=self.store.ids.next(), name=bot_name, bot=True)
        self.application_id = self.bot_user.id  # like Discord: the bot user id is the app id
        self.bot_permissions = bot_permissions
        faults = Faults()
        self.gateway = Gateway(
            self.settings, self.store, self.bot_user, self.application_id, faults
        )
        self._core = Core(
            self.settings,
            self.store,
            self.bot_user,
            self.application_id,
            RateLimiter(self.settings.rate_limits),
            self.gateway,
            faults,
        )
        self._tls = make_tls()
        self._server = Server(self._core, self.gateway, self._tls.server)
        self._tasks: set[asyncio.Task[None]] = set()
        self.dm_channels: dict[int, int] = {}

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self) -> FakeDiscord:
        await self._server.start()
        return self

    async def stop(self) -> None:
        await self._server.stop()

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()

    @property
    def port(self) -> int:
        return self._server.port

    @property
    def ca_pem(self) -> str:
        """The throwaway CA's certificate: a bot in another process trusts it
        through `remote_connector(fake.port, fake.ca_pem, ...)`."""
        return self._tls.ca_pem

    def connector(self, build: Build = aiohttp.TCPConnector, **pool: Any) -> aiohttp.TCPConnector:
        """A fresh connector for discord.Client(connector=...); the client's session
        closes it. `build`: the client's own connector (cogs/connector.py for the
        bot), `pool`: its connection limits (none by default)."""
        return make_connector(
            DISCORD_HOSTS,
            self.port,
            self._tls.client,
            lambda host: self.store.error(f"resolver: unknown host {host}"),
            build,
            **pool,
        )

    # -- building the world ----------------------------------------------------------------

    def add_guild(
        self,
        name: str = "Test guild",
        *,
        locale: str = "nl",
        owner: User | None = None,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """A guild; `shard=(shard_id, shard_count)` gives it an id on that shard."""
        owner = owner or self.add_user("owner", guild=None)
        guild_id = self.store.ids.next() if shard is None else self.store.ids.next_on(*shard)
        guild = Guild(id=guild_id, name=name, owner_id=owner.id, preferred_locale=locale)
        guild.roles[guild.id] = Role(id=guild.id, name="@everyone", permissions=DEFAULT_EVERYONE)
        self.store.guilds[guild.id] = guild
        bot_role = self.add_role(guild, self.bot_user.name, self.bot_permissions)
        guild.members[self.bot_user.id] = Member(self.bot_user, roles=[bot_role.id])
        guild.members[owner.id] = Member(owner)
        self._later_dispatch("GUILD_CREATE", lambda s: self.gateway.guild_payload(guild.id, s))
        return guild

    def add_channel(self, guild: Guild, name: str = "toepen", *, kind: int = 0) -> Channel:
        channel = Channel(
            id=self.store.ids.next(),
            guild_id=guild.id,
            name=name,
            type=kind,
            position=len(guild.channels),
        )
        guild.channels[channel.id] = channel
        self.store.channels[channel.id] = channel
        self._later_dispatch("CHANNEL_CREATE", lambda _: channel.payload())
        return channel

    def add_role(self, guild: Guild, name: str, permissions: int = 0) -> Role:
        role = Role(
            id=self.store.ids.next(), name=name, permissions=permissions, position=len(guild.roles)
        )
        guild.roles[role.id] = role
        return role

    def add_user(
        self,
        name: str,
        *,
        locale: str = "en-US",
        guild: Guild | bool | None = True,
        roles: tuple[Role, ...] = (),
    ) -> User:
        """A human. guild=True joins the only guild there is (if exactly one); None joins none."""
        user = User(id=self.store.ids.next(), name=name, locale=locale)
        self.store.users[user.id] = user
        if guild is True:
            guild = next(iter(self.store.guilds.values())) if len(self.store.guilds) == 1 else None
        if isinstance(guild, Guild):
            self.add_member(guild, user, roles=roles)
        return user

    def grant_command(self, guild: Guild, command: str, user: UserRef) -> None:
        """Open `command` to one member, as a server's Integrations settings can,
        whatever the command's default_member_permissions say."""
        user_id = user if isinstance(user, int) else user.id
        guild.command_grants.setdefault(command, set()).add(user_id)

    # -- OAuth2 (oauth.py): what an Activity's page gets from Discord -------------------------

    @property
    def client_secret(self) -> str:
        """The application's OAuth2 client secret (its id is `application_id`)."""
        return self._core.oauth.client_secret

    def authorize(self, user: UserRef, scopes: tuple[str, ...] = ("identify",)) -> str:
        """`user` clicks Authorize in the SDK's prompt: the code the page receives,
        good once, for ten minutes, at `POST /oauth2/token`."""
        who = self.store.users[user if isinstance(user, int) else user.id]
        return self._core.oauth.authorize(who, scopes)

    @property
    def oauth_exchanges(self) -> int:
        return self._core.oauth.exchanges

    @property
    def oauth_attempts(self) -> int:
        """Every request at the token endpoint, good codes or not."""
        return self._core.oauth.attempts

    def add_member(self, guild: Guild, user: User, *, roles: tuple[Role, ...] = ()) -> Member:
        member = Member(user, roles=[r.id for r in roles])
        guild.members[user.id] = member
        return member

    def _later_dispatch(self, event: str, build: Callable[[Any], Json]) -> None:
        """Tell an already connected bot about world changes (a guild join, a new channel)."""
        for session in self.gateway.live_sessions():
            task = asyncio.get_running_loop().create_task(
                self.gateway.dispatch_to(session, event, build(session))
            )
            self._tasks.add(task)  # keep a reference until done (asyncio holds weak ones)
            task.add_done_callback(self._tasks.discard)

    # -- waiting ---------------------------------------------------------------------------

    async def wait_ready(self, timeout: float = 10.0) -> None:
        """The bot identified and was sent READY and a GUILD_CREATE for every guild."""
        await asyncio.wait_for(self.gateway.ready.wait(), timeout)

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 5.0) -> T:
        """Wait until predicate() is truthy (re-checked on every change); return its value."""
        return await self.store.wait_for(predicate, timeout)

    async def wait_commands(self, *names: str, timeout: float = 10.0) -> None:
        """Wait until the bot synced commands with these names (global or any guild)."""

        def synced() -> bool:
            have = {c["name"] for c in self.commands()}
            return all(n in have for n in names)

        await self.store.wait_for(synced, timeout, f"commands {names}")

    # -- driving users ---------------------------------------------------------------------

    async def slash(
        self,
        user: UserRef,
        channel: ChannelRef,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        locale: str | None = None,
        permissions: int | None = None,
    ) -> InteractionResult:
        """Run "/command [group] [sub]" as user; returns once acknowledged or too late."""
        chan, guild, who = self._where(user, channel)
        name, *path = command.split()
        synced = find_command(
            self.store.guild_commands.get(guild.id, []), self.store.global_commands, name
        )
        perms = guild.permissions_of(who.id) if permissions is None else permissions
        if not guild.may_use(synced, who.id, perms):
            raise CommandError(f"{who.name} cannot see /{name}: it needs permissions "
                               f"{synced['default_member_permissions']} (see grant_command)")
        data = command_data(synced, path, options or {}, guild)
        return await self._interact(
            APPLICATION_COMMAND, who, chan, guild, data, locale=locale, permissions=permissions
        )

    async def click(
        self,
        user: UserRef,
        message: Message | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        values: list[str] | None = None,
        locale: str | None = None,
        permissions: int | None = None,
    ) -> InteractionResult:
        """Click a button (by custom_id or label) or choose select-menu values."""
        msg = message if isinstance(message, Message) else self.store.messages[message]
        chan, guild, who = self._where(user, msg.channel_id)
        if msg.deleted or (msg.visible_to is not None and msg.visible_to != who.id):
            raise CommandError(f"{who.name} cannot see message {msg.id}")
        if custom_id is None:
            custom_id = str(find_button(msg.components, label=label)["custom_id"])
        component = find_component(msg.components, custom_id)
        if component is None or component.get("disabled"):
            raise CommandError(f"message {msg.id} has no enabled component {custom_id!r}")
        data: Json = {"custom_id": custom_id, "component_type": component["type"]}
        if values is not None:
            _check_values(component, values)
            data["values"] = values
        return await self._interact(
            MESSAGE_COMPONENT,
            who,
            chan,
            guild,
            data,
            message=msg,
            locale=locale,
            permissions=permissions,
        )

    async def submit_modal(
        self, user: UserRef, opened: InteractionResult, values: Mapping[str, str]
    ) -> InteractionResult:
        """Fill in and submit the modal the bot showed in answer to `opened`."""
        modal = opened.modal
        if modal is None:
            raise CommandError(f"interaction {opened.id} did not open a modal")
        record = opened.record
        chan, guild, who = self._where(user, record.channel_id)
        data = {"custom_id": modal["custom_id"], "components": _filled(modal, values)}
        source = self.store.messages.get(record.source_message_id or 0)
        return await self._interact(MODAL_SUBMIT, who, chan, guild, data, message=source)

    def _where(self, user: UserRef, channel: ChannelRef) -> tuple[Channel, Guild, User]:
        who = self.store.users[user if isinstance(user, int) else user.id]
        chan = self.store.channels[channel if isinstance(channel, int) else channel.id]
        guild = self.store.guilds[chan.guild_id]
        if chan.deleted:
            raise CommandError(f"channel {chan.name} was deleted")
        if who.id not in guild.members:
            raise CommandError(f"{who.name} is not a member of {guild.name}")
        return chan, guild, who

    async def _interact(
        self,
        kind: int,
        user: User,
        channel: Channel,
        guild: Guild,
        data: Json,
        *,
        message: Message | None = None,
        locale: str | None = None,
        permissions: int | None = None,
    ) -> InteractionResult:
        if not self.gateway.live_sessions(guild.id):
            raise RuntimeError("no bot is connected to the fake gateway on the guild's shard")
        return await self._send(new_record(
            interaction_id=self.store.ids.next(),
            kind=kind,
            user=user,
            channel=channel,
            guild=guild,
            data=data,
            app_id=self.application_id,
            app_permissions=guild.permissions_in(self.bot_user.id, channel),
            locale=locale or user.locale,
            attachment_size_limit=self.settings.attachment_size_limit,
            message=message,
            permissions=permissions,
        ))

    async def _send(self, record: InteractionRecord) -> InteractionResult:
        """Dispatch an interaction to the bot; returns once acknowledged or too late."""
        self.store.interactions[record.id] = record
        self.store.by_token[record.token] = record
        record.asked = time.monotonic()
        late = self._core.faults.late_interactions > 0  # `deliver_late`: its time ran out
        if late:
            self._core.faults.late_interactions -= 1

        def sent() -> None:
            # The 3-second clock starts as the event leaves for the bot: a wait for
            # the gateway's send lock in this process (hundreds of scripted people
            # sharing its loop, in bench/e2e_load.py) is neither Discord's time
            # nor the bot's.
            record.created = time.monotonic() - (self.settings.ack_limit if late else 0.0)

        sent()  # a session without a live connection sends nothing
        await self.gateway.dispatch("INTERACTION_CREATE", record.payload, sent=sent)
        # A little grace, so an answer that is just too late is already recorded as 10062.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(record.acked.wait(), self.settings.ack_limit + 0.05)
        return InteractionResult(record, self.store)

    # -- reading what happened -------------------------------------------------------------

    def channel_messages(self, channel: ChannelRef) -> list[Message]:
        """Non-ephemeral, non-deleted messages in the channel, oldest first."""
        return self.store.channel_messages(channel if isinstance(channel, int) else channel.id)

    def ephemeral_messages(self, user: UserRef) -> list[Message]:
        """Ephemeral messages only this user can see, oldest first."""
        return self.store.ephemeral_messages(user if isinstance(user, int) else user.id)

    def visible_messages(self, user: UserRef, channel: ChannelRef) -> list[Message]:
        """What this user sees in the channel: channel messages plus their ephemeral ones."""
        cid = channel if isinstance(channel, int) else channel.id
        mine = [m for m in self.ephemeral_messages(user) if m.channel_id == cid]
        return sorted(self.channel_messages(cid) + mine, key=lambda m: m.id)

    def message(self, message_id: int) -> Message:
        return self.store.messages[message_id]

    def commands(self, guild: Guild | None = None) -> list[Json]:
        """Synced commands: global ones plus (all or one) guild's."""
        guilds = [guild.id] if guild else list(self.store.guild_commands)
        return self.store.global_commands + [
            c for g in guilds for c in self.store.guild_commands.get(g, [])
        ]

    @property
    def errors(self) -> list[str]:
        """Unknown routes, invalid bodies, protocol errors. A passing test leaves this empty."""
        return self.store.errors

    @property
    def rejections(self) -> list[Rejection]:
        return self.store.rejections

    @property
    def rate_limit_hits(self) -> list[RateLimitHit]:
        return self.store.rate_limit_hits

    @property
    def edit_log(self) -> list[Edit]:
        return self.store.edit_log

    @property
    def gateway_connections(self) -> list[Connection]:
        return self.gateway.connections

    def edits_per_second(self, channel: ChannelRef, since: float = 0.0) -> float:
        """Accepted edits in a channel per second, from `since` (time.monotonic) to now."""
        cid = channel if isinstance(channel, int) else channel.id
        times = [e.at for e in self.edit_log if e.channel_id == cid and e.at >= since]
        if not times:
            return 0.0
        return len(times) / max(time.monotonic() - (since or times[0]), 1e-9)

    def inject_rate_limit(
        self, method: str, path_prefix: str, *, times: int = 1, retry_after: float = 0.05
    ) -> None:
        """Answer the next `times` matching requests 429 (path after /api/v10)."""
        self._core.limiter.inject(method, path_prefix, times=times, retry_after=retry_after)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT; discord.py reconnects and RESUMEs."""
        await self.gateway.request_reconnect()


def _check_values(component: Json, values: list[str]) -> None:
    """What Discord's client lets a person choose: only a select's own options,
    as many as it asks for (forgery.py sends anything)."""
    if component.get("type") != 3:
        raise CommandError(f"component {component.get('custom_id')!r} is no string select")
    offered = {str(o.get("value")) for o in component.get("options") or []}
    low, high = int(component.get("min_values", 1)), int(component.get("max_values", 1))
    if not set(values) <= offered or not low <= len(values) <= high:
        raise CommandError(f"the select offers {sorted(offered)} ({low}-{high}), not {values}")


def _filled(modal: Json, values: Mapping[str, str]) -> list[Json]:
    """Modal submit components mirroring the modal: action rows (v1) or labels (v2)."""

    def answer(inner: Json) -> Json:
        return {
            "type": inner["type"],
            "custom_id": inner["custom_id"],
            "value": values.get(inner["custom_id"], ""),
        }

    rows: list[Json] = []
    for top in modal.get("components") or []:
        if top.get("type") == 1:
            rows.append({"type": 1, "components": [answer(c) for c in top["components"]]})
        elif top.get("type") == 18:
            rows.append({"type": 18, "component": answer(top["component"])})
    return rows
