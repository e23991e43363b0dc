"""Every outgoing text fits Discord's limits (issue 25): a person's own text
is clipped where it enters, and `fit` makes any message fit on its way out;
the fake Discord's validation (as strict as Discord) judges both."""

from __future__ import annotations

import random
from typing import Any

import discord
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cogs import text_limits
from cogs.outgoing import fit_request
from cogs.render import hand_panel, lobby_message, table_message
from cogs.render_text import Rendered, plain
from cogs.replies import refusal_text
from cogs.rule_options import RULE_OPTIONS, chosen_options, rules_from
from cogs.text_limits import fit, user_text
from engine.chance import RandomChance
from engine.game import Game
from engine.rules import TableRules
from engine.views import seat_view
from tables.errors import Refusal
from tables.snapshot import Status
from tests.cogs.helpers import NOW, _pick, snapshot
from tests.cogs.limits import check_limits, payload_of
from tests.e2e.fake_discord.validation import message_problems

# Any text a person may type or be called: every plane, markup, newlines.
TEXT = st.text(st.characters(codec="utf-8"), max_size=300)
NAMES = st.text(st.characters(codec="utf-8"), min_size=1,
                max_size=150).filter(lambda name: name.strip() != "")
LONG = st.text(st.characters(codec="utf-8"), max_size=10_000)


def assert_fits(rendered: Rendered) -> None:
    """Discord takes it as rendered: `fit` has nothing to clip, the fake
    accepts it."""
    check_limits_loose(rendered)
    body = payload_of(rendered)
    assert fit(body) == []
    assert message_problems(body, creating=True, has_files=False) == []


def check_limits_loose(rendered: Rendered) -> None:
    if rendered.view is None or all(isinstance(i, discord.ui.Button)
                                    for i in rendered.view.children):
        check_limits(rendered)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=st.lists(NAMES, min_size=2, max_size=8), seed=st.integers(0, 10_000),
       moves=st.integers(0, 60), lang=st.sampled_from(["en", "nl"]))
def test_any_names_fit_every_table_message(names: list[str], seed: int, moves: int,
                                           lang: str) -> None:
    rng = random.Random(seed)
    game = Game(TableRules(max_players=8), names, RandomChance(rng))
    recent = game.opening
    for _ in range(moves):
        if game.over:
            break
        recent = (recent + game.apply(_pick(game, rng)))[-10:]
    snap = snapshot(game, recent, rng)
    assert_fits(table_message(snap, lang, NOW))
    for seat in range(game.n):
        assert_fits(hand_panel(snap, seat_view(game, seat), lang, NOW))
    lobby = snapshot(game, recent, rng, status=Status.LOBBY)
    assert_fits(lobby_message(lobby, lang))


@given(name=TEXT)
def test_a_name_is_one_line_of_at_most_a_names_length(name: str) -> None:
    shown = plain(name).replace("\\", "")
    assert "\n" not in shown and len(shown) <= text_limits.MAX_NAME


@settings(max_examples=60, deadline=None)
@given(option=st.sampled_from([o for o in RULE_OPTIONS]), value=LONG,
       lang=st.sampled_from(["en", "nl"]))
def test_a_refusal_quoting_any_option_value_fits(option: str, value: str, lang: str) -> None:
    try:
        rules_from(chosen_options({option: value}))
    except Refusal as err:
        text = refusal_text(err, lang)
        assert len(text) <= 600, text  # a sentence and a clipped value, not 10,000
        assert len(text) <= text_limits.MAX_CONTENT


@given(value=LONG)
def test_a_clipped_value_is_never_a_valid_one(value: str) -> None:
    clipped = user_text(value)
    assert len(clipped) <= text_limits.MAX_ECHO and "\n" not in clipped
    if len(" ".join(value.split())) > text_limits.MAX_ECHO:
        assert clipped.endswith(text_limits.ELLIPSIS)


def test_the_value_of_a_forged_option_is_quoted_clipped() -> None:
    value = "x" * 4000
    try:
        rules_from(chosen_options({"next_leader": value}))
    except Refusal as err:
        text = refusal_text(err, "en")
    else:
        raise AssertionError("a next_leader of 4,000 x's was taken")
    assert "x" * 90 in text and "x" * 101 not in text


# --- fit: any message made to fit ----------------------------------------------------------

OPTION = st.fixed_dictionaries({"label": TEXT.filter(bool), "value": TEXT.filter(bool)},
                               optional={"description": TEXT})
SELECT = st.builds(lambda cid, opts, ph: {"type": 3, "custom_id": cid, "placeholder": ph,
                                          "options": [dict(o, value=f"{i}:{o['value']}")
                                                      for i, o in enumerate(opts)]},
                   TEXT.filter(bool), st.lists(OPTION, min_size=1, max_size=40), TEXT)
BUTTON = st.builds(lambda cid, label: {"type": 2, "style": 1, "custom_id": cid, "label": label},
                   TEXT.filter(bool), TEXT.filter(bool))
FIELD = st.fixed_dictionaries({"name": LONG.filter(bool), "value": LONG.filter(bool)})
EMBED = st.fixed_dictionaries({}, optional={
    "title": LONG, "description": LONG, "fields": st.lists(FIELD, max_size=30),
    "footer": st.fixed_dictionaries({"text": LONG}),
    "author": st.fixed_dictionaries({"name": LONG})})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.data_too_large])
@given(content=LONG, embeds=st.lists(EMBED, max_size=12),
       rows=st.lists(st.one_of(st.lists(BUTTON, min_size=1, max_size=5).map(
           lambda buttons: {"type": 1, "components": _unique(buttons)}),
           SELECT.map(lambda select: {"type": 1, "components": [select]})), max_size=5))
def test_fit_makes_any_message_one_discord_takes(content: str, embeds: list[dict[str, Any]],
                                                 rows: list[dict[str, Any]]) -> None:
    body: dict[str, Any] = {"content": content or "x", "embeds": embeds, "components": rows}
    _unique_ids(rows)
    fit(body)
    assert message_problems(body, creating=True, has_files=False) == []
    assert fit(body) == []  # fitted once is fitted


def _unique(buttons: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [dict(b, custom_id=f"{i}:{b['custom_id']}") for i, b in enumerate(buttons)]


def _unique_ids(rows: list[dict[str, Any]]) -> None:
    """Distinct custom_ids that stay distinct when clipped (Discord wants them so)."""
    for r, row in enumerate(rows):
        for c, component in enumerate(row["components"]):
            component["custom_id"] = f"{r}.{c}:{component['custom_id']}"


def test_a_multipart_message_is_fitted_too() -> None:
    form: list[dict[str, Any]] = [
        {"name": "payload_json", "value": '{"content": "' + "y" * 2500 + '"}'},
        {"name": "files[0]", "value": b"png"}]
    fit_request("POST /channels/{channel_id}/messages", None, form)
    assert len(str(form[0]["value"])) < 2100 and form[1]["value"] == b"png"
    callback: dict[str, Any] = {"type": 4, "data": {"content": "z" * 2001}}
    fit_request("POST /interactions", callback, None)
    assert len(callback["data"]["content"]) == 2000
    modal: dict[str, Any] = {"type": 9, "data": {"title": "t" * 50, "components": []}}
    fit_request("POST /interactions", modal, None)  # not a message: left alone
    assert modal["data"]["title"] == "t" * 50


def test_text_displays_and_alt_texts_are_fitted_too() -> None:
    texts = [{"type": 10, "content": "t" * 3000} for _ in range(3)]
    body: dict[str, Any] = {"flags": 1 << 15, "components": [{"type": 17, "components": texts}],
                            "attachments": [{"id": 0, "description": "a" * 2000}]}
    assert fit(body) == ["text display", "text display", "attachment description"]
    assert message_problems(body, creating=False, has_files=True) == []


def test_a_refusal_shows_a_persons_text_as_its_characters() -> None:
    text = refusal_text(Refusal("seat_banned", "R19", name="**<@1>**\n" + "n" * 200,
                                until=NOW), "en")
    assert "\\*\\*\\<\\@1\\>\\*\\*" in text and "n" * 85 in text and "n" * 100 not in text
    quoted = ""
    try:
        rules_from(chosen_options({"next_leader": "**big** [x](https://a.b)"}))
    except Refusal as err:
        quoted = refusal_text(err, "en")
    assert "**big**" not in quoted and "\\*\\*big\\*\\*" in quoted
