"""Shared helpers of the computer-player tests: random tables and twin deals."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine import events as ev
from engine.bots.base import Bot
from engine.bots.hard import HardBot
from engine.bots.normal import NormalBot
from engine.cards import DECK, Card
from engine.chance import RecordChance
from engine.events import Event
from engine.game import Game
from engine.rules import NextLeader, TableRules, TwoLeft

TEST_SAMPLES = 4  # the hard player's budget in tests: fast, same code paths


def bot_of(level: str, seed: int) -> Bot:
    """A player of `level`; the hard one on a small budget."""
    if level == "hard":
        return HardBot(seed, samples=TEST_SAMPLES)
    if level == "normal":
        return NormalBot(seed)
    from engine.bots import make_bot
    return make_bot(level, seed)


def random_rules(rng: random.Random) -> TableRules:
    """Any table options, with a low limit so games stay short."""
    return TableRules(
        limit=rng.randint(5, 9),
        max_stake=rng.choice([None, None, 2, 3, 5]),
        folded_card_wins=rng.random() < 0.7,
        no_toep_past_limit=rng.random() < 0.3,
        next_leader=rng.choice(list(NextLeader)),
        rounds=rng.choice([None, None, None, 3, 8]),
        seven_counts=rng.random() < 0.3,
        redeal_after=rng.randint(2, 5),
        dead_man=rng.random() < 0.8,
        small_players=rng.choice([None, 1, 2, 2, 3]),
        two_left=rng.choice(list(TwoLeft)),
        max_players=8,
    )


def deal_entry(hands: Sequence[Sequence[Card]], stock: Sequence[Card]) -> dict[str, object]:
    return {"hands": [[c.text for c in h] for h in hands], "stock": [c.text for c in stock]}


def twin_deals(seed: int, players: int, keep: dict[int, list[Card]],
               ) -> tuple[dict[str, object], dict[str, object]]:
    """Two deals in which seat 0 holds the same hand and every other seat holds
    the cards of `keep` (cards it will play); all else is dealt differently."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    mine = [c for c in deck if all(c not in k for k in keep.values())][:4]
    entries = []
    for _ in range(2):
        rest = [c for c in deck if c not in mine and all(c not in k for k in keep.values())]
        rng.shuffle(rest)
        hands: list[list[Card]] = [mine]
        for s in range(1, players):
            kept = list(keep.get(s, []))
            need = 4 - len(kept)
            hands.append(kept + rest[:need])
            del rest[:need]
        entries.append(deal_entry(hands, rest))
    return entries[0], entries[1]


def twin_games(seed: int, players: int, leader: int, keep: dict[int, list[Card]],
               script: Sequence[Event]) -> tuple[Game, Game]:
    """Both twin deals brought through the same public events."""
    a, b = twin_deals(seed, players, keep)
    games = []
    for entry in (a, b):
        game = Game(TableRules(), [f"p{i}" for i in range(players)],
                    RecordChance([entry], random.Random(seed)), first_leader=leader)
        for event in script:
            game.apply(event)
        games.append(game)
    return games[0], games[1]


CLOSE = ev.act(ev.CLOSE_WINDOW)
