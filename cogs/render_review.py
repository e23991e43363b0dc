"""A review as the player reads it (/toep review): the accuracy of the game,
the costliest decisions in one plain sentence each, and the progress line
while it is worked out. Pure: the review body (cogs/review_work.py) and a
language in, text out.

Accuracy is the share of the player's judged decisions whose verdict is
`ok`: a choice that lost less than a fifth of a mark against the best one,
or no more than the estimate's own noise (docs/review.md, "Verdicts").
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import parse_card

from .i18n import t
from .render_community import decimal
from .render_text import MAX_CONTENT, card_label, clip, marks_text

log = logging.getLogger(__name__)

COSTLIEST = 3  # decisions shown in words
VERDICTS = ("inaccuracy", "mistake", "blunder")
# Every kind engine/review_moments.py judges ("close_window": a vuile was not
# called, judged where the window closed).
VERBS = frozenset({"play", "toep", "call", "fold", "play_in", "sit_out", "super_yes", "super_no",
                   "vuile_was", "close_window", "check", "believe"})


def costly(decisions: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The decisions that were not ok, costliest first: blunders, then
    mistakes, then inaccuracies, each by the marks lost (ties: earliest
    first). The verdict goes first since it is the loss clear of its error:
    a large loss with a large error is no surer than a smaller one."""
    bad = [d for d in decisions if d["verdict"] in VERDICTS]
    return sorted(bad, key=lambda d: (-VERDICTS.index(d["verdict"]), -float(d["marks_lost"]),
                                      int(d["event"])))


def accuracy(decisions: Sequence[Mapping[str, Any]]) -> float | None:
    """The share of judged decisions that were ok; None for none judged."""
    if not decisions:
        return None
    return sum(1 for d in decisions if d["verdict"] == "ok") / len(decisions)


def _choice(choice: Mapping[str, Any], form: str, stake: int, lang: str) -> str:
    """"called the toep for 3" (`form` "did") or "folding, taking 2 marks" ("alt"):
    a toep answered is played for the stake, folded for one less."""
    do = str(choice["do"])
    if do not in VERBS:  # engine/review_moments.py judges no other kind
        raise ValueError(f"a review of a {do!r} decision")
    card = choice.get("card")
    label = card_label(parse_card(str(card)), lang) if do == "play" and card else ""
    return t(lang, f"review.{form}.{do}", card=label, stake=stake, next=stake + 1,
             marks=marks_text(stake - 1, lang))


def decision_line(decision: Mapping[str, Any], lang: str) -> str:
    """"Round 7: you called the toep for 3; folding, taking 2 marks, was
    about 0.6 marks better on average: a mistake." Marks as the review weighs them: near the limit,
    going out counts for more (docs/review.md), so the loss is told, not
    each choice's own figure, which may be below zero."""
    stake = int(decision["stake"])
    return t(lang, "review.line", round=decision["round"],
             chosen=_choice(decision["chosen"], "did", stake, lang),
             best=_choice(decision["best"], "alt", stake, lang),
             lost=decimal(float(decision["marks_lost"]), lang),
             verdict=t(lang, f"review.verdict.{decision['verdict']}"))


def review_message(game_id: int, body: Mapping[str, Any], lang: str) -> str:
    decisions = body["decisions"]
    lines = [f"**{t(lang, 'review.title', id=game_id)}**"]
    share = accuracy(decisions)
    if share is None:
        lines.append(t(lang, "review.no_decisions"))
    else:
        lost = sum(float(d["marks_lost"]) for d in decisions)
        ok = sum(1 for d in decisions if d["verdict"] == "ok")
        lines.append(t(lang, "review.accuracy", percent=round(share * 100), ok=ok,
                       count=len(decisions), lost=decimal(lost, lang)))
        worst = costly(decisions)[:COSTLIEST]
        if worst:
            lines.append(t(lang, "review.costliest"))
            lines.extend(f"- {decision_line(d, lang)}" for d in worst)
        else:
            lines.append(t(lang, "review.none_costly"))
    lines.append(f"-# {t(lang, 'review.how')}")
    return clip("\n".join(lines), MAX_CONTENT)


def progress_line(game_id: int, done: int, total: int, lang: str) -> str:
    if total <= 0:
        return t(lang, "review.queued", id=game_id)
    return t(lang, "review.progress", id=game_id, done=min(done + 1, total), total=total)
