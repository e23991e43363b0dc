"""Discord's limits on a message, checked on a rendered one."""

from __future__ import annotations

from typing import Any

import discord

from cogs import gate
from cogs.render import Rendered


def check_limits(r: Rendered) -> None:
    assert r.content is None or len(r.content) <= 2000
    if r.embed is not None:
        e = r.embed
        assert len(e.title or "") <= 256
        assert len(e.description or "") <= 4096
        assert len(e.fields) <= 25
        for f in e.fields:
            assert 0 < len(f.name or "") <= 256
            assert 0 < len(f.value or "") <= 1024
        assert len(e) <= 6000
    if r.view is not None:
        assert r.view.timeout is None
        rows = r.view.to_components()
        assert len(rows) <= 5
        for row in rows:
            assert 1 <= len(row["components"]) <= 5
        custom_ids = []
        for item in r.view.children:
            if isinstance(item, discord.ui.Select):
                _check_select(item)
            else:
                assert isinstance(item, discord.ui.Button)
                assert 1 <= len(item.label or "") <= 80
            assert item.custom_id is not None and len(item.custom_id) <= 100
            gate.parse(item.custom_id)  # one of our ids, of any kind
            custom_ids.append(item.custom_id)
        assert len(custom_ids) == len(set(custom_ids))


def _check_select(item: discord.ui.Select[discord.ui.View]) -> None:
    """A select: alone in its row, a placeholder of at most 150, 1 to 25
    options of distinct values, each label, value and description at most 100."""
    assert len(item.placeholder or "") <= 150
    assert 1 <= len(item.options) <= 25
    assert len({o.value for o in item.options}) == len(item.options)
    for option in item.options:
        assert 1 <= len(option.label) <= 100 and 1 <= len(option.value) <= 100
        assert len(option.description or "") <= 100


def payload_of(rendered: Rendered) -> dict[str, Any]:
    """A rendered message as the JSON discord.py sends."""
    body: dict[str, Any] = {"content": rendered.content or ""}
    if rendered.embed is not None:
        body["embeds"] = [rendered.embed.to_dict()]
    if rendered.view is not None:
        body["components"] = rendered.view.to_components()
    return body
