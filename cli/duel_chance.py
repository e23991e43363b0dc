"""The duel's whole games draw their cards by (round, deal in the round).

`RoundChance` seeds every outcome by the game's seed, the round number and
the deal within the round (a believed or genuine vuile was brings a new deal),
never by how many deals came before. Two games with the same seed, one with
seat 0 as A and one with seat 0 as B, therefore get the same cards in round r
as long as both reach it, however differently their earlier rounds went (one
player redealing on every vuile was call, say): the paired comparison of
`--compare` over whole games keeps its luck of the cards apart.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import Card
from engine.chance import Hands, RandomChance
from engine.game import Game


class RoundChance:
    """Set `game` to the game this chance serves before the game deals
    (the game's constructor draws only the first leader)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.game: Game | None = None

    def _rng(self, *where: object) -> RandomChance:
        # The game's round counter moves before it deals; its deal counter after.
        game = self.game
        at = (0, 0) if game is None else (game.round_no, game.deal_in_round)
        return RandomChance(random.Random(":".join(map(str, (self.seed, *at, *where)))))

    def first_leader(self, seats: int) -> int:
        return RandomChance(random.Random(f"{self.seed}:first")).first_leader(seats)

    def deal(self, index: int, dealt: Sequence[bool], hand_size: int) -> tuple[Hands, list[Card]]:
        return self._rng("deal").deal(index, dealt, hand_size)

    def leader(self, index: int, candidates: Sequence[int]) -> int:
        return self._rng("leader").leader(index, candidates)

    def reshuffle(self, index: int, count: int, cards: Sequence[Card]) -> list[Card]:
        return self._rng("reshuffle", count).reshuffle(index, count, cards)
