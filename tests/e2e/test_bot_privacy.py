"""No hidden card ever appears in a channel message or in a log line at INFO
(docs/design.md, "What each player sees"): a whole game of two people who call
vuile was, check and toep, and two computer players, watched at every step."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from cogs.render_text import card_label
from engine import events as ev
from engine.cards import DECK, Card
from engine.game import Game, Phase
from tables.snapshot import Status
from tests.e2e.toep_world import Choice, Policy, World, careful, open_private_table, open_world
from tests.e2e.toep_world import start as start_game

# Every way a card is written: "10H", "10♥" (English), "B♠" (Dutch).
CARD_WORDS = sorted({w for c in DECK for w in (c.text, card_label(c, "en"), card_label(c, "nl"))},
                    key=len, reverse=True)
CARD_RE = re.compile(r"(?<![\w♣♦♥♠])(?:" + "|".join(map(re.escape, CARD_WORDS)) + r")(?!\w)")


def bold() -> Policy:
    """Calls vuile was once a round, checks every call, toeps up to 3."""
    called: set[tuple[int, int]] = set()

    def policy(game: Game, seat: int) -> Choice | None:
        legal = {e.do for e in game.legal_events(seat)}
        if game.phase is Phase.WINDOW and ev.VUILE_WAS in legal and (
                game.round_no, seat) not in called:
            called.add((game.round_no, seat))
            return (ev.VUILE_WAS, None)
        if game.phase is Phase.CHECK:
            return (ev.CHECK, None)
        if game.phase is Phase.PLAY and ev.TOEP in legal and game.stake < 3:
            return (ev.TOEP, None)
        return careful(game, seat)

    return policy


class Watch:
    """Looks at the channel after every step of the game."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.revealed: set[Card] = set()  # shown to everyone at some moment
        self.looks = 0
        self.seen_open = False
        self.seen_laid = False

    def __call__(self) -> None:
        game = self.world.table().game
        if game is None:
            return
        self.revealed.update(e.card for e in game.events if e.card is not None)
        for seat in range(game.n):
            if game.open_hand[seat]:
                self.revealed.update(game.hands[seat])
                self.seen_open = True
        hidden = {c for seat in range(game.n) if not game.open_hand[seat]
                  for c in game.hands[seat]}
        laid = {c for down in game.laid_down for c in down.cards}
        self.seen_laid |= bool(laid)
        secret = (hidden | laid) - self.revealed
        for message in self.world.fake.channel_messages(self.world.channel):
            shown = {c for c in secret
                     if card_label(c, "en") in message.text or c.text in message.text}
            assert not shown, f"hidden cards {shown} in a channel message:\n{message.text}"
        self.looks += 1


async def test_no_hidden_card_in_the_channel_or_the_log(tmp_path: Path,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    async with open_world(tmp_path, seed=5) as world:
        table = await open_private_table(world, guests=("bram",), bots=("normal", "easy"),
                                         limit=8)
        await start_game(world)
        watch = Watch(world)
        # A forged click that names a card anna holds: refused, and not logged.
        game = table.game
        assert game is not None
        res = await world.forge_click("anna", f"toep:{table.id}:play:{game.hands[0][0].text}")
        assert res.acknowledged
        await world.drive(bold(), lambda tb: not tb.open, limit=1500, after=watch)
        assert table.status is Status.FINISHED
        assert watch.looks > 50 and watch.seen_laid and watch.seen_open
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    assert any("forged" in line for line in lines)
    leaks = [line for line in lines if CARD_RE.search(line)]
    assert leaks == []
