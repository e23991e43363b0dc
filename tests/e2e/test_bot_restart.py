"""A restart of the bot in the middle of a round (docs/design.md): the bot is
closed and built again on the same database and the same fake Discord. The
old table message's buttons still work, and the game goes on. On each backend:
an SQLite file, and PostgreSQL through DATABASE_URL (`db_target`, tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

from engine.game import Phase
from tests.e2e.toep_world import careful, open_private_table, open_world, panel_button, start


async def test_a_restart_in_the_middle_of_a_round(tmp_path: Path, db_target: str | Path) -> None:
    url = db_target if isinstance(db_target, str) else None
    async with open_world(tmp_path, database_url=url) as world:
        table = await open_private_table(world, guests=("bram",), bots=("easy",))
        await start(world)
        game = table.game
        assert game is not None
        # Into the first trick: the window closes, someone plays a card.
        await world.drive(careful, lambda tb: tb.game is not None and len(tb.game.table) >= 1
                          and tb.game.phase is Phase.PLAY and not tb.seats[tb.game.turn].is_bot)
        assert game.phase is Phase.PLAY
        await table.settled()  # a computer's move in the goal above is saved and told
        message = world.table_message()
        turn = world.name_of(table.seats[game.turn].user_id)
        assert turn is not None
        old_panel = await world.panel(turn)  # opened before the restart
        assert old_panel is not None
        events, seats, hands = len(game.events), game.waiting().seats, list(game.hands)
        first_bot = world.bot

        await world.stop()
        await world.start()
        assert world.bot is not first_bot
        restored = world.table()
        assert restored is not table and restored.id == table.id
        again = restored.game
        assert again is not None
        # The game was replayed from its log: the same moment, the same cards.
        assert len(again.events) == events and again.waiting().seats == seats
        assert again.hands == hands and restored.deadline is not None  # a fresh clock

        # The old panel's card buttons still work: the decision is the same one.
        card = next(e.card for e in again.legal_events(again.turn) if e.card)
        custom_id = panel_button(old_panel, "play", card.text)
        assert custom_id is not None
        await world.click(turn, old_panel, custom_id)
        assert len(again.events) >= events + 1 and again.events[events].card == card

        # The old table message is still the table message, edited, its buttons live.
        assert world.table_message().id == message.id
        await world.wait_table_message(f"{turn} plays {_label(card.text)}.")
        await world.drive(careful, lambda tb: tb.game is not None
                          and len(tb.game.events) >= events + 6)  # the game goes on
        assert world.table_message().id == message.id
        tables = [m for m in world.fake.channel_messages(world.channel) if m.buttons()]
        assert [m.id for m in tables] == [message.id]


def _label(text: str) -> str:
    from cogs.render_text import card_label
    from engine.cards import parse_card

    return card_label(parse_card(text), "en")
