"""Interaction callbacks and the interaction webhook (followups, @original edits)."""

from __future__ import annotations

import time

from aiohttp import web

from .core import Core, json_response
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    LAUNCH_ACTIVITY,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    InteractionRecord,
    interaction_metadata,
)
from .message_ops import announce, delete_message, edit_message, new_message, problems_for
from .models import EPHEMERAL, LOADING, Json, Message
from .router import Call, Route
from .validation import modal_problems


async def callback(core: Core, call: Call) -> web.StreamResponse:
    record = core.store.interactions.get(call.param("interaction_id"))
    late = record is not None and time.monotonic() - record.created > core.settings.ack_limit
    if record is None or record.token != call.params["token"] or late:
        return core.reject(call.request, 404, 10062, "Unknown interaction")
    if record.ack_type is not None:
        return core.reject(call.request, 400, 40060, "Interaction has already been acknowledged.")
    body = call.json()
    kind, data = body.get("type"), body.get("data") or {}
    problems = _callback_problems(core, record, kind, data, call)
    if problems:
        return core.invalid(call.request, problems)
    assert isinstance(kind, int)
    record.ack_type, record.ack_at = kind, time.monotonic()  # before any await: no double ack
    message = await _respond(core, record, kind, data, call)
    record.acked.set()
    core.store.touch()
    if call.request.query.get("with_response") not in ("1", "true", "True"):
        return web.Response(status=204)
    return json_response(_callback_response(record, kind, message))


def _callback_problems(
    core: Core, record: InteractionRecord, kind: object, data: Json, call: Call
) -> list[str]:
    allowed = {
        APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
        AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
        MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE},
    }.get(
        record.type,
        {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL},
    )
    if record.type == MODAL_SUBMIT and record.source_message_id is not None:
        allowed = allowed | {DEFERRED_UPDATE, UPDATE_MESSAGE}
    if kind == LAUNCH_ACTIVITY and record.type in (APPLICATION_COMMAND, MESSAGE_COMPONENT):
        if not core.settings.activities:
            return ["LAUNCH_ACTIVITY: the application has no Activity enabled"]
        return []
    if kind not in allowed:
        return [f"callback type {kind} is not valid for interaction type {record.type}"]
    if kind == MODAL:
        return modal_problems(data)
    if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
        return problems_for(
            data,
            call.uploads,
            creating=kind == CHANNEL_MESSAGE,
            limit=core.settings.attachment_size_limit,
        )
    return []


async def _respond(
    core: Core, record: InteractionRecord, kind: int, data: Json, call: Call
) -> Message | None:
    if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
        if kind == CHANNEL_MESSAGE:
            message = await _create(core, record, data, call)
        else:  # the "is thinking" placeholder; its ephemerality is fixed from now on
            flags = int(data.get("flags") or 0) & EPHEMERAL
            message = await _create(core, record, {"flags": flags}, call, loading=True)
        record.original_id = message.id
        return message
    if kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
        record.original_id = record.source_message_id
        source = core.store.messages[record.source_message_id or 0]
        if kind == UPDATE_MESSAGE:
            edit_message(core, source, data, call.uploads, call.route)
            await announce(core, "MESSAGE_UPDATE", source)
        return source
    if kind == MODAL:
        record.modal = data
    elif kind == LAUNCH_ACTIVITY:
        record.activity_instance = f"i-{core.store.ids.next()}"
    else:
        record.choices = list(data.get("choices") or [])
    return None


async def _create(
    core: Core, record: InteractionRecord, body: Json, call: Call, loading: bool = False
) -> Message:
    ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
    message = new_message(
        core,
        body,
        call.uploads,
        channel_id=record.channel_id,
        guild_id=record.guild_id,
        type=20 if record.type == APPLICATION_COMMAND else 0,
        webhook_id=core.application_id,
        application_id=core.application_id,
        interaction_metadata=interaction_metadata(record),
        visible_to=record.user.id if ephemeral else None,
    )
    message.flags |= LOADING if loading else 0
    await announce(core, "MESSAGE_CREATE", message)
    return message


def _callback_response(record: InteractionRecord, kind: int, message: Message | None) -> Json:
    interaction: Json = {"id": str(record.id), "type": record.type}
    resource: Json = {"type": kind}
    if message is not None:
        interaction["response_message_id"] = str(message.id)
        interaction["response_message_loading"] = message.loading
        interaction["response_message_ephemeral"] = message.ephemeral
        resource["message"] = message.payload()
    if record.activity_instance is not None:
        interaction["activity_instance_id"] = record.activity_instance
        resource["activity_instance"] = {"id": record.activity_instance}
    return {"interaction": interaction, "resource": resource}


def _webhook_record(core: Core, call: Call) -> InteractionRecord | web.Response:
    token = call.params["token"]
    record = core.store.by_token.get(token)
    if call.param("application_id") != core.application_id or record is None:
        return core.reject(call.request, 404, 10015, "Unknown Webhook")
    if time.monotonic() - record.created > core.settings.token_lifetime:
        return core.reject(call.request, 401, 50027, "Invalid Webhook Token")
    if record.ack_type is None:
        return core.reject(call.request, 404, 10015, "Unknown Webhook")
    return record


async def followup(core: Core, call: Call) -> web.StreamResponse:
    record = _webhook_record(core, call)
    if isinstance(record, web.Response):
        return record
    problems = problems_for(
        call.json(), call.uploads, creating=True, limit=core.settings.attachment_size_limit
    )
    if problems:
        return core.invalid(call.request, problems)
    original = core.store.messages.get(record.original_id or 0)
    if original is not None and original.loading:
        # Discord: the first followup after a type-5 defer edits the loading message,
        # keeping the defer's ephemeral state.
        edit_message(core, original, call.json(), call.uploads, call.route)
        await announce(core, "MESSAGE_UPDATE", original)
        message = original
    else:
        message = await _create(core, record, call.json(), call)
    record.followup_ids.append(message.id)
    core.store.touch()
    if call.request.query.get("wait") not in ("1", "true", "True"):
        return web.Response(status=204)
    return json_response(message.payload())


def _webhook_message(core: Core, call: Call) -> tuple[InteractionRecord, Message] | web.Response:
    record = _webhook_record(core, call)
    if isinstance(record, web.Response):
        return record
    raw = call.params["message_id"]
    message_id = record.original_id if raw == "@original" else int(raw)
    mine = message_id is not None and (
        message_id == record.original_id or message_id in record.followup_ids
    )
    message = core.store.messages.get(message_id or 0)
    if not mine or message is None or message.deleted:
        return core.reject(call.request, 404, 10008, "Unknown Message")
    return record, message


async def webhook_message(core: Core, call: Call) -> web.StreamResponse:
    found = _webhook_message(core, call)
    if isinstance(found, web.Response):
        return found
    _, message = found
    method = call.request.method
    if method == "PATCH":
        problems = problems_for(
            call.json(), call.uploads, creating=False, limit=core.settings.attachment_size_limit
        )
        if problems:
            return core.invalid(call.request, problems)
        edit_message(core, message, call.json(), call.uploads, call.route)
        await announce(core, "MESSAGE_UPDATE", message)
    elif method == "DELETE":
        await delete_message(core, message)
        return web.Response(status=204)
    return json_response(message.payload())


_WEBHOOK = "/webhooks/{application_id}/{token}"
ROUTES = [
    Route(
        "POST", "/interactions/{interaction_id}/{token}/callback", callback, bucket="", auth=False
    ),
    Route("POST", _WEBHOOK, followup, bucket="webhook", major="token", auth=False),
    *[
        Route(
            m,
            _WEBHOOK + "/messages/{message_id}",
            webhook_message,
            bucket="webhook",
            major="token",
            auth=False,
        )
        for m in ("GET", "PATCH", "DELETE")
    ],
]
