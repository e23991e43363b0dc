"""Ephemeral answers to a command or a click, whether or not it was
acknowledged yet, and the values a select sent."""

from __future__ import annotations

from typing import Any

import discord

from cogs.buttons import unlistened
from cogs.render_text import Rendered


async def say(interaction: discord.Interaction, text: str) -> None:
    """`text`, seen only by the person who asked."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def send_rendered(interaction: discord.Interaction, rendered: Rendered) -> None:
    """A rendered message, seen only by the person who asked."""
    kwargs: dict[str, Any] = {"ephemeral": True}
    if rendered.content is not None:
        kwargs["content"] = rendered.content
    if rendered.embed is not None:
        kwargs["embed"] = rendered.embed
    if rendered.view is not None:
        kwargs["view"] = unlistened(rendered.view)
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


async def replace_with(interaction: discord.Interaction, rendered: Rendered) -> None:
    """The clicked message becomes `rendered`."""
    await interaction.response.edit_message(content=rendered.content, embed=rendered.embed,
                                            view=unlistened(rendered.view))


def component_values(interaction: discord.Interaction) -> list[str]:
    """What a select sent (nothing for a button)."""
    data: Any = interaction.data or {}
    values = data.get("values") if isinstance(data, dict) else None
    return [str(v) for v in values] if isinstance(values, list) else []
