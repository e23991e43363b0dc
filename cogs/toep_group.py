"""How a feature's cog puts its commands under `/toep` and finds itself.

The `/toep` group belongs to the table cog (cogs.table_cog); every other
cog adds its commands to it when loaded and takes them away when unloaded.
A command is a plain function that finds its cog through `cog_of`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

CogT = TypeVar("CogT", bound=commands.Cog)
Command = app_commands.Command[Any, Any, Any]


def toep_group(bot: commands.Bot) -> app_commands.Group:
    table_cog: Any = bot.get_cog("TableCog")
    if table_cog is None:
        raise RuntimeError("the /toep commands need cogs.table_cog loaded first")
    group = table_cog.toep
    assert isinstance(group, app_commands.Group)
    return group


def add_to_toep(bot: commands.Bot, new: Sequence[Command]) -> None:
    group = toep_group(bot)
    for command in new:
        group.add_command(command, override=True)


def remove_from_toep(bot: commands.Bot, old: Sequence[Command]) -> None:
    table_cog: Any = bot.get_cog("TableCog")
    if table_cog is not None:
        for command in old:
            table_cog.toep.remove_command(command.name)


def cog_of(interaction: discord.Interaction, cls: type[CogT]) -> CogT:
    """The loaded cog of class `cls` (a command's own cog)."""
    cog = interaction.client.get_cog(cls.__name__)  # type: ignore[attr-defined]
    assert isinstance(cog, cls), f"{cls.__name__} is not loaded"
    return cog
