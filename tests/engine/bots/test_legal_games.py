"""Every level plays complete games at any table and never breaks a rule."""

from __future__ import annotations

import random

import pytest

from engine.bots.base import Bot
from engine.chance import RandomChance
from engine.game import Game
from engine.silence import everyone_silent
from engine.views import public_view, seat_view
from tests.engine.bots.helpers import bot_of, random_rules

GAMES = {"easy": 200, "normal": 200, "hard": 80}


def _play(game: Game, bots: dict[int, Bot]) -> int:
    """Drive the game like the runner, checking every answer."""
    events = 0
    while not game.over:
        waiting = game.waiting()
        public = public_view(game)
        chosen = None
        for seat in waiting.seats:
            view = seat_view(game, seat, public)
            event = bots[seat].decide(view)
            if event is None:
                assert waiting.window, f"{bots[seat].level} kept silent on its turn"
                continue
            assert event.seat == seat
            game.verify(event)
            assert event in view.legal
            chosen = event
            break
        if chosen is None:
            chosen = everyone_silent(game)
        game.apply(chosen)
        events += 1
        assert events < 20_000
    return events


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_level_plays_legal_complete_games(level: str) -> None:
    for g in range(GAMES[level]):
        rng = random.Random(g)
        rules = random_rules(rng)
        players = rng.randint(2, 8)
        game = Game(rules, [f"p{i}" for i in range(players)], RandomChance(rng))
        _play(game, {s: bot_of(level, g * 10 + s) for s in range(players)})
        assert game.over


def test_mixed_tables_play_legal_complete_games() -> None:
    levels = ["random", "easy", "normal", "hard"]
    for g in range(40):
        rng = random.Random(1000 + g)
        players = rng.randint(2, 8)
        game = Game(random_rules(rng), [f"p{i}" for i in range(players)], RandomChance(rng))
        _play(game, {s: bot_of(rng.choice(levels), g + s) for s in range(players)})
        assert game.over
