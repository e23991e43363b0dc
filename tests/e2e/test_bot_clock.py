"""Clocks through Discord on a fake clock (R16, R17): a window that runs out
forfeits nobody; a turn that runs out forfeits the game."""

from __future__ import annotations

from pathlib import Path

from cogs.i18n import t
from engine.game import Phase
from tables.snapshot import Status
from tests.e2e.fake_discord.models import Message
from tests.e2e.toep_world import open_private_table, open_world, start


async def test_a_turn_that_times_out_forfeits(tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        table = await open_private_table(world, guests=("bram",), clock=10)
        await start(world)
        game = table.game
        assert game is not None and table.deadline is not None
        clock = world.fake_clock

        # The vuile was window runs out: silence, nobody forfeits (R17).
        await clock.advance(table.rules.window - 1)
        assert game.phase is Phase.WINDOW
        await clock.advance(1)
        assert game.phase is Phase.PLAY and not any(game.forfeited)

        late = world.name_of(table.seats[game.turn].user_id)
        assert late is not None
        other = "bram" if late == "anna" else "anna"
        mention = world.people[late].mention

        # Nobody looked at a panel: three seconds into the 10 s turn, whose
        # turn it is gets a short new message that pings them.
        def pinged() -> Message | None:
            found = [m for m in world.fake.channel_messages(world.channel)
                     if m.content.startswith(f"{mention},") and not m.buttons()]
            return found[-1] if found else None

        await world.bot_settled()
        assert pinged() is None  # not at once: they may be on it already
        await clock.advance(3)
        ping = await world.fake.wait_for(pinged)
        # ... with a link to the table message
        link = f"/channels/{world.guild.id}/{world.channel.id}/{world.table_message().id}"
        assert ping.text.startswith(t("en", "ping.turn", mention=mention, link=""))
        assert ping.text.endswith(link) and "https://" in ping.text
        assert ping.notified == {str(world.people[late].id)}
        message = await world.wait_table_message(f"{late} is to play")
        assert "<t:" in message.text  # a live Discord countdown

        # Four seconds before the clock runs out: the last call, in place of the ping.
        await world.bot_settled()
        await clock.advance(3)
        last = await world.fake.wait_for(lambda: next(
            (m for m in [pinged()] if m is not None and m.id != ping.id), None))
        assert last.text.startswith(f"{mention}, your time runs out <t:") and link in last.text
        assert last.notified == {str(world.people[late].id)}
        await world.fake.wait_for(lambda: ping.deleted)

        await clock.advance(3)
        assert game.phase is Phase.PLAY and not any(game.forfeited)
        await clock.advance(1)  # the turn's 10 seconds are up (R16)
        assert game.forfeited[world.seat(late)] and game.winner == world.seat(other)
        assert table.status is Status.FINISHED
        await world.wait_table_message(f"{late} forfeits the game.")
        await world.wait_table_message(f"{other} wins the game!")
        await world.fake.wait_for(lambda: last.deleted)  # the ping goes when the turn ends
