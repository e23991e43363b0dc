"""Request bodies as discord.py sends them: JSON, or multipart with payload_json + files[n]."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from aiohttp import BodyPartReader, web

_FILE_FIELD = re.compile(r"files\[(\d+)\]")


class BadBody(ValueError):
    """The body is not something Discord would parse."""


@dataclass(frozen=True)
class Upload:
    index: int
    filename: str
    content_type: str
    data: bytes


async def parse_body(request: web.Request) -> tuple[Any, list[Upload]]:
    if not request.can_read_body:
        return None, []
    if request.content_type == "multipart/form-data":
        return await _parse_multipart(request)
    raw = await request.read()
    if not raw:
        return None, []
    if request.content_type != "application/json":
        raise BadBody(f"unsupported Content-Type {request.content_type!r}")
    try:
        return json.loads(raw), []
    except json.JSONDecodeError as exc:
        raise BadBody(f"invalid JSON: {exc}") from exc


async def _parse_multipart(request: web.Request) -> tuple[Any, list[Upload]]:
    reader = await request.multipart()
    payload: Any = None
    uploads: list[Upload] = []
    async for part in reader:
        if not isinstance(part, BodyPartReader):
            raise BadBody("nested multipart is not supported")
        match = _FILE_FIELD.fullmatch(part.name or "")
        if part.name == "payload_json":
            payload = json.loads(await part.text())
        elif match:
            data = bytes(await part.read(decode=False))
            content_type = part.headers.get("Content-Type", "application/octet-stream")
            uploads.append(Upload(int(match.group(1)), part.filename or "file", content_type, data))
        else:
            raise BadBody(f"unexpected multipart field {part.name!r}")
    return payload, uploads
