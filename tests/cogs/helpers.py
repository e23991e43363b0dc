"""Random games at random moments, as snapshots the renderers take."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import discord

from engine import events as ev
from engine.cards import Card
from engine.chance import RandomChance
from engine.events import Happening
from engine.game import Game
from engine.rules import TableRules
from engine.state import Phase
from engine.views import public_view
from tables.snapshot import Clock, SeatInfo, Status, TableSnapshot, stamp_of

NOW = datetime(2025, 5, 1, 12, 0, tzinfo=UTC)
TABLE_ID = 1234567890123456789


@dataclass
class Moment:
    game: Game
    snap: TableSnapshot


def seats_for(n: int, bots: int = 0) -> tuple[SeatInfo, ...]:
    return tuple(SeatInfo(i, None if i < bots else 1000 + i,
                          "normal" if i < bots else None, f"P{i}") for i in range(n))


def snapshot(game: Game, recent: tuple[Happening, ...], rng: random.Random,
             status: Status = Status.PLAYING) -> TableSnapshot:
    public = public_view(game)
    clock = None
    if public.waiting:
        deadline = None if rng.random() < 0.2 else NOW + timedelta(seconds=20)
        clock = Clock(public.waiting, deadline, public.window)
    passed: frozenset[int] = frozenset()
    if public.phase is Phase.WINDOW:
        passed = frozenset(s for s in public.waiting if rng.random() < 0.3)
    return TableSnapshot(
        table_id=TABLE_ID, guild_id=1, channel_id=2, host_id=1000, public=True,
        rules=game.rules, status=Status.FINISHED if public.over else status,
        seats=seats_for(game.n, bots=rng.randrange(game.n)), invited=frozenset(),
        view=public, clock=clock, passed=passed, recent=recent[-10:],
        stamp=stamp_of(public.event_count))


def random_moments(seed: int, every: float = 0.25, max_events: int = 400) -> Iterator[Moment]:
    """Moments of one random game of 2-8 players with random options."""
    rng = random.Random(seed)
    n = rng.randint(2, 8)
    rules = TableRules(max_players=8, limit=rng.choice([5, 8, 15]),
                       max_stake=rng.choice([None, 3]), seven_counts=rng.random() < 0.5,
                       redeal_after=rng.randint(2, 5), rounds=rng.choice([None, None, 6]))
    game = Game(rules, [f"P{i}" for i in range(n)], RandomChance(rng))
    recent: tuple[Happening, ...] = game.opening
    for _ in range(max_events):
        if rng.random() < every:
            yield Moment(game, snapshot(game, recent, rng))
        if game.over:
            yield Moment(game, snapshot(game, recent, rng))
            return
        event = _pick(game, rng)
        recent = (recent + game.apply(event))[-10:]


def _pick(game: Game, rng: random.Random) -> ev.Event:
    if rng.random() < 0.005:
        return ev.act(ev.FORFEIT, rng.choice(game.alive()))
    legal = game.legal_events()
    # Windows close more often than not, so games move on.
    if game.phase is Phase.WINDOW and rng.random() < 0.7:
        return ev.act(ev.CLOSE_WINDOW)
    return rng.choice(legal)


def hidden_cards(game: Game) -> set[Card]:
    """Cards in hands that are not open to everyone."""
    open_seats = {s for s in range(game.n) if game.open_hand[s]}
    return {c for s, hand in enumerate(game.hands) if s not in open_seats for c in hand}


def texts_of(content: str | None, embed: discord.Embed | None,
             view: discord.ui.View | None) -> str:
    """Everything a reader of the message can see, as one string."""
    parts = [content or ""]
    if embed is not None:
        parts.append(json.dumps(embed.to_dict(), ensure_ascii=False))
    if view is not None:
        for item in view.children:
            if isinstance(item, discord.ui.Button):
                parts.append(item.label or "")
    return "\n".join(parts)
