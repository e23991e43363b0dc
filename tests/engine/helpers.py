"""Build games from fixed deals and play them with short step strings.

A step is `"SEAT do [CARD]"`, `"SEAT CARD"` for a play, or `"close"` for
close_window: `run(game, "close", "0 7C", "1 toep", "2 fold")`.
"""

from __future__ import annotations

import random
from typing import Any

from engine import events as ev
from engine.cards import DECK, Card, parse_card
from engine.chance import RecordChance
from engine.events import Event, Happening
from engine.game import Game
from engine.rules import TableRules


def cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def deal(*hands: str | None, stock: str | None = None, leader: int | None = None,
         reshuffles: list[str] | None = None) -> dict[str, Any]:
    """A deal entry: the hands as given (None for a seat dealt nothing), the
    stock as given or else every other card in deck order."""
    used = {c.text for h in hands if h for c in cards(h)}
    stock_cards = ([c.text for c in cards(stock)] if stock is not None
                   else [c.text for c in DECK if c.text not in used])
    out: dict[str, Any] = {
        "hands": [None if h is None else [c.text for c in cards(h)] for h in hands],
        "stock": stock_cards,
    }
    if leader is not None:
        out["leader"] = leader
    if reshuffles is not None:
        out["reshuffles"] = [[c.text for c in cards(r)] for r in reshuffles]
    return out


def new_game(*deals: dict[str, Any], players: int | None = None, first_leader: int = 0,
             seed: int = 1, **options: Any) -> Game:
    n = players if players is not None else len(deals[0]["hands"])
    rules = TableRules.from_json(options) if options else TableRules()
    if n > rules.max_players:
        rules = rules.changed(max_players=n)
    chance = RecordChance(list(deals), random.Random(seed))
    return Game(rules, [f"p{i}" for i in range(n)], chance, first_leader)


def event(step: str) -> Event:
    parts = step.split()
    if parts == ["close"]:
        return ev.act(ev.CLOSE_WINDOW)
    seat = int(parts[0])
    if len(parts) == 2 and parts[1] not in ev.ALL_EVENTS:
        return ev.play(seat, parse_card(parts[1]))
    if parts[1] == ev.PLAY:
        return ev.play(seat, parse_card(parts[2]))
    return ev.act(parts[1], seat)


def run(game: Game, *steps: str) -> list[Happening]:
    """Apply the steps in order; return every happening."""
    out: list[Happening] = []
    for step in steps:
        out.extend(game.apply(event(step)))
    return out


def of_type(happenings: list[Happening], kind: type) -> list[Any]:
    return [h for h in happenings if isinstance(h, kind)]
