"""Chance outcomes as append-only log rows, and back.

A deal is written when it is dealt; a reshuffle of the discards comes later in
the same deal, so it is written as a row of its own rather than by editing the
deal's row. Folding the rows gives the `deals` of a toep-replay/1 record.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.game import Game


class ChanceLog:
    """Which chance outcomes of a game are already written."""

    def __init__(self, deals: int = 0, reshuffles: int = 0) -> None:
        self.deals = deals
        self.reshuffles = reshuffles  # of the last written deal

    @classmethod
    def of(cls, game: Game) -> ChanceLog:
        last = game.deal_log[-1] if game.deal_log else None
        return cls(len(game.deal_log), len(last.reshuffles) if last else 0)

    def new_rows(self, game: Game) -> list[dict[str, Any]]:
        """The rows for every outcome since the last call, in order."""
        rows: list[dict[str, Any]] = []
        log = game.deal_log
        if self.deals and self.deals <= len(log):
            last = log[self.deals - 1]
            for cards in last.reshuffles[self.reshuffles:]:
                rows.append({"deal": self.deals - 1, "reshuffle": [c.text for c in cards]})
        for index in range(self.deals, len(log)):
            entry = log[index]
            row: dict[str, Any] = {"deal": index, **entry.to_json()}
            row.pop("reshuffles", None)  # written as rows of their own, below
            rows.append(row)
            rows.extend({"deal": index, "reshuffle": [c.text for c in cards]}
                        for cards in entry.reshuffles)
        self.deals = len(log)
        self.reshuffles = len(log[-1].reshuffles) if log else 0
        return rows


def fold(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The record's `deals` from the log rows."""
    deals: list[dict[str, Any]] = []
    for row in rows:
        if "reshuffle" in row:
            deals[row["deal"]].setdefault("reshuffles", []).append(list(row["reshuffle"]))
        else:
            deals.append({k: v for k, v in row.items() if k != "deal"})
    return deals
