"""The community renders and the practice game, without Discord."""

from __future__ import annotations

from cogs.i18n import CATALOGS
from cogs.learn_game import Lesson
from cogs.render_community import (
    SETTING_OPTIONS,
    option_values,
    parse_value,
    settings_message,
    value_code,
)
from cogs.render_learn import learn_panel
from engine.rules import SPECS, TableRules
from engine.state import Phase

SILENCE = {Phase.WINDOW: "pass", Phase.CHECK: "believe", Phase.SUPER_QUESTION: "super_no"}


def test_community_keys_in_both_languages() -> None:
    for key in ("cmd.toep.learn.name", "learn.rule.tricks", "board.line", "settings.opt.window"):
        assert key in CATALOGS["en"] and key in CATALOGS["nl"]


def test_every_option_value_round_trips_and_validates() -> None:
    assert "clock" not in SETTING_OPTIONS and len(SETTING_OPTIONS) == 13
    for name in SETTING_OPTIONS:
        values = option_values(name, getattr(TableRules(), name))
        assert 2 <= len(values) <= 25, name
        for value in values:
            parsed = parse_value(name, value_code(value))
            TableRules.from_json({name: parsed})
    assert SPECS["limit"].high in option_values("limit", 15)


def test_settings_message_fits_discord() -> None:
    for lang in ("en", "nl"):
        for picked in (None, "rounds", "two_left"):
            rendered = settings_message(1, None, lang, {"limit": 10}, lang, picked)
            assert rendered.view is not None and len(rendered.view.children) <= 5
            assert rendered.embed is not None and len(rendered.embed) < 6000


def test_a_practice_game_follows_its_hints_to_the_end() -> None:
    lesson = Lesson.new(1, 1, "anna", ["C1", "C2", "C3"], seed=11)
    explained: list[str] = []
    for _ in range(500):
        if lesson.over:
            break
        panel = learn_panel(lesson, "en")
        assert sum(len(e) for e in panel.embeds) < 6000
        explained += lesson.explained
        found = lesson.hint()
        assert found is not None
        event = found.event
        verb = SILENCE[lesson.game.phase] if event is None else event.do
        lesson.act(verb, None if event is None else event.card, lesson.stamp)
    assert lesson.over and "tricks" in lesson.explained
