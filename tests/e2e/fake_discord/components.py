"""Walking message components (v1 action rows and v2 layouts) and finding buttons."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

Json = dict[str, Any]


def iter_components(components: list[Json]) -> Iterator[Json]:
    """Depth-first over every component, including v2 containers, sections and accessories."""
    for component in components:
        yield component
        yield from iter_components(component.get("components", []))
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from iter_components([child])


def find_button(
    components: list[Json],
    *,
    label: str | None = None,
    custom_id: str | None = None,
    prefix: str | None = None,
) -> Json:
    found = [
        c
        for c in iter_components(components)
        if c.get("type") == 2
        and (label is None or c.get("label") == label)
        and (custom_id is None or c.get("custom_id") == custom_id)
        and (prefix is None or str(c.get("custom_id", "")).startswith(prefix))
    ]
    if len(found) != 1:
        have = [
            (c.get("label"), c.get("custom_id"))
            for c in iter_components(components)
            if c.get("type") == 2
        ]
        wanted = f"label={label!r} custom_id={custom_id!r} prefix={prefix!r}"
        raise LookupError(f"{len(found)} buttons match {wanted}; buttons are {have}")
    return found[0]


def find_component(components: list[Json], custom_id: str) -> Json | None:
    for component in iter_components(components):
        if component.get("custom_id") == custom_id:
            return component
    return None


def text_of(content: str, embeds: list[Json], components: list[Json]) -> str:
    parts = [content] if content else []
    for embed in embeds:
        parts += [str(embed[k]) for k in ("title", "description") if embed.get(k)]
        for f in embed.get("fields", []):
            parts += [str(f.get("name", "")), str(f.get("value", ""))]
        footer = embed.get("footer") or {}
        if footer.get("text"):
            parts.append(str(footer["text"]))
    parts += [str(c["content"]) for c in iter_components(components) if c.get("type") == 10]
    return "\n".join(parts)
