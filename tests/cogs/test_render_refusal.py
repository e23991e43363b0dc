"""Refusals in the player's words (en and nl): typed parameters become names,
card labels and moments, and a cited rule names its /toep rules topic."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cogs.i18n import LANGS, t
from cogs.render import refusal
from cogs.render_topics import RULE_TOPICS, TOPICS
from cogs.replies import refusal_text
from engine.cards import parse_card
from engine.errors import CITABLE_RULES, IllegalEvent, SeatRef
from engine.state import Phase
from tables.errors import TABLE_RULES, Refusal
from tests.engine.refusals import every_refusal

NAMES = ["Anna", "Bob"]


def test_every_rule_a_refusal_can_cite_has_a_topic() -> None:
    for rule in CITABLE_RULES | TABLE_RULES:
        assert RULE_TOPICS.get(rule) in TOPICS, rule


def test_a_rule_outside_the_list_cannot_be_cited() -> None:
    with pytest.raises(ValueError, match="CITABLE_RULES"):
        IllegalEvent("R99", "game_over")
    with pytest.raises(ValueError, match="TABLE_RULES"):
        Refusal("banned", "R4")
    with pytest.raises(ValueError, match="takes"):
        IllegalEvent("R4", "must_follow_suit", 0, cards="8H or 9H")


@pytest.mark.parametrize("lang", LANGS)
def test_every_refusal_reads_well(lang: str) -> None:
    for err in every_refusal():
        text = refusal(err, lang, NAMES)
        assert "{" not in text and err.key not in text, text
        if any(isinstance(value, SeatRef) for value in err.params.values()):
            assert "Bob" in text and "seat" not in text.lower(), text
        assert "SeatRef" not in text and "Phase" not in text and "Card(" not in text, text
        topic = t(lang, f"choice.{RULE_TOPICS[err.rule]}")
        assert text.endswith(f"{topic})"), text


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "You must follow suit: play 8♥ or 9♥. (R4; see /toep rules: Tricks and rounds)"),
    ("nl", "Je moet kleur bekennen: speel 8♥ of 9♥. (R4; zie /toep regels: Slagen en rondes)"),
])
def test_a_follow_suit_refusal_in_both_languages(lang: str, words: str) -> None:
    err = IllegalEvent("R4", "must_follow_suit", 1,
                       cards=(parse_card("8H"), parse_card("9H")))
    assert refusal(err, lang, NAMES) == words


@pytest.mark.parametrize("lang", LANGS)
def test_seats_moments_and_actions_are_the_players_words(lang: str) -> None:
    turn = refusal(IllegalEvent("R4", "not_your_turn", 0, waiting=SeatRef(1)), lang, NAMES)
    assert "Bob" in turn
    moment = refusal(IllegalEvent("R9", "wrong_moment", 0, do="vuile_was",
                                  moment=Phase.TOEP_ANSWER), lang, NAMES)
    assert t(lang, "moment.toep_answer") in moment and t(lang, "do.vuile_was") in moment
    kind = refusal(IllegalEvent("R13", "vuile_was_genuine_only", 0, kind="dead_man"), lang)
    assert t(lang, "kind.dead_man") in kind


@pytest.mark.parametrize("lang", LANGS)
def test_a_table_refusal_with_a_rule_names_its_topic(lang: str) -> None:
    text = refusal_text(Refusal("banned", "R19", until=datetime(2026, 1, 5, tzinfo=UTC)), lang)
    assert text.endswith(f"{t(lang, 'choice.slate')})") and "R19" in text
    assert "(" not in refusal_text(Refusal("not_seated"), lang)
