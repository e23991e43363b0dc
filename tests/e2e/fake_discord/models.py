"""Discord objects the fake keeps, each able to render its API payload."""

from __future__ import annotations

import datetime as dt
import re
import time
from dataclasses import dataclass, field
from typing import Any

from .components import find_button, iter_components, text_of

Json = dict[str, Any]

EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15
ADMINISTRATOR = 1 << 3
ALL_PERMISSIONS = (1 << 53) - 1
# What @everyone gets in a new guild (view, send, embed, attach, history, reactions,
# application commands) -- deliberately without Manage Server (0x20).
DEFAULT_EVERYONE = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 6) | (1 << 31)


def iso_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    locale: str = "en-US"

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": None if self.bot else self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Role:
    id: int
    name: str
    permissions: int = 0
    position: int = 0

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass
class Channel:
    id: int
    guild_id: int
    name: str
    type: int = 0  # GUILD_TEXT
    position: int = 0
    deleted: bool = False  # every route on it answers 404 10003 Unknown Channel
    denied: dict[int, int] = field(default_factory=dict)  # member overwrites: user id -> deny

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [
                {"id": str(user_id), "type": 1, "allow": "0", "deny": str(deny)}
                for user_id, deny in self.denied.items()
            ],
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": None,
            "flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass
class Member:
    user: User
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    def payload(self) -> Json:
        return {
            "user": self.user.payload(),
            "roles": [str(r) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "joined_at": self.joined_at,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
        }


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    preferred_locale: str = "nl"
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    joined_at: str = field(default_factory=iso_now)
    # The server's Integrations settings: command name -> members it opened to
    # despite the command's default_member_permissions.
    command_grants: dict[str, set[int]] = field(default_factory=dict)

    def permissions_of(self, user_id: int) -> int:
        """Guild-level permissions (channel overwrites are not modelled)."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members[user_id]
        value = self.roles[self.id].permissions  # @everyone has the guild's id
        for role_id in member.roles:
            value |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def may_use(self, command: Json, user_id: int, permissions: int) -> bool:
        """Discord shows a command only to members holding all of its
        default_member_permissions, unless the server opened it to them."""
        bits = command.get("default_member_permissions")
        if bits is None or user_id in self.command_grants.get(command["name"], set()):
            return True
        needed = int(bits)
        return permissions == ALL_PERMISSIONS or (needed != 0 and permissions & needed == needed)

    def permissions_in(self, user_id: int, channel: Channel) -> int:
        """Permissions in one channel: the guild's, less the member's channel overwrite."""
        value = self.permissions_of(user_id)
        if value == ALL_PERMISSIONS:  # owner and administrators ignore overwrites
            return value
        return value & ~channel.denied.get(user_id, 0)

    def payload(self, member_ids: list[int]) -> Json:
        return {
            **_GUILD_DEFAULTS,
            "id": str(self.id),
            "name": self.name,
            "owner_id": str(self.owner_id),
            "preferred_locale": self.preferred_locale,
            "roles": [r.payload() for r in self.roles.values()],
            "channels": [c.payload() for c in self.channels.values() if not c.deleted],
            "members": [self.members[m].payload() for m in member_ids],
            "member_count": len(self.members),
            "joined_at": self.joined_at,
            "unavailable": False,
        }


_GUILD_DEFAULTS: Json = {
    "icon": None,
    "splash": None,
    "discovery_splash": None,
    "banner": None,
    "description": None,
    "features": [],
    "emojis": [],
    "stickers": [],
    "threads": [],
    "voice_states": [],
    "presences": [],
    "stage_instances": [],
    "guild_scheduled_events": [],
    "soundboard_sounds": [],
    "large": False,
    "lazy": True,
    "afk_timeout": 300,
    "afk_channel_id": None,
    "system_channel_id": None,
    "system_channel_flags": 0,
    "rules_channel_id": None,
    "public_updates_channel_id": None,
    "safety_alerts_channel_id": None,
    "verification_level": 0,
    "default_message_notifications": 0,
    "explicit_content_filter": 0,
    "mfa_level": 0,
    "nsfw_level": 0,
    "premium_tier": 0,
    "premium_subscription_count": 0,
    "premium_progress_bar_enabled": False,
    "vanity_url_code": None,
    "application_id": None,
    "max_members": 500000,
    "max_video_channel_users": 25,
}


@dataclass
class Attachment:
    id: int
    channel_id: int
    filename: str
    content_type: str
    data: bytes
    description: str | None = None

    @property
    def url(self) -> str:
        return f"https://cdn.discordapp.com/attachments/{self.channel_id}/{self.id}/{self.filename}"

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "filename": self.filename,
            "description": self.description,
            "content_type": self.content_type,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url.replace("cdn.discordapp.com", "media.discordapp.net"),
        }


@dataclass(frozen=True)
class Edit:
    """One accepted edit; `at` is time.monotonic() so benches can compute rates."""

    at: float
    message_id: int
    channel_id: int
    route: str


@dataclass
class Message:
    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[Json] = field(default_factory=list)
    components: list[Json] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: Json | None = None
    visible_to: int | None = None  # user id for ephemeral messages
    created_at: float = field(default_factory=time.monotonic)
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    edits: list[Edit] = field(default_factory=list)
    deleted: bool = False
    allowed_mentions: Json | None = None  # as the bot last sent it (None: not sent)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred response still showing "... is thinking"."""
        return bool(self.flags & LOADING)

    @property
    def text(self) -> str:
        """Everything a user reads: content, embed texts, components-v2 text displays."""
        return text_of(self.content, self.embeds, self.components)

    @property
    def notified(self) -> frozenset[str]:
        """Whom Discord notifies for the content's mentions: user ids as text,
        "role:<id>", "everyone" (also for @here). A mention counts even behind
        a backslash: only `allowed_mentions` keeps it from notifying (all kinds
        notify when the bot sent none)."""
        return notified(self.content, self.allowed_mentions)

    def buttons(self) -> list[Json]:
        return [c for c in iter_components(self.components) if c.get("type") == 2]

    def button(
        self, *, label: str | None = None, custom_id: str | None = None, prefix: str | None = None
    ) -> Json:
        """The one button matching label / custom_id / custom_id prefix; else LookupError."""
        return find_button(self.components, label=label, custom_id=custom_id, prefix=prefix)

    def payload(self) -> Json:
        data: Json = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": "@everyone" in self.content,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        return data


_USER_MENTION = re.compile(r"<@!?([0-9]+)>")
_ROLE_MENTION = re.compile(r"<@&([0-9]+)>")
_EVERYONE = re.compile(r"@(everyone|here)")


def notified(content: str, allowed: Json | None) -> frozenset[str]:
    """Discord's rule: without allowed_mentions every mention in the content
    notifies; with it, a kind in `parse` does, and the ids in `users`/`roles`."""
    parse = {"users", "roles", "everyone"} if allowed is None else set(allowed.get("parse", []))
    users = {str(u) for u in (allowed or {}).get("users", [])}
    roles = {str(r) for r in (allowed or {}).get("roles", [])}
    out: set[str] = set()
    for user in _USER_MENTION.findall(content):
        if "users" in parse or user in users:
            out.add(user)
    for role in _ROLE_MENTION.findall(content):
        if "roles" in parse or role in roles:
            out.add(f"role:{role}")
    if "everyone" in parse and _EVERYONE.search(content):
        out.add("everyone")
    return frozenset(out)
