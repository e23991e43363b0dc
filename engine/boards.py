"""Boards for duplicate play ("Toep van de dag"): one round fixed completely.

A board is derived from a seed (any text; the day's secret seed) and its
number: the seat the person sits in, who leads, the deal, the order of every
redeal's deck and of every reshuffle of the discards. Everything chance
brings at the board comes from the board's own seed through `SeededChance`,
one generator per outcome and its place (deal number, kind, count), so the
same outcome meets everyone who reaches the same moment, however they got
there. The board's seed is a hash of the day's seed, so a board (or its
record) tells nothing of the day's seed or of the other boards.

    python -m engine.boards --seed S --count N [--json] [--commitment SHA256]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from engine.chance import SeededChance
from engine.day_seed import commitment, matches
from engine.game import Game
from engine.rules import TableRules

# Every board is one normal round of four players from a clean slate (no
# marks, no folds, stake 1); V6 ends the game with that round.
SEATS = 4
BOARD_RULES = TableRules(rounds=1)
FORMAT = "toep-board/1"
# The redeals printed with a board (a redeal takes five vuile was calls in a
# row, V8); any further one is the same function of the board's seed.
REDEALS_SHOWN = 3
MAX_COUNT = 100


@dataclass(frozen=True)
class Board:
    """Board `index` (0, 1, ...) of a day: its own seed, the seat the person
    takes and the seat that leads the first trick."""

    index: int
    seed: int
    seat: int
    leader: int

    def chance(self) -> SeededChance:
        return SeededChance(self.seed)

    def new_game(self, players: Sequence[str]) -> Game:
        """The board's game before its first event: the deal is made."""
        return Game(BOARD_RULES, players, self.chance(), self.leader)

    def deck(self, deal: int) -> dict[str, object]:
        """Deal `deal` (0 the first, 1... the redeals) as every seat gets it
        when all four are in the round: the hands, then the stock, next card first."""
        hands, stock = self.chance().deal(deal, [True] * SEATS, 4)
        return {"hands": [[c.text for c in h or []] for h in hands],
                "stock": [c.text for c in stock]}

    def to_json(self) -> dict[str, object]:
        return {"format": FORMAT, "board": self.index + 1, "seed": self.seed,
                "seat": self.seat, "leader": self.leader, "rules": BOARD_RULES.to_json(),
                "deal": self.deck(0),
                "redeals": [self.deck(d) for d in range(1, REDEALS_SHOWN + 1)]}


def board(seed: str, index: int) -> Board:
    """Board `index` of `seed`: its seed is a SHA-256 of the two, so boards
    of one day are independent and none reveals the day's seed."""
    digest = hashlib.sha256(f"{FORMAT}:{seed}:{index}".encode()).digest()
    own = int.from_bytes(digest[:8], "big") >> 1  # 63 bits: a signed BIGINT holds it
    seat = random.Random(f"{own}:seat").randrange(SEATS)
    return Board(index, own, seat, SeededChance(own).first_leader(SEATS))


def boards(seed: str, count: int) -> list[Board]:
    return [board(seed, i) for i in range(count)]


def _text(b: Board) -> str:
    deal = b.deck(0)
    hands = deal["hands"]
    assert isinstance(hands, list)
    lines = [f"Board {b.index + 1} (seed {b.seed}): you sit at seat {b.seat}, "
             f"seat {b.leader} leads"]
    for seat, hand in enumerate(hands):
        who = " (you)" if seat == b.seat else ""
        lines.append(f"  seat {seat}{who}: {' '.join(hand)}")
    stock = deal["stock"]
    assert isinstance(stock, list)
    lines.append(f"  stock: {' '.join(stock)}")
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine.boards",
        description="Print the duplicate boards of a seed (docs/rules.md, 'Duplicate').")
    parser.add_argument("--seed", required=True, help="the day's seed, as published")
    parser.add_argument("--count", type=int, default=8, help=f"boards, 1-{MAX_COUNT} (8)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--commitment", help="the SHA-256 shown when the day opened: "
                        "refuse the seed unless it matches")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if not 1 <= args.count <= MAX_COUNT:
        print(f"--count must be 1-{MAX_COUNT}, got {args.count}", file=sys.stderr)
        return 2
    if args.commitment is not None and not matches(args.seed, args.commitment):
        print(f"the seed does not match the commitment: its SHA-256 is "
              f"{commitment(args.seed)}", file=sys.stderr)
        return 2
    made = boards(args.seed, args.count)
    if args.json:
        print(json.dumps({"seed": args.seed, "commitment": commitment(args.seed),
                          "boards": [b.to_json() for b in made]}))
    else:
        print(f"seed {args.seed}, SHA-256 {commitment(args.seed)}")
        print("\n".join(_text(b) for b in made))
    return 0


if __name__ == "__main__":
    sys.exit(main())
