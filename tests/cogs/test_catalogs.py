"""locales/: same keys and placeholders in both languages; every key the code
uses, every engine refusal and every happening has a text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cogs import i18n
from cogs.i18n import placeholders, t
from cogs.render_text import HAPPENING_TYPES, hint_text
from cogs.render_topics import TOPICS
from engine import events as ev
from engine.errors import REFUSALS
from engine.rules import SPECS
from engine.state import Phase

EN, NL = i18n.CATALOGS["en"], i18n.CATALOGS["nl"]
COGS = Path(__file__).resolve().parents[2] / "cogs"


def test_same_keys() -> None:
    assert set(EN) == set(NL)


def test_same_placeholders() -> None:
    for key in EN:
        assert placeholders(EN[key]) == placeholders(NL[key]), key


def test_no_empty_texts() -> None:
    for catalog in (EN, NL):
        assert all(text.strip() for text in catalog.values())


def test_engine_refusals_have_texts() -> None:
    for key, params in REFUSALS.items():
        assert placeholders(EN[f"err.{key}"]) == set(params), key
    for phase in Phase:
        assert f"moment.{phase.value}" in EN
    for do in ev.ALL_EVENTS:
        assert f"do.{do}" in EN


def test_every_happening_type_has_a_line() -> None:
    listed = set(ev.Happening.__args__)
    assert listed == set(HAPPENING_TYPES)


def test_option_texts() -> None:
    for name in SPECS:
        assert f"cmd.toep.new.opt.{name}.name" in EN
        assert f"cmd.toep.new.opt.{name}.desc" in EN
        assert any(k.startswith(f"rule.{name}") for k in EN)
    for topic in TOPICS:
        for lang in i18n.LANGS:
            assert 100 < len(t(lang, f"rules.{topic}")) <= 2000


# t(lang, "key" ...) and f-string keys like t(lang, f"rule.{name}") in cogs/*.py
_LITERAL = re.compile(r"""\bt\(\s*\w+,\s*(f?)"([^"]+)\"""")


def _keys_in_code() -> list[tuple[str, bool]]:
    found = []
    for path in sorted(COGS.glob("*.py")):
        for match in _LITERAL.finditer(path.read_text(encoding="utf-8")):
            found.append((match.group(2), match.group(1) == "f"))
    return found


def test_keys_used_in_code_exist() -> None:
    found = _keys_in_code()
    assert len(found) > 50
    for key, formatted in found:
        if not formatted:
            assert key in EN, key
            continue
        # An f-string key: some key must match its fixed parts.
        pattern = re.compile("^" + re.sub(r"\\\{[^}]*\\\}", ".+", re.escape(key)) + "$")
        assert any(pattern.match(k) for k in EN), key


def test_hint_texts() -> None:
    # engine/bots/hints.py is written elsewhere; once it exists its keys need texts.
    hints = pytest.importorskip("engine.bots.hints")
    texts: dict[str, str] = hints.HINT_TEXTS
    for key, english in texts.items():
        assert f"hint.{key}" in EN and f"hint.{key}" in NL, key
        assert placeholders(EN[f"hint.{key}"]) == placeholders(english), key
        params = {"card": "10H", "keep": "JS", "stake": "3", "old": "2", "seat": "1"}
        for lang in i18n.LANGS:
            text = hint_text(key, {p: params[p] for p in placeholders(english)}, ("A", "B"),
                             lang)
            assert "?" not in text and "10H" not in text and "JS" not in text, text
