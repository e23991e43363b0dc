"""t(), lang_for_locale and the command Translator."""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest
from discord import app_commands

from cogs import i18n
from cogs.i18n import ToepTranslator, is_command_name, lang_for_locale, t


@pytest.mark.parametrize(("locale", "lang"), [
    ("nl", "nl"), ("nl-NL", "nl"), ("nl-BE", "nl"), ("NL_be", "nl"), (discord.Locale.dutch, "nl"),
    ("en-US", "en"), ("de", "en"), (None, "en"), ("", "en"), ("nlx", "en"),
    (discord.Locale.american_english, "en"),
])
def test_lang_for_locale(locale: str | discord.Locale | None, lang: str) -> None:
    assert lang_for_locale(locale) == lang


def test_fills_placeholders() -> None:
    assert t("en", "hap.toeped", name="Anna", stake=3) == \
        "Anna knocks (toep): the stake is now 3."
    assert t("nl", "hap.toeped", name="Anna", stake=3) == "Anna toept: de inzet is nu 3."


def test_missing_placeholder_never_raises(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        text = t("nl", "hap.toeped", name="Anna")
    assert text == "Anna toept: de inzet is nu ?."
    assert "stake" in caplog.text


def test_missing_key_falls_back(caplog: pytest.LogCaptureFixture,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(i18n.CATALOGS["en"], "test.only_en", "only {x}")
    with caplog.at_level(logging.WARNING):
        assert t("nl", "test.only_en", x=1) == "only 1"
        assert t("en", "no.such.key") == "no.such.key"
        assert t("fr", "btn.join") == "Join"
    assert "test.only_en" in caplog.text and "no.such.key" in caplog.text


def test_bad_format_spec_shows_the_template() -> None:
    i18n.CATALOGS["en"]["test.spec"] = "{n:d} marks"
    try:
        assert t("en", "test.spec", n="x") == "{n:d} marks"
    finally:
        del i18n.CATALOGS["en"]["test.spec"]


def _commands() -> app_commands.Group:
    group = app_commands.Group(name="toep", description="Play Toepen, the Dutch card game")

    @group.command(name="new", description="Open a Toepen table in this channel")
    @app_commands.describe(limit="V1")
    @app_commands.choices(two_left=[app_commands.Choice(name="Ask both players", value="ask"),
                                    app_commands.Choice(name="Super toep", value="super_toep")])
    async def new(interaction: discord.Interaction, private: bool = False, limit: int = 15,
                  two_left: str = "ask") -> None:
        """Open a table."""

    @group.command(name="rules", description="Read the rules of Toepen")
    async def rules(interaction: discord.Interaction, topic: str) -> None:
        """Rules."""

    return group


async def test_translator_gives_dutch_names() -> None:
    group = _commands()
    translator = ToepTranslator()
    dutch = discord.Locale.dutch
    new = group.get_command("new")
    assert isinstance(new, app_commands.Command)
    got = {}
    for where, data, string in [
        (app_commands.TranslationContextLocation.group_name, group, group._locale_name),
        (app_commands.TranslationContextLocation.command_name, new, new._locale_name),
        (app_commands.TranslationContextLocation.command_description, new,
         new._locale_description),
    ]:
        context = app_commands.TranslationContext(where, data)  # type: ignore[call-overload]
        assert string is not None
        got[where.name] = await translator.translate(string, dutch, context)
    for param in new.parameters:
        context = app_commands.TranslationContext(
            app_commands.TranslationContextLocation.parameter_name, param)
        got[param.name] = await translator.translate(app_commands.locale_str(param.name), dutch,
                                                     context)
        for choice in param.choices:
            context = app_commands.TranslationContext(
                app_commands.TranslationContextLocation.choice_name, choice)
            got[f"choice {choice.value}"] = await translator.translate(
                app_commands.locale_str(choice.name), dutch, context)
    assert got == {
        "group_name": "toep", "command_name": "nieuw",
        "command_description": "Open een toeptafel in dit kanaal",
        "private": "privé", "limit": "limiet", "two_left": "twee_over",
        "choice ask": "Beide spelers vragen", "choice super_toep": "Super toep",
    }
    english = await translator.translate(
        new._locale_name, discord.Locale.british_english,  # type: ignore[arg-type]
        app_commands.TranslationContext(app_commands.TranslationContextLocation.command_name, new))
    assert english is None


async def test_explicit_key_and_unknown() -> None:
    translator = ToepTranslator()
    other: app_commands.TranslationContext[Any, Any] = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.other, None)
    text = app_commands.locale_str("My hand", key="btn.hand")
    assert await translator.translate(text, discord.Locale.dutch, other) == "Mijn kaarten"
    assert await translator.translate(app_commands.locale_str("x"), discord.Locale.dutch,
                                      other) is None


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_command_names_follow_discords_rule(lang: str) -> None:
    names = {k: v for k, v in i18n.CATALOGS[lang].items()
             if k.startswith("cmd.") and k.endswith(".name")}
    assert len(names) > 20
    for key, name in names.items():
        assert is_command_name(name), (key, name)
    for key, text in i18n.CATALOGS[lang].items():
        if (key.startswith("cmd.") and key.endswith(".desc")) or key.startswith("choice."):
            assert 1 <= len(text) <= 100, key


def test_is_command_name() -> None:
    assert is_command_name("beëindigen") and is_command_name("max_inzet")
    assert not is_command_name("Nieuw") and not is_command_name("two words")
    assert not is_command_name("") and not is_command_name("x" * 33)
