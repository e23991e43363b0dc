"""The "Open the table" button (ACTIVITY=true, issue 30): on the lobby and the
game's table message while the table is open, it launches the Activity
(callback type 12, LAUNCH_ACTIVITY); without the setting there is none."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.fake_discord.models import Message
from tests.e2e.toep_world import open_world, start

OPEN = "Open the table"


def _open_button(message: Message) -> dict[str, object] | None:
    for button in message.buttons():
        if str(button.get("custom_id", "")).startswith("toepweb:"):
            return button
    return None


async def test_the_button_launches_the_activity_from_lobby_and_game(tmp_path: Path) -> None:
    async with open_world(tmp_path, ("anna", "bram"), activity=True) as world:
        await world.slash("anna", "toep new", {"private": True})
        await world.slash("anna", "toep invite", {"member": world.people["bram"]})
        lobby = await world.wait_table_message("anna")
        await world.click_table("anna", "addbot", "easy")  # the host's menu shows too
        button = _open_button(world.table_message())
        assert button is not None and button["label"] == OPEN
        res = await world.fake.click(world.people["bram"], lobby, str(button["custom_id"]))
        assert res.ack_name == "LAUNCH_ACTIVITY" and res.activity_instance is not None
        await world.click_table("bram", "join")
        await start(world)
        await world.bot_settled()
        game_message = world.table_message()
        button = _open_button(game_message)
        assert button is not None
        res = await world.fake.click(world.people["anna"], game_message,
                                     str(button["custom_id"]))
        assert res.ack_name == "LAUNCH_ACTIVITY"
        # A made-up one of the kind changes nothing and says so.
        forged = await world.forge_click("anna", f"toepweb:{world.guild.id}:other")
        assert forged.message is not None
        assert forged.message.content == "That is not a button of this bot."


async def test_no_button_without_the_activity(tmp_path: Path) -> None:
    async with open_world(tmp_path, ("anna", "bram"), web=True) as world:
        await world.slash("anna", "toep new", {"private": True})
        assert _open_button(await world.wait_table_message("anna")) is None
