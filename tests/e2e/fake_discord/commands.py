"""Application command registration: validation like Discord's and stable ids."""

from __future__ import annotations

import re
from typing import Any

from .models import Json
from .snowflake import Snowflakes

# Discord rejects localization keys outside this list (a classic: "en" instead of "en-US").
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
_NAME = re.compile(r"^[-_'\w]{1,32}$")


# Who may see and use a command, and where: Discord reads these on a
# top-level command only. On a subcommand (group) it has no such field, so
# a bot that puts them there hides nothing: refused here, not ignored.
TOP_LEVEL_ONLY = ("default_member_permissions", "dm_permission", "contexts")


def command_problems(commands: Any) -> list[str]:
    if not isinstance(commands, list):
        return ["body must be a list of commands"]
    if len(commands) > 100:
        return [f"{len(commands)} commands, at most 100"]
    problems: list[str] = []
    for command in commands:
        where = str(command.get("name"))
        problems += _permission_problems(command, where)
        problems += _problems(command, where, chat=command.get("type", 1) == 1)
    return problems


def _permission_problems(command: Json, where: str) -> list[str]:
    allowed = command.get("default_member_permissions")
    if allowed is not None and not str(allowed).isdigit():
        return [f"{where}: default_member_permissions must be a permission bit set"]
    return []


def _nested_problems(option: Json, where: str) -> list[str]:
    return [f"{where}: {key} is only allowed on a top-level command"
            for key in TOP_LEVEL_ONLY if key in option]


def _problems(item: Json, where: str, *, chat: bool) -> list[str]:
    problems: list[str] = []
    name = str(item.get("name", ""))
    if not _NAME.match(name) or (chat and name != name.lower()):
        problems.append(f"{where}: invalid name {name!r}")
    if chat and not 1 <= len(str(item.get("description", ""))) <= 100:
        problems.append(f"{where}: description must be 1-100 characters")
    for key in ("name_localizations", "description_localizations"):
        bad = set(item.get(key) or {}) - LOCALES
        if bad:
            problems.append(f"{where}: {key} has invalid locales {sorted(bad)}")
    options: list[Json] = item.get("options") or []
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} options, at most 25")
    required = [bool(o.get("required")) for o in options if o.get("type") not in (1, 2)]
    if required != sorted(required, reverse=True):
        problems.append(f"{where}: required options must come before optional ones")
    for option in options:
        inner = f"{where} {option.get('name')}"
        problems += _nested_problems(option, inner)
        problems += _problems(option, inner, chat=True)
    problems += _choice_problems(item.get("choices") or [], where)
    contexts = item.get("contexts")
    if contexts is not None and not set(contexts) <= {0, 1, 2}:
        problems.append(f"{where}: contexts must be among 0, 1, 2")
    return problems


def _choice_problems(choices: list[Json], where: str) -> list[str]:
    """At most 25 choices, each named in 1-100 characters, a text value at most 100."""
    problems = [f"{where}: {len(choices)} choices, at most 25"] if len(choices) > 25 else []
    for choice in choices:
        value = choice.get("value")
        if not 1 <= len(str(choice.get("name") or "")) <= 100 or (
                isinstance(value, str) and len(value) > 100):
            problems.append(f"{where}: choice {choice.get('name')!r}: name 1-100 characters, "
                            "a text value at most 100")
    return problems


def register(
    commands: list[Json], previous: list[Json], ids: Snowflakes, app_id: int, guild_id: int | None
) -> list[Json]:
    """Store a bulk overwrite; a command keeps its id when its name and type stay."""
    known = {(c["name"], c.get("type", 1)): c["id"] for c in previous}
    stored = []
    for command in commands:
        kind = command.get("type", 1)
        entry: Json = {
            "dm_permission": True,
            "nsfw": False,
            "contexts": None,
            "integration_types": [0],
            "options": [],
            **command,
            "id": known.get((command["name"], kind)) or str(ids.next()),
            # Discord answers a permission bit set as a string, whatever was sent.
            "default_member_permissions": _bits(command.get("default_member_permissions")),
            "application_id": str(app_id),
            "type": kind,
            "version": str(ids.next()),
        }
        if guild_id is not None:
            entry["guild_id"] = str(guild_id)
        stored.append(entry)
    return stored


def _bits(value: Any) -> str | None:
    return None if value is None else str(value)
