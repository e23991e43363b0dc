"""Channel routes: messages (create/get/list/edit/delete), the channel itself, typing."""

from __future__ import annotations

from aiohttp import web

from .core import Core, json_response
from .message_ops import announce, delete_message, edit_message, new_message, problems_for
from .models import EPHEMERAL, Channel, Message
from .router import Call, Route

EDITS_FOR = 3600.0  # seconds: older messages take no more edits (30046)

VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES = 1 << 10, 1 << 11, 1 << 14, 1 << 15


def _channel(core: Core, call: Call) -> Channel | web.Response:
    channel = core.store.channels.get(call.param("channel_id"))
    if channel is None:
        return core.reject(call.request, 404, 10003, "Unknown Channel")
    return channel


def _missing_permissions(core: Core, channel: Channel, call: Call) -> bool:
    """Whether the bot lacks what this create/edit needs in this channel. Like Discord, an
    edit of its own message needs no Send Messages, only what the new body carries."""
    have = core.store.guilds[channel.guild_id].permissions_in(core.bot.id, channel)
    need = VIEW_CHANNEL | (SEND_MESSAGES if call.request.method == "POST" else 0)
    need |= EMBED_LINKS if call.json().get("embeds") else 0
    need |= ATTACH_FILES if call.uploads else 0
    return have & need != need


async def create(core: Core, call: Call) -> web.StreamResponse:
    channel = _channel(core, call)
    if isinstance(channel, web.Response):
        return channel
    if _missing_permissions(core, channel, call):
        return core.reject(call.request, 403, 50013, "Missing Permissions")
    body = call.json()
    problems = problems_for(
        body, call.uploads, creating=True, limit=core.settings.attachment_size_limit
    )
    if int(body.get("flags") or 0) & EPHEMERAL:
        problems.append("flag EPHEMERAL (64) only exists for interaction responses")
    if problems:
        return core.invalid(call.request, problems)
    kind = 19 if body.get("message_reference") else 0
    message = new_message(
        core, body, call.uploads, channel_id=channel.id, guild_id=channel.guild_id, type=kind
    )
    await announce(core, "MESSAGE_CREATE", message)
    return json_response(message.payload())


def _message(core: Core, call: Call) -> Message | web.Response:
    message = core.store.messages.get(call.param("message_id"))
    if (
        message is None
        or message.deleted
        or message.visible_to is not None
        or message.channel_id != call.param("channel_id")
    ):
        return core.reject(call.request, 404, 10008, "Unknown Message")
    return message


async def one(core: Core, call: Call) -> web.StreamResponse:
    message = _message(core, call)
    if isinstance(message, web.Response):
        return message
    channel = core.store.channels[message.channel_id]
    if call.request.method == "PATCH" and _missing_permissions(core, channel, call):
        return core.reject(call.request, 403, 50013, "Missing Permissions")
    if call.request.method == "DELETE":
        await delete_message(core, message)
        return web.Response(status=204)
    if call.request.method == "PATCH":
        if message.author.id != core.bot.id:
            return core.reject(
                call.request, 403, 50005, "Cannot edit a message authored by another user"
            )
        if core.store.ids.age(message.id) > EDITS_FOR:
            return core.reject(
                call.request, 400, 30046,
                "Maximum number of edits to messages older than 1 hour reached. Try again later",
            )
        problems = problems_for(
            call.json(), call.uploads, creating=False, limit=core.settings.attachment_size_limit
        )
        if problems:
            return core.invalid(call.request, problems)
        edit_message(core, message, call.json(), call.uploads, call.route)
        await announce(core, "MESSAGE_UPDATE", message)
    return json_response(message.payload())


async def history(core: Core, call: Call) -> web.StreamResponse:
    channel = _channel(core, call)
    if isinstance(channel, web.Response):
        return channel
    query = call.request.query
    limit = int(query.get("limit", "50"))
    if not 1 <= limit <= 100:
        return core.invalid(call.request, [f"limit {limit}: 1-100"])
    messages = core.store.channel_messages(channel.id)
    if "before" in query:
        messages = [m for m in messages if m.id < int(query["before"])]
    if "after" in query:
        messages = [m for m in messages if m.id > int(query["after"])][:limit]
    newest_first = sorted(messages, key=lambda m: m.id, reverse=True)[:limit]
    return json_response([m.payload() for m in newest_first])


async def get_channel(core: Core, call: Call) -> web.StreamResponse:
    channel = _channel(core, call)
    return channel if isinstance(channel, web.Response) else json_response(channel.payload())


async def typing(core: Core, call: Call) -> web.StreamResponse:
    channel = _channel(core, call)
    return channel if isinstance(channel, web.Response) else web.Response(status=204)


_MESSAGES = "/channels/{channel_id}/messages"
ROUTES = [
    Route("POST", _MESSAGES, create, bucket="message_create", major="channel_id"),
    Route("GET", _MESSAGES, history, major="channel_id"),
    Route("GET", _MESSAGES + "/{message_id}", one, major="channel_id"),
    Route("PATCH", _MESSAGES + "/{message_id}", one, bucket="message_edit", major="channel_id"),
    Route("DELETE", _MESSAGES + "/{message_id}", one, bucket="message_edit", major="channel_id"),
    Route("GET", "/channels/{channel_id}", get_channel, major="channel_id"),
    Route("POST", "/channels/{channel_id}/typing", typing, major="channel_id"),
]
