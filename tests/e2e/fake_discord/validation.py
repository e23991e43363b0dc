"""Discord's payload limits, so the fake rejects what real Discord would (50035 / 50006)."""

from __future__ import annotations

from .components import iter_components
from .models import COMPONENTS_V2, Json

_EMBED_LIMITS = {"title": 256, "description": 4096}
_V1_TOP_LEVEL = {1}
_V2_TOP_LEVEL = {1, 9, 10, 12, 13, 14, 17}
_INTERACTIVE = {2, 3, 4, 5, 6, 7, 8}
MAX_ALT_TEXT = 1024  # an attachment's description
MAX_V2_TEXT = 4000  # the text displays of one message, together


def message_problems(body: Json, *, creating: bool, has_files: bool) -> list[str]:
    """Problems with a message create/edit body; an empty list means Discord accepts it."""
    problems: list[str] = []
    content = body.get("content") or ""
    embeds: list[Json] = body.get("embeds") or []
    components: list[Json] = body.get("components") or []
    flags = int(body.get("flags") or 0)
    if len(content) > 2000:
        problems.append(f"content: {len(content)} characters, at most 2000")
    problems += _embed_problems(embeds)
    for entry in body.get("attachments") or []:
        alt = str(entry.get("description") or "")
        if len(alt) > MAX_ALT_TEXT:
            problems.append(f"attachment description: {len(alt)} characters, at most 1024")
    if flags & COMPONENTS_V2:
        if content or embeds:
            problems.append("content and embeds cannot be used with IS_COMPONENTS_V2")
        problems += _component_problems(components, _V2_TOP_LEVEL, max_total=40)
        shown = sum(len(str(c.get("content") or "")) for c in iter_components(components)
                    if c.get("type") == 10)
        if shown > MAX_V2_TEXT:
            problems.append(f"text displays: {shown} characters in all, at most 4000")
    else:
        # Five rows of five: the rows themselves are not counted here (v2's 40 counts all).
        problems += _component_problems(components, _V1_TOP_LEVEL, max_total=25, rows_count=False)
        if len(components) > 5:
            problems.append(f"components: {len(components)} action rows, at most 5")
    empty = not (content or embeds or components or has_files or body.get("sticker_ids"))
    if creating and empty:
        problems.append("50006 Cannot send an empty message")
    return problems


def _embed_problems(embeds: list[Json]) -> list[str]:
    problems: list[str] = []
    if len(embeds) > 10:
        problems.append(f"embeds: {len(embeds)}, at most 10")
    total = 0
    for i, embed in enumerate(embeds):
        for key, limit in _EMBED_LIMITS.items():
            n = len(str(embed.get(key) or ""))
            total += n
            if n > limit:
                problems.append(f"embeds[{i}].{key}: {n} characters, at most {limit}")
        fields: list[Json] = embed.get("fields") or []
        if len(fields) > 25:
            problems.append(f"embeds[{i}].fields: {len(fields)}, at most 25")
        for f in fields:
            name, value = str(f.get("name", "")), str(f.get("value", ""))
            total += len(name) + len(value)
            if not name or not value or len(name) > 256 or len(value) > 1024:
                problems.append(f"embeds[{i}].fields: name 1-256 and value 1-1024 characters")
        for part, limit in (("footer", 2048), ("author", 256)):
            text = str((embed.get(part) or {}).get("text" if part == "footer" else "name", ""))
            total += len(text)
            if len(text) > limit:
                problems.append(f"embeds[{i}].{part}: {len(text)} characters, at most {limit}")
    if total > 6000:
        problems.append(f"embeds: {total} characters in total, at most 6000")
    return problems


def _component_problems(components: list[Json], top_level: set[int], max_total: int,
                        rows_count: bool = True) -> list[str]:
    problems: list[str] = []
    for top in components:
        if top.get("type") not in top_level:
            problems.append(f"component type {top.get('type')} not allowed at the top level")
        if top.get("type") == 1:
            problems += _row_problems(top)
    everything = list(iter_components(components))
    counted = [c for c in everything if rows_count or c.get("type") != 1]
    if len(counted) > max_total:
        problems.append(f"components: {len(counted)} in total, at most {max_total}")
    seen: set[str] = set()
    for component in everything:
        problems += _single_problems(component)
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if custom_id in seen:
                problems.append(f"custom_id {custom_id!r} used twice in one message")
            seen.add(custom_id)
    return problems


def _row_problems(row: Json) -> list[str]:
    children: list[Json] = row.get("components") or []
    kinds = [c.get("type") for c in children]
    if not children or len(children) > 5:
        return [f"action row with {len(children)} components, 1-5 allowed"]
    if any(k != 2 for k in kinds) and len(children) != 1:
        return ["a select menu must be alone in its action row"]
    return []


def _single_problems(component: Json) -> list[str]:
    kind = component.get("type")
    custom_id = component.get("custom_id")
    problems: list[str] = []
    if custom_id is not None and not 1 <= len(str(custom_id)) <= 100:
        problems.append(f"custom_id {custom_id!r}: 1-100 characters")
    if kind == 2:
        style = component.get("style")
        if len(str(component.get("label") or "")) > 80:
            problems.append(f"button label {component.get('label')!r}: at most 80 characters")
        if style == 5 and (custom_id is not None or not component.get("url")):
            problems.append("link button needs a url and no custom_id")
        if style in (1, 2, 3, 4) and custom_id is None:
            problems.append(f"button {component.get('label')!r} needs a custom_id")
        if style not in (1, 2, 3, 4, 5, 6):
            problems.append(f"button style {style!r}: 1-6")
        if style != 6 and not (component.get("label") or component.get("emoji")):
            problems.append("a button needs a label or an emoji")
    elif kind == 3:
        problems += _select_problems(component)
    elif kind in _INTERACTIVE and custom_id is None:
        problems.append(f"component type {kind} needs a custom_id")
    return problems


def _select_problems(select: Json) -> list[str]:
    """A string select: 1-25 options, each 1-100 characters of label and value."""
    options: list[Json] = select.get("options") or []
    problems: list[str] = []
    if not 1 <= len(options) <= 25:
        problems.append(f"select menu with {len(options)} options, 1-25 allowed")
    for option in options:
        label, value = str(option.get("label") or ""), str(option.get("value") or "")
        if not (1 <= len(label) <= 100 and 1 <= len(value) <= 100):
            problems.append(f"select option {label!r}: label and value 1-100 characters")
        if len(str(option.get("description") or "")) > 100:
            problems.append(f"select option {label!r}: description at most 100 characters")
    if len({str(o.get("value")) for o in options}) != len(options):
        problems.append("select menu option values must be unique")
    if len(str(select.get("placeholder") or "")) > 150:
        problems.append("select menu placeholder: at most 150 characters")
    low, high = int(select.get("min_values", 1)), int(select.get("max_values", 1))
    if not (0 <= low <= 25 and 1 <= high <= 25 and low <= high <= max(1, len(options))):
        problems.append(f"select menu min_values {low} / max_values {high} out of range")
    if sum(1 for o in options if o.get("default")) > high:
        problems.append("select menu has more default options than max_values")
    return problems


def modal_problems(data: Json) -> list[str]:
    problems: list[str] = []
    if not 1 <= len(str(data.get("title") or "")) <= 45:
        problems.append("modal title: 1-45 characters")
    if not 1 <= len(str(data.get("custom_id") or "")) <= 100:
        problems.append("modal custom_id: 1-100 characters")
    if not 1 <= len(data.get("components") or []) <= 5:
        problems.append("modal: 1-5 components")
    return problems
