"""The data layer's game record is a valid toep-replay/1 record, also after
the discard pile was shuffled under the stock (its chance rows folded in)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from data.chance_log import ChanceLog
from data.db import Database
from data.gamelog import append_events_and_deals
from data.games import Seat, create_game, load_game, start_game
from engine import events as ev
from engine.chance import SeededChance
from engine.events import Event, Reshuffled
from engine.game import Game
from engine.rules import TableRules
from tests.data.helpers import CHANNEL, GUILD, NOW

ROOT = Path(__file__).resolve().parents[2]
SEATS = 6


def _choose(game: Game, rng: random.Random) -> Event:
    """A legal event, calling and believing vuile was wherever possible so
    that six hands soon empty the stock and the discards are reshuffled."""
    options = [e for seat in range(SEATS) for e in game.legal_events(seat)]
    options += list(game.legal_events(None))
    for wanted in (ev.VUILE_WAS, ev.BELIEVE):
        liked = [e for e in options if e.do == wanted]
        if liked:
            return liked[0]
    return rng.choice(options)


async def _play_and_save(db: Database, rules: TableRules, seed: int) -> tuple[int, Game, int]:
    """A game played at random and saved as a live table saves it: each event
    with the chance rows it brought. Returns the id, the game and the reshuffles."""
    players = [f"p{i}" for i in range(SEATS)]
    row = await create_game(db, guild_id=GUILD, channel_id=CHANNEL, host_id=1, public=False,
                            rules=rules.to_json(), seed=seed, now=NOW,
                            seats=[Seat(0, players[0], user_id=1)])
    seats = [Seat(i, name, user_id=i + 1) for i, name in enumerate(players)]
    await start_game(db, row.id, seats=seats, first_leader=0, now=NOW)
    game = Game(rules, players, SeededChance(seed), 0)
    chance, rng = ChanceLog(), random.Random(seed)
    rows_saved = reshuffles = 0
    for events_saved in range(400):
        if game.over:
            break
        happenings = game.apply(_choose(game, rng))
        reshuffles += sum(isinstance(h, Reshuffled) for h in happenings)
        rows = chance.new_rows(game)
        await append_events_and_deals(db, row.id, events_saved, [game.events[-1].to_json()],
                                      rows_saved, rows)
        rows_saved += len(rows)
    return row.id, game, reshuffles


async def test_a_six_player_game_that_reshuffles_replays_from_its_record(
        db: Database, tmp_path: Path) -> None:
    rules = TableRules().changed(redeal_after=5)
    game_id, game, reshuffles = await _play_and_save(db, rules, seed=11)
    assert reshuffles >= 1  # the case this test is about

    record = (await load_game(db, game_id)).record()
    assert any("reshuffles" in deal for deal in record["deals"])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    done = subprocess.run([sys.executable, "-m", "engine.replay", str(path)], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["marks"] == list(game.marks)
    assert out["round"] == game.round_number
