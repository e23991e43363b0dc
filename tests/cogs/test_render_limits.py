"""The fair limits per member in the settings message."""

from __future__ import annotations

import discord
import pytest

from cogs.i18n import t
from cogs.render_community import settings_message
from cogs.render_limits import LIMIT_OPTIONS, limit_values, parse_limit
from data.guilds import DEFAULT_LIMITS, LIMIT_RANGES, Limits


@pytest.mark.parametrize("lang", ["en", "nl"])
@pytest.mark.parametrize("picked", [None, "max_hosted", "max_tables", "limit"])
def test_the_limits_are_shown_and_offered(lang: str, picked: str | None) -> None:
    limits = Limits(hosted=4, seated=3, tables=137)
    rendered = settings_message(1, None, lang, {}, lang, picked, None, limits)
    assert rendered.embed is not None and rendered.view is not None
    assert len(rendered.embed) < 6000 and len(rendered.view.children) <= 5
    text = rendered.embed.description or ""
    assert t(lang, "settings.limit.max_hosted", value=4) in text
    assert t(lang, "settings.limit.max_seated",
             value=t(lang, "settings.limit_standard", value=3)) in text
    assert t(lang, "settings.limit.max_tables", value=137) in text
    selects = [i for i in rendered.view.children if isinstance(i, discord.ui.Select)]
    assert {o.value for o in selects[1].options} >= set(LIMIT_OPTIONS)
    if picked in LIMIT_OPTIONS:
        values = selects[2]
        assert values.custom_id == f"toepset:1:value:{picked}"
        chosen = [o.value for o in values.options if o.default]
        assert chosen == [str(getattr(limits, LIMIT_OPTIONS[picked]))]


def test_every_offered_value_is_taken_and_nothing_else() -> None:
    for option, name in LIMIT_OPTIONS.items():
        for current in (1, getattr(DEFAULT_LIMITS, name), LIMIT_RANGES[name][1]):
            limits = Limits(**{name: current})
            offered = limit_values(option, limits, "en")
            assert 2 <= len(offered) <= 25 and str(current) in {o.value for o in offered}
            assert str(getattr(DEFAULT_LIMITS, name)) in {o.value for o in offered}
            for o in offered:
                assert parse_limit(option, o.value) == int(o.value)
        low, high = LIMIT_RANGES[name]
        for bad in (str(low - 1), str(high + 1), "", "x", "1.5", "-1", "0010000"):
            assert parse_limit(option, bad) is None, (option, bad)
    assert parse_limit("limit", "3") is None  # a house rule, not a limit
