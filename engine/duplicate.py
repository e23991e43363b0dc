"""Duplicate scoring: matchpoints per board, the day's ranking, the par.

On each board a player gets a matchpoint for every other player who played
that board and scored less, half for every tie, as a percentage of the
others (50% when nobody else played it). The day ranks its players by the
average of their boards' percentages. A guild with few players also sees
each score against the board's par: the same board played by four hard
computer players over many runs, compared the same way.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


def percentage(score: float, others: Sequence[float]) -> float:
    """Matchpoints of `score` against the sorted `others`, as a percentage."""
    if not others:
        return 50.0
    below = bisect_left(others, score)
    ties = bisect_right(others, score) - below
    return 100.0 * (below + ties / 2) / len(others)


def matchpoints(scores: Mapping[K, float]) -> dict[K, float]:
    """Each player's matchpoints on one board against everyone else on it."""
    ranked = sorted(scores.values())
    out: dict[K, float] = {}
    for who, score in scores.items():
        below = bisect_left(ranked, score)
        ties = bisect_right(ranked, score) - below - 1  # not against oneself
        others = len(ranked) - 1
        out[who] = 50.0 if others == 0 else 100.0 * (below + ties / 2) / others
    return out


@dataclass(frozen=True)
class Ranked:
    place: int  # shared by equal averages: 1, 2, 2, 4
    who: Hashable
    average: float
    boards: tuple[float, ...]


def ranking(scores: Mapping[K, Sequence[float]]) -> list[Ranked]:
    """The day's ranking from every player's scores, board by board (all
    players the same number of boards): best average first."""
    if not scores:
        return []
    count = {len(s) for s in scores.values()}
    if len(count) != 1:
        raise ValueError("every player of a day's ranking plays the same boards")
    per_board = [matchpoints({who: s[i] for who, s in scores.items()})
                 for i in range(count.pop())]
    rows = [(who, tuple(b[who] for b in per_board)) for who in scores]
    averaged = sorted(((sum(mp) / len(mp) if mp else 50.0, who, mp) for who, mp in rows),
                      key=lambda row: -row[0])
    out: list[Ranked] = []
    for i, (avg, who, mp) in enumerate(averaged):
        place = out[-1].place if out and abs(out[-1].average - avg) < 1e-9 else i + 1
        out.append(Ranked(place, who, avg, mp))
    return out


def against_par(score: float, par: Sequence[float]) -> float:
    """A score's matchpoints against the par runs of its board."""
    return percentage(score, sorted(par))
