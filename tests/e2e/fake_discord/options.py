"""Building slash-command interaction data from a synced command, the way Discord's UI would."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .models import Channel, Guild, Json, Role, User

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10


class CommandError(ValueError):
    """The test asked for something the Discord client would not let a user send."""


def find_command(guild_commands: list[Json], global_commands: list[Json], name: str) -> Json:
    for command in [*guild_commands, *global_commands]:
        if command["name"] == name and command.get("type", 1) == 1:
            return command
    synced = sorted(c["name"] for c in [*guild_commands, *global_commands])
    raise CommandError(f"no slash command {name!r} was synced (synced: {synced})")


def command_data(command: Json, path: list[str], options: Mapping[str, Any], guild: Guild) -> Json:
    """`path` is the words after the command name: [] / [sub] / [group, sub]."""
    resolved: Json = {}
    data: Json = {"id": command["id"], "name": command["name"], "type": 1}
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    node, holder = command, data
    for word in path:
        child = next(
            (
                o
                for o in node.get("options") or []
                if o["name"] == word and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ),
            None,
        )
        if child is None:
            raise CommandError(f"{node['name']!r} has no subcommand (group) {word!r}")
        entry: Json = {"name": word, "type": child["type"], "options": []}
        holder["options"] = [entry]
        node, holder = child, entry
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in node.get("options") or []):
        raise CommandError(f"{node['name']!r} needs a subcommand")
    holder["options"] = _leaf_options(node, options, guild, resolved)
    if resolved:
        data["resolved"] = resolved
    return data


def _leaf_options(node: Json, given: Mapping[str, Any], guild: Guild, resolved: Json) -> list[Json]:
    schema = {o["name"]: o for o in node.get("options") or []}
    unknown = set(given) - set(schema)
    if unknown:
        raise CommandError(
            f"{node['name']!r} has no options {sorted(unknown)}; has {sorted(schema)}"
        )
    missing = [n for n, o in schema.items() if o.get("required") and n not in given]
    if missing:
        raise CommandError(f"{node['name']!r} requires options {missing}")
    return [
        {
            "name": name,
            "type": schema[name]["type"],
            "value": _value(schema[name], value, guild, resolved),
        }
        for name, value in given.items()
    ]


def _value(option: Json, value: Any, guild: Guild, resolved: Json) -> Any:
    kind, name = option["type"], option["name"]
    choices = [c["value"] for c in option.get("choices") or []]
    if choices and value not in choices:
        raise CommandError(f"option {name!r}: {value!r} is not one of the choices {choices}")
    if kind == STRING and isinstance(value, str):
        if not option.get("min_length", 0) <= len(value) <= option.get("max_length", 6000):
            raise CommandError(f"option {name!r}: length of {value!r} out of range")
        return value
    if kind in (INTEGER, NUMBER) and isinstance(value, int | float) and not isinstance(value, bool):
        if kind == INTEGER and not isinstance(value, int):
            raise CommandError(f"option {name!r}: {value!r} is not an integer")
        low, high = option.get("min_value"), option.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise CommandError(f"option {name!r}: {value} outside [{low}, {high}]")
        return value
    if kind == BOOLEAN and isinstance(value, bool):
        return value
    if kind in (USER, MENTIONABLE) and isinstance(value, User):
        resolved.setdefault("users", {})[str(value.id)] = value.payload()
        if value.id in guild.members:
            member = guild.members[value.id].payload()
            member.pop("user")
            resolved.setdefault("members", {})[str(value.id)] = member
        return str(value.id)
    if kind == CHANNEL and isinstance(value, Channel):
        resolved.setdefault("channels", {})[str(value.id)] = {
            **value.payload(),
            "permissions": str(guild.permissions_of(guild.owner_id)),
        }
        return str(value.id)
    if kind in (ROLE, MENTIONABLE) and isinstance(value, Role):
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        return str(value.id)
    raise CommandError(f"option {name!r} (type {kind}) cannot take {value!r}")
