"""Hints suggest a legal move with a known reason and a text for it."""

from __future__ import annotations

import random
import string

from engine.bots.hints import HINT_TEXTS, hint
from engine.bots.runner import next_event
from engine.chance import RandomChance
from engine.game import Game
from engine.views import seat_view
from tests.engine.bots.helpers import bot_of, random_rules


def test_hints_are_legal_and_known() -> None:
    keys: set[str] = set()
    for g in range(25):
        rng = random.Random(g)
        players = rng.randint(2, 6)
        game = Game(random_rules(rng), [f"p{i}" for i in range(players)], RandomChance(rng))
        bots = {s: bot_of("normal", s) for s in range(players)}
        while not game.over:
            waiting = game.waiting()
            for seat in waiting.seats:
                view = seat_view(game, seat)
                h = hint(view)
                assert h.key in HINT_TEXTS
                assert h.text()
                if h.event is None:
                    assert waiting.window, "a hint may suggest silence only in a window"
                else:
                    assert h.event in view.legal
            game.apply(next_event(game, bots))
        keys.update(h.key for h in [hint(seat_view(game, 0))])
    assert "wait" in keys


def test_every_text_names_only_known_parameters() -> None:
    allowed = {"card", "keep", "stake", "old", "seat"}
    for text in HINT_TEXTS.values():
        names = {name for _, name, _, _ in string.Formatter().parse(text) if name}
        assert names <= allowed
