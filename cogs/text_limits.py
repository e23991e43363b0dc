"""Discord's limits on what a message may hold, and text made to fit them.

Discord refuses a whole message (400, 50035 Invalid Form Body) for one field
past its limit, and then the person gets no answer at all. So:

- a person's own text (a name, an option value) is clipped where it enters
  what we write (`user_text`), so no refusal quotes 4,000 characters back;
- every message is fitted on its way out (`fit`, applied to every request by
  cogs/outgoing.py): a field past its limit is clipped, and logged as the bug
  of ours it is, rather than the message lost.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

# Messages and embeds.
MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_TITLE = 256
MAX_DESCRIPTION = 4096
MAX_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_AUTHOR = 256
MAX_EMBED_TOTAL = 6000
# Components.
MAX_ROWS = 5
MAX_PER_ROW = 5
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_OPTIONS = 25
MAX_OPTION_TEXT = 100  # a select option's label, value and description
MAX_PLACEHOLDER = 150
MAX_TEXT_DISPLAYS = 4000  # a v2 message's text displays, together
MAX_ALT_TEXT = 1024  # an attachment's description
# A person's own text: a name, well past Discord's 32 characters (no name
# Discord allows is ever cut), and a value quoted back in a refusal.
MAX_NAME = 100
MAX_ECHO = 100

ELLIPSIS = "…"
_EMBED_TEXTS = (("title", MAX_TITLE), ("description", MAX_DESCRIPTION))


def clip(text: str, limit: int) -> str:
    """`text`, cut to `limit` characters with an ellipsis if it is longer."""
    return text if len(text) <= limit else text[:limit - 1] + ELLIPSIS


def user_text(text: object, limit: int = MAX_ECHO) -> str:
    """A person's own text (a name, an option value), on one line and at most
    `limit` characters. Clipped with an ellipsis, which no valid value holds,
    so a value too long to be valid stays invalid."""
    return clip(" ".join(str(text).split()), limit)


def fit(message: dict[str, Any]) -> list[str]:
    """Clip, in place, whatever in a message's JSON (as sent to Discord) is
    past Discord's limits; what was clipped, one line each (none: it fitted)."""
    cut: list[str] = []
    content = message.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        message["content"] = clip(content, MAX_CONTENT)
        cut.append(f"content: {len(content)} characters")
    embeds = message.get("embeds")
    if isinstance(embeds, list):
        if len(embeds) > MAX_EMBEDS:
            cut.append(f"embeds: {len(embeds)}")
            del embeds[MAX_EMBEDS:]
        for number, embed in enumerate(embeds):
            if isinstance(embed, dict):
                cut += [f"embeds[{number}].{line}" for line in _fit_embed(embed)]
    components = message.get("components")
    if isinstance(components, list):
        for component in _walk(components):
            cut += _fit_component(component)
        cut += _fit_text_displays(components)
    for attachment in message.get("attachments") or []:
        if isinstance(attachment, dict) and _clip_key(attachment, "description", MAX_ALT_TEXT):
            cut.append("attachment description")
    return cut


def _fit_text_displays(components: list[Any]) -> list[str]:
    """A v2 message's text displays share 4,000 characters: the last give way
    (each keeps one, as a text display may not be empty)."""
    shown = [c for c in _walk(components) if c.get("type") == 10
             and isinstance(c.get("content"), str)]
    room = MAX_TEXT_DISPLAYS
    cut: list[str] = []
    for number, display in enumerate(shown):
        allowed = max(room - (len(shown) - number - 1), 1)
        if len(display["content"]) > allowed:
            display["content"] = clip(display["content"], allowed)
            cut.append("text display")
        room -= len(display["content"])
    return cut


def _fit_embed(embed: dict[str, Any]) -> list[str]:
    cut = [name for name, limit in _EMBED_TEXTS if _clip_key(embed, name, limit)]
    fields = embed.get("fields")
    if isinstance(fields, list):
        if len(fields) > MAX_FIELDS:
            cut.append(f"fields: {len(fields)}")
            del fields[MAX_FIELDS:]
        for field in fields:
            if isinstance(field, dict):
                cut += [f"field {key}" for key, limit in (("name", MAX_FIELD_NAME),
                                                           ("value", MAX_FIELD_VALUE))
                        if _clip_key(field, key, limit)]
    for part, key, limit in (("footer", "text", MAX_FOOTER), ("author", "name", MAX_AUTHOR)):
        holder = embed.get(part)
        if isinstance(holder, dict) and _clip_key(holder, key, limit):
            cut.append(part)
    over = embed_length(embed) - MAX_EMBED_TOTAL
    if over > 0:
        cut.append(f"{over} characters past {MAX_EMBED_TOTAL} in all")
        _shorten(embed, over)
    return cut


def embed_length(embed: dict[str, Any]) -> int:
    """The characters Discord counts toward an embed's 6,000."""
    total = sum(len(str(embed.get(key) or "")) for key, _ in _EMBED_TEXTS)
    for field in embed.get("fields") or []:
        total += len(str(field.get("name") or "")) + len(str(field.get("value") or ""))
    total += len(str((embed.get("footer") or {}).get("text") or ""))
    return total + len(str((embed.get("author") or {}).get("name") or ""))


def _shorten(embed: dict[str, Any], over: int) -> None:
    """Take `over` characters off the description, then off the last fields."""
    description = str(embed.get("description") or "")
    if description:
        keep = max(len(description) - over, 1)
        embed["description"] = clip(description, keep)
        over -= len(description) - len(embed["description"])
    fields = embed.get("fields") or []
    while over > 0 and fields:
        last = fields.pop()
        over -= len(str(last.get("name") or "")) + len(str(last.get("value") or ""))


def _fit_component(component: dict[str, Any]) -> list[str]:
    kind = component.get("type")
    cut: list[str] = []
    if _clip_key(component, "custom_id", MAX_CUSTOM_ID):
        cut.append("custom_id")
    if kind == 2 and _clip_key(component, "label", MAX_LABEL):
        cut.append("button label")
    if kind in (3, 5, 6, 7, 8) and _clip_key(component, "placeholder", MAX_PLACEHOLDER):
        cut.append("select placeholder")
    options = component.get("options")
    if kind == 3 and isinstance(options, list):
        if len(options) > MAX_OPTIONS:
            cut.append(f"select options: {len(options)}")
            del options[MAX_OPTIONS:]
        for option in options:
            if isinstance(option, dict):
                cut += [f"select option {key}" for key in ("label", "value", "description")
                        if _clip_key(option, key, MAX_OPTION_TEXT)]
    return cut


def _clip_key(holder: dict[str, Any], key: str, limit: int) -> bool:
    value = holder.get(key)
    if isinstance(value, str) and len(value) > limit:
        holder[key] = clip(value, limit)
        return True
    return False


def _walk(components: list[Any]) -> Iterator[dict[str, Any]]:
    """Every component: action rows, v2 containers, sections and accessories."""
    for component in components:
        if not isinstance(component, dict):
            continue
        yield component
        yield from _walk(component.get("components") or [])
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from _walk([child])
