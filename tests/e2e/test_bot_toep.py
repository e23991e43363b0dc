"""A toep through Discord: answered with a call, then with a fold (R8, R9)."""

from __future__ import annotations

from pathlib import Path

from engine.game import Phase
from tests.e2e.toep_world import open_private_table, open_world, start


async def test_a_toep_answered_with_call_and_with_fold(tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        table = await open_private_table(world, guests=("bram",))
        await start(world)
        game = table.game
        assert game is not None
        await world.answer("anna", "pass")
        await world.answer("bram", "pass")
        assert game.phase is Phase.PLAY
        first = world.name_of(table.seats[game.turn].user_id)
        assert first is not None
        other = "bram" if first == "anna" else "anna"

        await world.answer(first, "toep")
        assert game.phase is Phase.TOEP_ANSWER and game.stake == 2
        panel = await world.panel(first)  # the toeper waits: no card to play yet
        assert panel is not None and not [b for b in panel.buttons() if not b.get("disabled")]
        asked = await world.panel(other)  # call or fold, on the other's panel
        assert asked is not None and f"{first} knocked: the stake is now 2." in asked.text
        await world.answer(other, "call", panel=asked)
        assert game.phase is Phase.PLAY and game.stake == 2
        assert game.turn == world.seat(first)  # the toeper plays when all have answered
        message = await world.wait_table_message(f"{other} calls.")
        assert f"{first} knocks (toep): the stake is now 2." in message.text

        card = next(e.card for e in game.legal_events(game.turn) if e.card)
        await world.answer(first, "play", card.text)
        assert game.turn == world.seat(other)
        await world.answer(other, "toep")  # the other may toep: not the last toeper
        assert game.stake == 3
        await world.answer(first, "fold")
        # R9: the folder takes the stake from before this toep; alone, the other wins
        assert game.marks[world.seat(first)] == 2 and game.marks[world.seat(other)] == 0
        assert game.round_no == 2 and game.phase is Phase.WINDOW
        message = await world.wait_table_message(f"{other} wins round 1.")
        assert f"{first} takes 2 marks for folding (2 in all)." in message.text
        # Issue 6: the slates after the round, as a PNG on the table message,
        # with the same information as its alt text.
        picture = await world.fake.wait_for(
            lambda: next((a for a in world.table_message().attachments
                          if a.filename == "slates.png"), None), 10.0)
        assert picture.data.startswith(b"\x89PNG") and 2_000 < len(picture.data) < 200_000
        assert first in (picture.description or "") and "2" in (picture.description or "")
