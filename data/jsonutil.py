"""JSON objects as stored: rules, events and deals.

The data layer does not know the engine's types; it stores the JSON objects of
the toep-replay/1 format as text and gives back plain dicts.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

log = logging.getLogger(__name__)

JSONObject = dict[str, Any]


def dump_object(value: Mapping[str, Any]) -> str:
    """Compact JSON text of an object; anything but a str-keyed mapping is refused."""
    if not isinstance(value, Mapping):
        raise TypeError(f"expected a JSON object, got {type(value).__name__}")
    return json.dumps(dict(value), separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def load_object(text: str) -> JSONObject:
    """The dict stored as JSON text."""
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"stored JSON is not an object: {text[:60]!r}")
    return value
