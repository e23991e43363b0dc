"""The review as text, for a person at a terminal: per seat a summary line,
then each decision that was not `ok`."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence

from engine import events as ev
from engine.events import Event
from engine.review_judge import Judgement

log = logging.getLogger(__name__)

_PLURAL = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


def choice_text(event: Event) -> str:
    if event.do == ev.CLOSE_WINDOW:
        return "pass"  # the seat said nothing in the vuile was moment
    return event.card.text if event.card is not None else event.do


def decision_line(j: Judgement) -> str:
    error = "exact" if j.exact else f"+- {j.se:.2f}"
    return (f"  event {j.index}, round {j.round}: {choice_text(j.chosen)} "
            f"({j.marks[j.chosen]:.2f} marks); best {choice_text(j.best)} "
            f"({j.marks[j.best]:.2f}); lost {j.lost:.2f} {error}: {j.verdict}")


def review_text(judged: Sequence[Judgement]) -> str:
    lines = []
    for seat in sorted({j.seat for j in judged}):
        mine = [j for j in judged if j.seat == seat]
        counts = Counter(j.verdict for j in mine)
        verdicts = ", ".join(f"{counts[name]} {_PLURAL[name]}" for name in _PLURAL)
        lost = sum(j.lost for j in mine)
        lines.append(f"seat {seat}: {len(mine)} decisions, {counts['ok']} ok, {verdicts}; "
                     f"{lost:.1f} marks lost in all")
        lines.extend(decision_line(j) for j in mine if j.verdict != "ok")
    return "\n".join(lines) if lines else "no decisions to review"
