"""Everything the fake knows, plus the logs tests and benches read."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from .models import Channel, Edit, Guild, Json, Message, User
from .snowflake import Snowflakes

if TYPE_CHECKING:
    from .interactions import InteractionRecord

T = TypeVar("T")


@dataclass(frozen=True)
class Rejection:
    """A 4xx (other than 429) the fake answered: a Discord rule the bot ran into."""

    at: float
    method: str
    path: str
    status: int
    code: int
    message: str


@dataclass(frozen=True)
class RateLimitHit:
    at: float
    method: str
    path: str
    bucket: str
    retry_after: float
    injected: bool


@dataclass
class Store:
    ids: Snowflakes = field(default_factory=Snowflakes)
    users: dict[int, User] = field(default_factory=dict)
    guilds: dict[int, Guild] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    messages: dict[int, Message] = field(default_factory=dict)
    interactions: dict[int, InteractionRecord] = field(default_factory=dict)
    by_token: dict[str, InteractionRecord] = field(default_factory=dict)  # webhook look-ups
    global_commands: list[Json] = field(default_factory=list)
    guild_commands: dict[int, list[Json]] = field(default_factory=dict)
    # Unknown routes, malformed or invalid requests, protocol errors: must stay empty.
    errors: list[str] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)
    rate_limit_hits: list[RateLimitHit] = field(default_factory=list)
    edit_log: list[Edit] = field(default_factory=list)
    requests: list[tuple[float, str, str, int]] = field(default_factory=list)
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    def touch(self) -> None:
        """Wake every wait_for: something observable changed."""
        self._changed.set()

    def error(self, text: str) -> None:
        self.errors.append(text)
        self.touch()

    def add_message(self, message: Message) -> Message:
        self.messages[message.id] = message
        self.touch()
        return message

    def record_edit(self, message: Message, route: str) -> None:
        edit = Edit(
            at=time.monotonic(), message_id=message.id, channel_id=message.channel_id, route=route
        )
        message.edits.append(edit)
        self.edit_log.append(edit)
        self.touch()

    def channel_messages(self, channel_id: int) -> list[Message]:
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id and m.visible_to is None and not m.deleted
        ]

    def ephemeral_messages(self, user_id: int) -> list[Message]:
        return [m for m in self.messages.values() if m.visible_to == user_id and not m.deleted]

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float, what: str = ""
    ) -> T:
        """Re-check `predicate` on every change until it is truthy; return its value."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            self._changed.clear()  # clear before checking, so no change is missed
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(
                    f"fake Discord: timed out after {timeout}s waiting for {what or predicate}"
                )
            try:
                await asyncio.wait_for(self._changed.wait(), remaining)
            except TimeoutError:
                continue


def find_in(payloads: list[Json], name: str) -> Json | None:
    for payload in payloads:
        if payload.get("name") == name:
            return payload
    return None
