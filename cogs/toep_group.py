"""How a feature's cog puts its commands under `/toep` or `/toep-admin` and
finds itself.

Both groups belong to the table cog (cogs.table_cog); every other cog adds
its commands to one of them when loaded and takes them away when unloaded.
A command is a plain function that finds its cog through `cog_of`.

Why two groups: Discord applies `default_permissions` (who sees a command)
only to a top-level command or group, never to a subcommand. The commands
for members who may manage the server live in `/toep-admin`, which carries
Manage Server, so other members do not see them; each still checks the
permission when it runs (a server may grant the group to anyone).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

CogT = TypeVar("CogT", bound=commands.Cog)
Command = app_commands.Command[Any, Any, Any]

TOEP = "toep"
ADMIN = "toep-admin"


def toep_group(bot: commands.bot.BotBase, name: str = TOEP) -> app_commands.Group:
    """The loaded table cog's group `name` (TOEP or ADMIN)."""
    table_cog = bot.get_cog("TableCog")
    if table_cog is None:
        raise RuntimeError(f"the /{name} commands need cogs.table_cog loaded first")
    for group in table_cog.get_app_commands():
        if isinstance(group, app_commands.Group) and group.name == name:
            return group
    raise RuntimeError(f"cogs.table_cog has no /{name} group")


def add_to_toep(bot: commands.bot.BotBase, new: Sequence[Command], group: str = TOEP) -> None:
    parent = toep_group(bot, group)
    for command in new:
        parent.add_command(command, override=True)


def remove_from_toep(bot: commands.bot.BotBase, old: Sequence[Command], group: str = TOEP) -> None:
    if bot.get_cog("TableCog") is None:
        return  # unloaded first: its groups went with it
    parent = toep_group(bot, group)
    for command in old:
        parent.remove_command(command.name)


def cog_of(interaction: discord.Interaction, cls: type[CogT]) -> CogT:
    """The loaded cog of class `cls` (a command's own cog)."""
    cog = interaction.client.get_cog(cls.__name__)  # type: ignore[attr-defined]
    assert isinstance(cog, cls), f"{cls.__name__} is not loaded"
    return cog
