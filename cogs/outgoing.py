"""Every message the bot sends is fitted to Discord's limits on its way out
(cogs/text_limits.py): one place for every route, whoever sends.

discord.py sends through two transports: the bot's HTTP client (channel
messages and their edits) and the webhook adapter (every answer to a command
or a click: the first answer, follow-ups, edits of either). `install` wraps
both, so the JSON of each message, also the one inside a multipart upload,
passes `fit` just before it leaves. Something clipped there is a bug of ours
(a renderer that let a text grow past its limit) and is logged at ERROR; the
person still gets the message, not Discord's refusal of all of it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.webhook.async_ import async_context

from .text_limits import fit

log = logging.getLogger(__name__)

# Interaction callback types whose data is a message.
_MESSAGE_CALLBACKS = frozenset({4, 7})  # CHANNEL_MESSAGE_WITH_SOURCE, UPDATE_MESSAGE
_MESSAGE_KEYS = ("content", "embeds", "components")
_WRAPPED = "_toep_fitted"


def install(client: discord.Client) -> None:
    """Fit every message `client` sends (its HTTP client, and the webhook
    adapter discord.py shares between clients: wrapped once)."""
    _wrap(client.http, "json", "form")
    _wrap(async_context.get(), "payload", "multipart")


def _wrap(transport: Any, json_key: str, form_key: str) -> None:
    if getattr(transport, _WRAPPED, False):
        return
    real: Callable[..., Awaitable[Any]] = transport.request

    async def request(route: Any, *args: Any, **kwargs: Any) -> Any:
        fit_request(f"{route.method} {route.path}", kwargs.get(json_key), kwargs.get(form_key))
        return await real(route, *args, **kwargs)

    transport.request = request
    setattr(transport, _WRAPPED, True)


def fit_request(what: str, payload: object, form: object) -> None:
    """Fit the message in a request's JSON body, or in its multipart form's
    `payload_json`, in place."""
    if isinstance(payload, dict):
        _fit_body(what, payload)
    if isinstance(form, list):
        for part in form:
            if isinstance(part, dict) and part.get("name") == "payload_json":
                body = json.loads(part["value"])
                if isinstance(body, dict) and _fit_body(what, body):
                    part["value"] = json.dumps(body, separators=(",", ":"),
                                               ensure_ascii=True)


def _fit_body(what: str, body: dict[str, Any]) -> bool:
    message = body.get("data") if body.get("type") in _MESSAGE_CALLBACKS else body
    if not isinstance(message, dict) or not any(key in message for key in _MESSAGE_KEYS):
        return False
    cut = fit(message)
    if cut:
        log.error("%s: a message past Discord's limits, clipped: %s", what, "; ".join(cut))
    return bool(cut)
