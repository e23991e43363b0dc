"""The review as a player reads it: accuracy, the costliest decisions in a
sentence each, the progress line, and its picture with alt text, in both
languages, within Discord's limits."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from cogs.i18n import t
from cogs.render_review import VERBS, accuracy, costly, progress_line, review_message
from cogs.review_picture import HEIGHT, MAX_ALT, lines_of, review_picture
from cogs.slate_picture import WIDTH
from engine.events import ALL_EVENTS, FORFEIT

LANGS = ("en", "nl")


def _decision(event: int, round_: int, verdict: str, lost: float,
              chosen: dict[str, Any], best: dict[str, Any], stake: int = 1) -> dict[str, Any]:
    return {"event": event, "seat": 1, "round": round_, "chosen": chosen, "best": best,
            "marks": {}, "marks_lost": lost, "se": 0.01, "exact": False, "verdict": verdict,
            "stake": stake}


PLAY_9S = {"seat": 1, "do": "play", "card": "9S"}
PLAY_QD = {"seat": 1, "do": "play", "card": "QD"}
CALL = {"seat": 1, "do": "call"}
FOLD = {"seat": 1, "do": "fold"}
BODY: dict[str, Any] = {
    "seat": 1, "limit": 10, "rounds": [0, 2, 1, 0, 3],
    "decisions": [
        _decision(3, 1, "ok", 0.05, PLAY_9S, PLAY_QD),
        _decision(9, 2, "mistake", 0.6, CALL, FOLD),
        _decision(12, 2, "inaccuracy", 0.25, PLAY_QD, PLAY_9S),
        _decision(20, 4, "blunder", 1.5, FOLD, CALL, stake=3),
        _decision(25, 5, "inaccuracy", 0.3, PLAY_9S, PLAY_QD),
        _decision(30, 5, "ok", 0.0, PLAY_9S, PLAY_9S),
    ],
}


def test_accuracy_is_the_share_judged_ok() -> None:
    assert accuracy(BODY["decisions"]) == pytest.approx(2 / 6)
    assert accuracy([]) is None
    assert [d["event"] for d in costly(BODY["decisions"])] == [20, 9, 25, 12]
    # the verdict first: a larger loss not clear of its error comes after
    noisy = _decision(40, 6, "inaccuracy", 2.5, PLAY_9S, PLAY_QD)
    assert [d["event"] for d in costly([*BODY["decisions"], noisy])] == [20, 9, 40, 25, 12]


@pytest.mark.parametrize("lang", LANGS)
def test_the_three_costliest_in_a_sentence_each(lang: str) -> None:
    text = review_message(7, BODY, lang)
    assert len(text) <= 2000
    lines = text.split("\n")
    assert lines[0] == f"**{t(lang, 'review.title', id=7)}**"
    assert lines[1] == t(lang, "review.accuracy", percent=33, ok=2, count=6,
                         lost="2.7" if lang == "en" else "2,7")
    said = [line for line in lines if line.startswith("- ")]
    assert len(said) == 3  # the fourth costly one is left out
    assert said[0] == "- " + t(lang, "review.line", round=4,
                               chosen=t(lang, "review.did.fold", marks=t(
                                   lang, "marks.many", count=2)),
                               best=t(lang, "review.alt.call", stake=3),
                               lost="1.5" if lang == "en" else "1,5",
                               verdict=t(lang, "review.verdict.blunder"))
    assert ("9♠" in said[2]) and ("Q♦" in said[2] if lang == "en" else "V♦" in said[2])
    assert all(len(line) <= 200 for line in said)  # a few lines on a phone


@pytest.mark.parametrize("lang", LANGS)
def test_no_decisions_and_no_costly_ones_say_so(lang: str) -> None:
    none = review_message(7, {**BODY, "decisions": []}, lang)
    assert t(lang, "review.no_decisions") in none
    good = review_message(7, {**BODY, "decisions": BODY["decisions"][:1]}, lang)
    assert t(lang, "review.none_costly") in good and "100%" in good


@pytest.mark.parametrize("lang", LANGS)
def test_progress_line(lang: str) -> None:
    assert progress_line(7, 0, 0, lang) == t(lang, "review.queued", id=7)
    assert progress_line(7, 11, 40, lang) == t(lang, "review.progress", id=7, done=12,
                                               total=40)
    assert progress_line(7, 40, 40, lang) == t(lang, "review.progress", id=7, done=40,
                                               total=40)


def test_the_lines_of_the_picture() -> None:
    actual, best = lines_of(BODY)
    assert actual == [0, 0, 2, 3, 3, 6]
    # less what the decisions lost up to each round, never below 0
    assert best == pytest.approx([0, 0, 1.1, 2.1, 0.6, 3.3])


@pytest.mark.parametrize("lang", LANGS)
def test_the_picture_and_its_alt_text(lang: str) -> None:
    picture = review_picture(7, BODY, lang, system_fonts=False)
    image = Image.open(io.BytesIO(picture.png))
    assert image.size == (WIDTH, HEIGHT) == (picture.width, picture.height)
    assert picture.text.startswith(t(lang, "review.alt", id=7, limit=10,
                                     actual="0; 2; 3; 3; 6", best="")[:60])
    assert t(lang, "review.alt_costly", rounds="2, 4, 5") in picture.text
    many = {**BODY, "rounds": [1] * 400}
    assert len(review_picture(7, many, lang, system_fonts=False).text) <= MAX_ALT


@pytest.mark.parametrize("lang", LANGS)
def test_a_super_toep_answer_in_a_sentence(lang: str) -> None:
    yes, no = {"seat": 1, "do": "super_yes"}, {"seat": 1, "do": "super_no"}
    text = review_message(7, {**BODY, "decisions": [_decision(22, 6, "blunder", 5.1, yes, no)]},
                          lang)
    said = [line for line in text.split("\n") if line.startswith("- ")]
    assert said == ["- " + t(lang, "review.line", round=6, chosen=t(lang, "review.did.super_yes"),
                             best=t(lang, "review.alt.super_no"),
                             lost="5.1" if lang == "en" else "5,1",
                             verdict=t(lang, "review.verdict.blunder"))]
    assert "super toep" in said[0] and len(said[0]) <= 200


def test_every_kind_of_decision_the_engine_can_judge_can_be_told() -> None:
    """A costly decision of any kind (a forfeit is no decision) reads as a
    sentence in both languages: a kind the review judges but cannot tell
    would fail the whole answer."""
    assert ALL_EVENTS - {FORFEIT} <= VERBS


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("chosen", "best"), [("vuile_was", "close_window"),
                                              ("close_window", "vuile_was"),
                                              ("check", "believe"), ("believe", "check")])
def test_a_vuile_was_decision_in_a_sentence(lang: str, chosen: str, best: str) -> None:
    decision = _decision(14, 3, "mistake", 0.7, {"seat": 1, "do": chosen},
                         {"seat": 1, "do": best})
    text = review_message(7, {**BODY, "decisions": [decision]}, lang)
    said = [line for line in text.split("\n") if line.startswith("- ")]
    assert said == ["- " + t(lang, "review.line", round=3, chosen=t(lang, f"review.did.{chosen}"),
                             best=t(lang, f"review.alt.{best}"),
                             lost="0.7" if lang == "en" else "0,7",
                             verdict=t(lang, "review.verdict.mistake"))]
