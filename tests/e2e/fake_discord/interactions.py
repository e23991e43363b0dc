"""Interaction records and the INTERACTION_CREATE payloads the fake dispatches."""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass, field

from .models import Channel, Guild, Json, Message, User

PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
LAUNCH_ACTIVITY = 12  # an application with Activities enabled only


@dataclass
class InteractionRecord:
    """What the fake remembers about one interaction and how the bot answered it."""

    id: int
    token: str
    type: int
    user: User
    channel_id: int
    guild_id: int | None
    payload: Json
    source_message_id: int | None = None  # the message a clicked component belongs to
    created: float = field(default_factory=time.monotonic)  # sent to the bot: its 3 s start
    asked: float = field(default_factory=time.monotonic)  # the person clicked (or typed)
    ack_type: int | None = None
    ack_at: float | None = None
    original_id: int | None = None  # the message @original refers to
    followup_ids: list[int] = field(default_factory=list)
    modal: Json | None = None
    choices: list[Json] | None = None
    activity_instance: str | None = None  # the Activity a LAUNCH_ACTIVITY answer started
    acked: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def ack_delay(self) -> float | None:
        return None if self.ack_at is None else self.ack_at - self.created


def new_record(
    *,
    interaction_id: int,
    kind: int,
    user: User,
    channel: Channel,
    guild: Guild,
    data: Json,
    app_id: int,
    app_permissions: int,
    locale: str,
    attachment_size_limit: int,
    message: Message | None = None,
    permissions: int | None = None,
) -> InteractionRecord:
    token = "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)
    member = guild.members[user.id]
    perms = guild.permissions_of(user.id) if permissions is None else permissions
    payload: Json = {
        "id": str(interaction_id),
        "application_id": str(app_id),
        "type": kind,
        "data": data,
        "guild_id": str(guild.id),
        "guild": {"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
        "channel_id": str(channel.id),
        "channel": channel.payload(),
        "member": {**member.payload(), "permissions": str(perms)},
        "token": token,
        "version": 1,
        "app_permissions": str(app_permissions),
        "locale": locale,
        "guild_locale": guild.preferred_locale,
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(guild.id)},
        "context": 0,
        "attachment_size_limit": attachment_size_limit,
    }
    if message is not None:
        payload["message"] = message.payload()
    return InteractionRecord(
        id=interaction_id,
        token=token,
        type=kind,
        user=user,
        channel_id=channel.id,
        guild_id=guild.id,
        payload=payload,
        source_message_id=None if message is None else message.id,
    )


def new_dm_record(
    *,
    interaction_id: int,
    kind: int,
    user: User,
    channel_id: int,
    data: Json,
    app_id: int,
    locale: str,
    attachment_size_limit: int,
) -> InteractionRecord:
    """An interaction from the user's DM with the bot: no guild, no member,
    the user itself; context 1 (BOT_DM), as Discord sends it."""
    token = "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)
    payload: Json = {
        "id": str(interaction_id),
        "application_id": str(app_id),
        "type": kind,
        "data": data,
        "channel_id": str(channel_id),
        "channel": {"id": str(channel_id), "type": 1, "flags": 0,
                    "recipients": [user.payload()], "last_message_id": None},
        "user": user.payload(),
        "token": token,
        "version": 1,
        "app_permissions": str(DM_APP_PERMISSIONS),
        "locale": locale,
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(user.id)},
        "context": 1,
        "attachment_size_limit": attachment_size_limit,
    }
    return InteractionRecord(id=interaction_id, token=token, type=kind, user=user,
                             channel_id=channel_id, guild_id=None, payload=payload)


# What a bot may do in a DM: view, send, embed links, attach files, read history.
DM_APP_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16)


def interaction_metadata(record: InteractionRecord) -> Json:
    """The `interaction_metadata` Discord attaches to a response message."""
    meta: Json = {
        "id": str(record.id),
        "type": record.type,
        "user": record.user.payload(),
        "authorizing_integration_owners": {"0": str(record.guild_id or record.user.id)},
    }
    if record.type == APPLICATION_COMMAND:
        meta["name"] = record.payload["data"]["name"]
        meta["command_type"] = 1
    if record.source_message_id is not None:
        meta["interacted_message_id"] = str(record.source_message_id)
    return meta
