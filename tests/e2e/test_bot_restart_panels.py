"""Hand panels survive a restart (issue 25, item 8): their interaction tokens
are saved with their expiry, so a panel opened before the bot was restarted
is still refreshed after it, until its token lapses; a lapsed one is dropped
and its saved row deleted. On each backend (`db_target`, tests/conftest.py)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from data import panels
from engine.game import Phase
from tables.table import TableConfig
from tests.e2e.fake_discord.models import Message
from tests.e2e.toep_world import World, open_private_table, open_world, start

QUIET = TableConfig(bot_pause=0, idle_timeout=timedelta(hours=1))


def _can_play(panel: Message) -> bool:
    return any(":play:" in str(b.get("custom_id")) and not b.get("disabled")
               for b in panel.buttons())


async def _panels_in_play(world: World) -> tuple[int, str, str]:
    """anna and bram playing, each with their panel open; (table id, the
    person on turn, the other)."""
    table = await open_private_table(world, guests=("bram",), clock=30)
    await start(world)
    game = table.game
    assert game is not None
    await world.fake_clock.advance(table.rules.window)  # the opening window closes
    assert game.phase is Phase.PLAY
    turn = world.name_of(table.seats[game.turn].user_id)
    assert turn is not None
    other = "bram" if turn == "anna" else "anna"
    await world.bot_settled()
    return table.id, turn, other


async def test_a_panel_opened_before_a_restart_is_refreshed_after_it(
        tmp_path: Path, db_target: str | Path) -> None:
    url = db_target if isinstance(db_target, str) else None
    async with open_world(tmp_path, database_url=url, config=QUIET) as world:
        table_id, turn, other = await _panels_in_play(world)
        waiting = await world.panel(other)  # nothing to do until `turn` plays
        assert waiting is not None
        assert not _can_play(waiting)
        await world.bot_settled()
        assert world.bot is not None
        await world.bot.presenter.hand.flush()
        rows = await panels.take_back(world.bot.db, world.fake_clock.now())
        assert [(r.game_id, r.user_id) for r in rows] == [(table_id, world.people[other].id)]

        await world.stop()
        before = len(waiting.edits)
        await world.start()
        # Taken back, the panel is refreshed with the table as it is now...
        await world.fake.wait_for(lambda: len(waiting.edits) > before, 10.0)
        # ... and goes on following the game: `turn` plays, and it is `other`'s turn.
        table = world.table()
        game = table.game
        assert game is not None
        card = next(e.card for e in game.legal_events(game.turn) if e.card)
        await world.answer(turn, "play", card.text)
        await world.fake.wait_for(lambda: _can_play(waiting), 10.0)

        # Once the game ends, its saved panels are gone.
        await world.slash("anna", "toep-admin end")
        await world.bot_settled()
        await world.bot.presenter.hand.flush()
        assert await panels.take_back(world.bot.db, world.fake_clock.now()) == []


async def test_a_panel_whose_token_lapsed_during_a_restart_is_dropped(
        tmp_path: Path) -> None:
    async with open_world(tmp_path, config=QUIET) as world:
        table_id, _, other = await _panels_in_play(world)
        panel = await world.panel(other)
        assert panel is not None
        await world.bot_settled()
        await world.stop()
        edits = len(panel.edits)
        await world.fake_clock.advance(16 * 60)  # the bot is down for 16 minutes
        await world.start()
        await world.bot_settled()
        assert world.bot is not None
        assert (table_id, world.people[other].id) not in world.bot.presenter.panels
        assert len(panel.edits) == edits  # not edited: its token lapsed
        assert await panels.take_back(world.bot.db, world.fake_clock.now()) == []
