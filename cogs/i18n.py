"""Message catalogs (locales/en.json, locales/nl.json and their parts
locales/<lang>.<part>.json) and the command Translator.

`t(lang, key, **params)` is the one way text reaches a player. A key missing
in Dutch falls back to English; a missing key or placeholder is logged and
rendered as something a player can still read, never an exception mid-game.
"""

from __future__ import annotations

import json
import logging
import string
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

log = logging.getLogger(__name__)

Lang = Literal["en", "nl"]
LANGS: tuple[Lang, ...] = ("en", "nl")
DEFAULT: Lang = "en"
LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
MISSING = "?"  # what a missing placeholder renders as


def _load_file(path: Path) -> dict[str, str]:
    with path.open(encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise ValueError(f"locales/{path.name} must be an object of strings")
    return data


def _load(lang: str) -> dict[str, str]:
    """locales/<lang>.json, merged with every locales/<lang>.<part>.json (a
    part of the catalog kept apart, e.g. en.community.json); no key twice."""
    merged = _load_file(LOCALES_DIR / f"{lang}.json")
    for path in sorted(LOCALES_DIR.glob(f"{lang}.*.json")):
        part = _load_file(path)
        twice = sorted(set(part) & set(merged))
        if twice:
            raise ValueError(f"locales/{path.name} repeats keys: {', '.join(twice[:5])}")
        merged.update(part)
    return merged


CATALOGS: dict[str, dict[str, str]] = {lang: _load(lang) for lang in LANGS}


def catalog(lang: str) -> Mapping[str, str]:
    return CATALOGS.get(lang, CATALOGS[DEFAULT])


def has(key: str, lang: str = DEFAULT) -> bool:
    return key in catalog(lang)


class _Lenient(dict[str, Any]):
    """Format parameters that render a missing name as MISSING."""

    def __init__(self, params: Mapping[str, Any], key: str) -> None:
        super().__init__(params)
        self.key = key

    def __missing__(self, name: str) -> str:
        log.warning("text %r: no value for placeholder {%s}", self.key, name)
        return MISSING


_FORMATTER = string.Formatter()


def t(lang: str, key: str, **params: Any) -> str:
    """The text of `key` in `lang` (English if missing there) with `params` filled in."""
    template = catalog(lang).get(key)
    if template is None:
        template = CATALOGS[DEFAULT].get(key)
        if template is None:
            log.warning("no text for key %r", key)
            return key
        log.warning("no %s text for key %r; using English", lang, key)
    try:
        # str.format_map is string.Formatter().vformat done in C: the same
        # result, several times faster, and every text a player reads is one.
        return template.format_map(_Lenient(params, key))
    except (ValueError, IndexError, KeyError, AttributeError, TypeError) as err:
        # A bad format spec for the value given: show the text unfilled
        # rather than fail a whole message.
        log.warning("text %r: cannot fill in %s: %s", key, sorted(params), err)
        return template


def placeholders(template: str) -> frozenset[str]:
    """The names of the {placeholders} in `template`."""
    names: set[str] = set()
    for _text, field, _spec, _conv in _FORMATTER.parse(template):
        if field is not None:
            names.add(field.split(".")[0].split("[")[0])
    return frozenset(names)


def lang_for_locale(locale: str | discord.Locale | None) -> Lang:
    """Dutch for any Dutch locale ("nl", "nl-NL", "nl_BE" ...), else English."""
    if locale is None:
        return DEFAULT
    text = (locale.value if isinstance(locale, discord.Locale) else str(locale)).lower()
    if text == "nl" or text.startswith(("nl-", "nl_")):
        return "nl"
    return DEFAULT


# --- command names and descriptions ------------------------------------------------

# Keys for command texts, derived from where the string sits, so command code
# needs no keys of its own (a `locale_str(..., key="...")` overrides):
#   group / command  cmd.<qualified name, dots>.name | .desc   e.g. cmd.toep.new.name
#   option           cmd.<command>.opt.<option>.name | .desc    e.g. cmd.toep.new.opt.limit.desc
#   choice           choice.<value>                             e.g. choice.super_toep
# English texts live under the same keys, so the cog can read its English
# names and descriptions from the catalog too.


def command_key(qualified_name: str, part: str) -> str:
    return f"cmd.{qualified_name.replace(' ', '.')}.{part}"


def option_key(qualified_name: str, option: str, part: str) -> str:
    return f"cmd.{qualified_name.replace(' ', '.')}.opt.{option}.{part}"


def choice_key(value: object) -> str:
    return f"choice.{value}"


_NAME_LOCATIONS = frozenset({Where.command_name, Where.group_name, Where.parameter_name})


def is_command_name(text: str) -> bool:
    """Discord's rule for command and option names: ^[-_\\p{L}\\p{N}]{1,32}$, lower case."""
    return (1 <= len(text) <= 32 and text == text.lower()
            and all(ch.isalnum() or ch in "-_" for ch in text))


def key_for(string: app_commands.locale_str, context: app_commands.TranslationContextTypes
            ) -> str | None:
    explicit = string.extras.get("key")
    if isinstance(explicit, str):
        return explicit
    data: object = context.data
    part = "name" if context.location in _NAME_LOCATIONS else "desc"
    if isinstance(data, app_commands.Command | app_commands.Group):
        return command_key(data.qualified_name, part)
    if isinstance(data, app_commands.Parameter):
        return option_key(data.command.qualified_name, data.name, part)
    if isinstance(data, app_commands.Choice):
        return choice_key(data.value)
    return None


class ToepTranslator(app_commands.Translator):
    """Dutch names and descriptions for the /toep commands, from locales/nl.json."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        return translate_command_text(string, locale, context)


def translate_command_text(string: app_commands.locale_str, locale: discord.Locale,
                           context: app_commands.TranslationContextTypes) -> str | None:
    if lang_for_locale(locale) != "nl":
        return None  # English is the commands' own text
    key = key_for(string, context)
    text = None if key is None else CATALOGS["nl"].get(key)
    if text is None:
        return None
    if context.location in _NAME_LOCATIONS and not is_command_name(text):
        log.warning("Dutch name %r for %s breaks Discord's name rule", text, key)
        return None
    return text
