"""Turning create/edit bodies into stored messages (shared by channel and webhook routes)."""

from __future__ import annotations

from typing import Any

from .bodies import Upload
from .core import Core, json_copy
from .models import COMPONENTS_V2, EPHEMERAL, LOADING, Attachment, Json, Message, iso_now
from .validation import message_problems

# Flags a bot may set itself; everything else Discord ignores or rejects.
SETTABLE_FLAGS = 4 | EPHEMERAL | 4096 | COMPONENTS_V2


def problems_for(body: Json, uploads: list[Upload], *, creating: bool, limit: int) -> list[str]:
    problems = message_problems(body, creating=creating, has_files=bool(uploads))
    problems += [
        f"file {u.filename!r}: {len(u.data)} bytes, limit {limit}"
        for u in uploads
        if len(u.data) > limit
    ]
    return problems


def new_message(
    core: Core,
    body: Json,
    uploads: list[Upload],
    *,
    channel_id: int,
    guild_id: int | None,
    **extra: Any,
) -> Message:
    message = Message(
        id=core.store.ids.next(), channel_id=channel_id, guild_id=guild_id, author=core.bot, **extra
    )
    message.flags |= int(body.get("flags") or 0) & SETTABLE_FLAGS
    _apply_fields(core, message, body, uploads, creating=True)
    return core.store.add_message(message)


def edit_message(
    core: Core, message: Message, body: Json, uploads: list[Upload], route: str
) -> None:
    if "flags" in body:
        kept = message.flags & EPHEMERAL  # ephemerality never changes after sending
        message.flags = (int(body["flags"] or 0) & SETTABLE_FLAGS & ~EPHEMERAL) | kept
    message.flags &= ~LOADING
    _apply_fields(core, message, body, uploads, creating=False)
    message.edited_timestamp = iso_now()
    core.store.record_edit(message, route)


def _apply_fields(
    core: Core, message: Message, body: Json, uploads: list[Upload], creating: bool
) -> None:
    if "content" in body:
        message.content = body["content"] or ""
    if "embeds" in body:
        message.embeds = json_copy(body["embeds"] or [])
    if "components" in body:
        message.components = json_copy(body["components"] or [])
    if "allowed_mentions" in body:
        message.allowed_mentions = json_copy(body["allowed_mentions"])
    message.attachments = _attachments(core, message, body, uploads, creating)
    _resolve_attachment_urls(message)


def _attachments(
    core: Core, message: Message, body: Json, uploads: list[Upload], creating: bool
) -> list[Attachment]:
    """Keep the listed existing attachments, add the listed (or, if unlisted, all) uploads."""
    by_index = {u.index: u for u in uploads}
    listed: list[Json] | None = body.get("attachments")
    if listed is None:
        kept = [] if creating else message.attachments
        return kept + [_store(core, message, u, None) for u in uploads]
    existing = {a.id: a for a in message.attachments}
    result: list[Attachment] = []
    for entry in listed:
        key = int(entry["id"])
        if key in by_index:
            result.append(_store(core, message, by_index.pop(key), entry.get("description")))
        elif key in existing:
            result.append(existing[key])
        else:
            core.store.error(f"attachment id {key} is neither an upload nor an existing attachment")
    return result


def _store(core: Core, message: Message, upload: Upload, description: str | None) -> Attachment:
    return Attachment(
        id=core.store.ids.next(),
        channel_id=message.channel_id,
        filename=upload.filename,
        content_type=upload.content_type,
        data=upload.data,
        description=description,
    )


def _resolve_attachment_urls(message: Message) -> None:
    """Discord rewrites attachment://name in embeds to the uploaded file's CDN url."""
    urls = {f"attachment://{a.filename}": a.url for a in message.attachments}
    for embed in message.embeds:
        for key in ("image", "thumbnail"):
            part = embed.get(key)
            if isinstance(part, dict) and part.get("url") in urls:
                part["url"] = urls[part["url"]]


GUILD_MESSAGES = 1 << 9


async def announce(core: Core, event: str, message: Message) -> None:
    """Real Discord tells the bot about visible messages, never about ephemeral ones."""
    if message.visible_to is None:
        await core.gateway.dispatch(event, message.payload(), intent=GUILD_MESSAGES)


async def delete_message(core: Core, message: Message) -> None:
    message.deleted = True
    core.store.touch()
    if message.visible_to is None:
        data: Json = {"id": str(message.id), "channel_id": str(message.channel_id)}
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
        await core.gateway.dispatch("MESSAGE_DELETE", data, intent=GUILD_MESSAGES)
