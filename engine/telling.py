"""The most telling board of a day, and where its best score parted ways.

At a board the computers answer the same history the same way, so two
players' games are equal up to the first choice of their own that differs.
The telling board is the one whose best score stands furthest above the
middle of the field; what the best did differently is the first of their
choices that most of those still on the same path made otherwise.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from engine.events import Event

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class Parting:
    """At event `index` the best chose `best`; `usual` was the choice of
    `usual_count` of the `alike` others who had played the same way until then."""

    index: int
    best: Event | None  # None: the best's game had ended there
    usual: Event | None
    usual_count: int
    alike: int


def telling_board(scores: Sequence[Mapping[K, float]]) -> int | None:
    """The index of the board whose best score lies furthest above its
    median; None if no board has two players."""
    best_gap, best_index = 0.0, None
    for index, board in enumerate(scores):
        if len(board) < 2:
            continue
        ranked = sorted(board.values())
        gap = ranked[-1] - ranked[len(ranked) // 2]
        if best_index is None or gap > best_gap:
            best_gap, best_index = gap, index
    return best_index


def parting(best: Sequence[Event], others: Sequence[Sequence[Event]]) -> Parting | None:
    """Where `best` left the path most of the others on it took; None if
    every other game followed it to the end."""
    alike = list(others)
    for index in range(len(best) + 1):
        alike = [o for o in alike if o[:index] == best[:index]]
        if not alike:
            return None
        here = best[index] if index < len(best) else None
        choices = Counter(o[index] if index < len(o) else None for o in alike)
        usual, count = choices.most_common(1)[0]
        if usual != here and count * 2 > len(alike):
            return Parting(index, here, usual, count, len(alike))
    return None
