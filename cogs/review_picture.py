"""The review's picture: one player's marks round by round on a chalk slate
(the house style of cogs/slate_picture.py), a second line of the marks they
would have had with the best choices (each round's marks less what their
decisions lost, as the review weighs them), the limit, and the costly
decisions marked where they were made, the three costliest numbered as in
the text. With the same as alt text for screen readers.

Pure: the review body (cogs/review_work.py) in, a Picture out. It runs in a
review worker (cogs/review_pool.py), not on the event loop.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from itertools import accumulate, pairwise
from typing import Any

from .i18n import t
from .render_community import decimal
from .render_review import COSTLIEST, costly
from .slate_picture import (
    CHALK,
    CHALK_DIM,
    CHALK_FAINT,
    CHALK_NEW,
    CHALK_OUT,
    HEADER,
    NAME_X,
    WIDTH,
    Picture,
    _Slate,
    picture_height,
)

log = logging.getLogger(__name__)

ROWS = 4  # the picture is as high as a slate of four players
HEIGHT = picture_height(ROWS)
LEFT, RIGHT = NAME_X + 36, WIDTH - NAME_X - 8  # the plot's x range
TOP, BOTTOM = HEADER + 24, HEIGHT - 84  # its y range
DASH = 9  # pixels of a dash and of the gap after it
MAX_ALT = 1024  # Discord's limit on an attachment's description


def lines_of(body: Mapping[str, Any]) -> tuple[list[int], list[float]]:
    """The marks on the slate after each round (0 before the first), and
    the same less the marks lost by the player's decisions up to then."""
    actual = [0, *accumulate(int(m) for m in body["rounds"])]
    lost_by_round = [0.0] * len(actual)
    for d in body["decisions"]:
        r = int(d["round"])
        if 1 <= r < len(actual):
            lost_by_round[r] += float(d["marks_lost"])
    lost = list(accumulate(lost_by_round))
    return actual, [max(0.0, a - lost[i]) for i, a in enumerate(actual)]


def alt_text(game_id: int, body: Mapping[str, Any], lang: str) -> str:
    actual, best = lines_of(body)
    rounds = sorted({int(d["round"]) for d in costly(body["decisions"])})
    text = t(lang, "review.alt", id=game_id, limit=body["limit"],
             actual="; ".join(str(m) for m in actual[1:]) or "0",
             best="; ".join(decimal(m, lang) for m in best[1:]) or "0")
    more = (t(lang, "review.alt_costly", rounds=", ".join(map(str, rounds))) if rounds
            else t(lang, "review.alt_none"))
    text = f"{text} {more}"
    return text if len(text) <= MAX_ALT else text[:MAX_ALT - 1] + "…"


def review_picture(game_id: int, body: Mapping[str, Any], lang: str,
                   system_fonts: bool = True) -> Picture:
    actual, best = lines_of(body)
    limit = int(body["limit"])
    slate = _Slate(ROWS, seed=game_id, system_fonts=system_fonts)
    slate.header(t(lang, "review.pic.title", id=game_id), t(lang, "slate.limit", limit=limit))
    top_marks = max([limit, *actual, 1])
    n = max(1, len(actual) - 1)

    def x(r: float) -> float:
        return LEFT + (RIGHT - LEFT) * r / n

    def y(m: float) -> float:
        return BOTTOM - (BOTTOM - TOP) * m / top_marks

    _axes(slate, n, top_marks, limit, x, y, lang)
    _polyline(slate, [(x(r), y(m)) for r, m in enumerate(best)], CHALK_NEW, 3, dashed=True)
    _polyline(slate, [(x(r), y(m)) for r, m in enumerate(actual)], CHALK, 4)
    _costly(slate, body["decisions"], actual, x, y)
    _legend(slate, lang)
    return Picture(slate.png(), alt_text(game_id, body, lang), WIDTH, HEIGHT)


def _axes(slate: _Slate, n: int, top_marks: int, limit: int, x: Any, y: Any,
          lang: str) -> None:
    d = slate.draw
    small = slate.font(16)
    slate.chalk_line(LEFT, BOTTOM, RIGHT, BOTTOM, CHALK_FAINT, 2)
    slate.chalk_line(LEFT, TOP, LEFT, BOTTOM, CHALK_FAINT, 2)
    step = max(1, round(top_marks / 5))
    for m in range(0, top_marks + 1, step):
        d.text((LEFT - 10, y(m)), str(m), fill=CHALK_DIM, font=small, anchor="rm")
    every = max(1, round(n / 10))
    for r in range(0, n + 1, every):
        d.text((x(r), BOTTOM + 8), str(r), fill=CHALK_DIM, font=small, anchor="ma")
    d.text((RIGHT, BOTTOM + 28), t(lang, "review.pic.round"), fill=CHALK_DIM, font=small,
           anchor="ra")
    for x0 in range(int(LEFT), int(RIGHT), 14):  # the limit, dashed
        d.line(((x0, y(limit)), (x0 + 7, y(limit))), fill=CHALK_OUT, width=2)


def _polyline(slate: _Slate, points: Sequence[tuple[float, float]],
              colour: tuple[int, int, int], width: int, dashed: bool = False) -> None:
    for a, b in pairwise(points):
        if not dashed:
            slate.chalk_line(a[0], a[1], b[0], b[1], colour, width)
            continue
        pieces = max(1, round(math.dist(a, b) / DASH))
        for k in range(0, pieces, 2):  # every other piece: a dash
            f0, f1 = k / pieces, min(1.0, (k + 1) / pieces)
            slate.draw.line(((a[0] + (b[0] - a[0]) * f0, a[1] + (b[1] - a[1]) * f0),
                             (a[0] + (b[0] - a[0]) * f1, a[1] + (b[1] - a[1]) * f1)),
                            fill=colour, width=width)


def _costly(slate: _Slate, decisions: Sequence[Mapping[str, Any]], actual: Sequence[int],
            x: Any, y: Any) -> None:
    d = slate.draw
    label = slate.font(16, True)
    for rank, decision in reversed(list(enumerate(costly(decisions)))):
        r = int(decision["round"])
        if not 1 <= r < len(actual):
            continue
        cx, cy = x(r - 0.5), y((actual[r - 1] + actual[r]) / 2)  # during round r
        radius = 11 if rank < COSTLIEST else 6
        d.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=CHALK_OUT,
                  outline=CHALK, width=2)
        if rank < COSTLIEST:
            d.text((cx, cy), str(rank + 1), fill=(46, 58, 54), font=label, anchor="mm")


def _legend(slate: _Slate, lang: str) -> None:
    d = slate.draw
    small = slate.font(17)
    y0 = HEIGHT - 40
    x0 = NAME_X
    for text, colour, dot in ((t(lang, "review.pic.actual"), CHALK, False),
                              (t(lang, "review.pic.best"), CHALK_NEW, False),
                              (t(lang, "review.pic.costly"), CHALK_OUT, True)):
        if dot:
            d.ellipse((x0, y0 - 7, x0 + 14, y0 + 7), fill=colour)
        else:
            slate.chalk_line(x0, y0, x0 + 30, y0, colour, 4)
        x0 += 40 if not dot else 22
        d.text((x0, y0), text, fill=CHALK_DIM, font=small, anchor="lm")
        x0 += int(d.textlength(text, font=small)) + 30
