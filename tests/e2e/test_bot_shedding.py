"""Past capacity (the load gauge forced to its highest level): a whole game
through the fake Discord still answers every click in time and shows its final
state; what is shed (turn pings, round pictures, frequent table edits, idle
panels) is really left out, and comes back when the load falls."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest

from cogs import presenter as presenter_module
from cogs.presenter import IDLE_PANEL_GAP
from engine.game import Phase
from tables.load import EDIT_INTERVAL, Level, shedding
from tables.snapshot import Status
from tests.e2e.toep_world import careful, open_private_table, open_world, panel_button, start


def _counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[Any]:
    """Calls of the presenter's picture function `name`, counted (and still made)."""
    calls: list[Any] = []
    real: Callable[..., Any] = getattr(presenter_module, name)

    def counted(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(presenter_module, name, counted)
    return calls


def _posts(world: Any) -> int:
    """New messages the bot posted in the table's channel (the table message, pings)."""
    path = f"/channels/{world.channel.id}/messages"
    return sum(1 for _, method, p, status in world.fake.store.requests
               if method == "POST" and p.endswith(path) and status < 300)


async def test_a_game_past_capacity_answers_every_click_and_shows_how_it_ended(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rounds = _counting(monkeypatch, "round_picture")
    standings = _counting(monkeypatch, "standings_picture")
    async with open_world(tmp_path) as world:
        assert world.bot is not None
        world.bot.load.force(Level.SATURATED)
        # A turn clock: at normal load each turn of a person is pinged.
        table = await open_private_table(world, guests=("bram",), bots=("normal", "normal"),
                                         rounds=2, clock=30)
        posted = _posts(world)
        await start(world)
        people = {world.seat("anna"), world.seat("bram")}
        await world.drive(careful, lambda t: t.game is not None and t.game.phase is Phase.PLAY
                          and set(t.game.waiting().seats) <= people)
        await world.bot_settled()  # shown while a person is on turn: no ping
        await world.drive(careful, lambda t: t.game is not None and len(t.game.rounds) == 1)
        await world.bot_settled()  # the table after the first round is shown
        await world.play_to_the_end()
        assert table.status is Status.FINISHED
        # The final state shows, however long the gaps between edits grew.
        message = await world.wait_table_message("wins the game!", timeout=15.0)
        assert any(a.filename == "slates.png" for a in message.attachments)
        await world.bot_settled()
        # No turn pings: nothing new was posted while the game was played.
        assert _posts(world) == posted
        # Every click was acknowledged in time: open_world checks that at the end.
    # No picture after the first round; the final standings are drawn.
    assert rounds == []
    assert len(standings) == 1


async def test_the_table_message_waits_longer_between_edits_past_capacity(
        tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        assert world.bot is not None
        table = await open_private_table(world, guests=("bram",))
        presenter = world.bot.presenter
        lane = presenter.shown[table.id].message_lane
        for level in Level:
            world.bot.load.force(level)
            assert lane.interval() == shedding(level).edit_interval
            assert level is Level.NORMAL or lane.interval() > EDIT_INTERVAL
        assert presenter.shown[table.id].panel_lane.interval() == shedding(Level.NORMAL
                                                                           ).edit_interval
        world.bot.load.force(None)


@pytest.mark.parametrize("until", ["the load falls", "a while passed"])
async def test_idle_panels_wait_past_capacity_and_follow_later(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, until: str) -> None:
    async with open_world(tmp_path) as world:
        bot = world.bot
        assert bot is not None
        # Three seats: anna, bram and a computer.
        table = await open_private_table(world, guests=("bram",), bots=("normal",))
        await start(world)
        bram = world.seat("bram")
        anna = world.seat("anna")
        computer = ({0, 1, 2} - {anna, bram}).pop()

        def computer_next(t: Any) -> bool:
            # Whoever led, the computer plays after bram in this trick: anna,
            # still in the round with a hand to show, has nothing to decide
            # once bram's card is down.
            game = t.game
            return (game is not None and game.phase is Phase.PLAY
                    and list(game.waiting().seats) == [bram] and game.in_round[anna]
                    and game.in_round[computer] and not game.played[computer])

        await world.drive(careful, computer_next)
        anna_panel, bram_panel = await world.panel("anna"), await world.panel("bram")
        assert anna_panel is not None and bram_panel is not None
        # The computer thinks until told: nothing else changes at the table.
        gate = asyncio.Event()
        decide = table.driver._decide

        async def gated(*args: Any) -> Any:
            await gate.wait()
            return await decide(*args)

        monkeypatch.setattr(table.driver, "_decide", gated)
        bot.load.force(Level.STRAINED)
        anna_edits, bram_edits = len(anna_panel.edits), len(bram_panel.edits)
        assert await world.act("bram", bram_panel)
        await world.settle()
        await bot.presenter.settled()
        # bram sees his own card played; anna, with nothing to do, is not refreshed.
        assert len(bram_panel.edits) > bram_edits
        assert len(anna_panel.edits) == anna_edits
        # Her panel is brought up to date without waiting for a move.
        if until == "the load falls":
            bot.load.force(None)
        else:
            await world.fake_clock.advance(IDLE_PANEL_GAP.total_seconds())
        await world.fake.wait_for(lambda: len(anna_panel.edits) > anna_edits, 10.0)
        gate.set()
        bot.load.force(None)
        await world.bot_settled()


async def test_past_capacity_my_hand_is_answered_at_once_and_the_panel_follows(
        tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        assert world.bot is not None
        await open_private_table(world, guests=("bram",), bots=("normal",))
        await start(world)
        await world.bot_settled()
        world.bot.load.force(Level.STRAINED)
        table_message = world.table_message()
        hand = panel_button(table_message, "hand")
        assert hand is not None
        res = await world.click("anna", table_message, hand)
        # The answer is "thinking", ephemeral: nothing drawn within the 3 seconds.
        assert res.ack_name == "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE"
        await world.bot_settled()
        panel = res.message
        assert panel is not None and panel.ephemeral
        assert panel.embeds and panel.buttons()  # the hand panel replaced it
        # Within capacity the panel is the answer itself.
        world.bot.load.force(None)
        res = await world.click("bram", table_message, hand)
        assert res.ack_name == "CHANNEL_MESSAGE_WITH_SOURCE"
        assert res.message is not None and res.message.buttons()


def _gate_panels(world: Any, monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Hand panels are not edited until the returned event is set."""
    presenter = world.bot.presenter
    go = asyncio.Event()
    refresh = presenter._refresh_panels

    async def gated(shown: Any) -> None:
        await go.wait()
        await refresh(shown)

    monkeypatch.setattr(presenter, "_refresh_panels", gated)
    return go


def _past_capacity_hand(world: Any) -> tuple[Any, str]:
    """The load forced past capacity; the table message and its "My hand" button."""
    world.bot.load.force(Level.STRAINED)
    table_message = world.table_message()
    hand = panel_button(table_message, "hand")
    assert hand is not None
    return table_message, hand


async def _deleted(message: Any) -> bool:
    """Whether `message` is deleted, within a moment (the deletion is a request)."""
    for _ in range(100):
        if message is not None and message.deleted:
            return True
        await asyncio.sleep(0.02)
    return False


async def _playing_with_a_computer(world: Any) -> None:
    """Anna's private table with one computer player, its game started and shown."""
    assert world.bot is not None
    await open_private_table(world, bots=("normal",))
    await start(world)
    await world.bot_settled()


async def test_a_second_my_hand_past_capacity_leaves_no_answer_thinking(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_world(tmp_path) as world:
        await _playing_with_a_computer(world)
        # The panels wait until both clicks are answered: the first "thinking"
        # answer is still one when the second click comes.
        both_answered = _gate_panels(world, monkeypatch)
        try:
            table_message, hand = _past_capacity_hand(world)
            first = await world.click("anna", table_message, hand)
            second = await world.click("anna", table_message, hand)
            assert first.ack_name == second.ack_name == "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE"
        finally:
            both_answered.set()
        await world.bot_settled()
        # The first answer is gone, not "thinking" for good; the second is the panel.
        assert await _deleted(first.message)
        panel = second.message
        assert panel is not None and not panel.deleted and panel.embeds and panel.buttons()


async def test_a_panel_whose_edit_fails_after_a_newer_one_came_keeps_the_newer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_world(tmp_path) as world:
        await _playing_with_a_computer(world)
        assert world.bot is not None
        presenter = world.bot.presenter
        go = _gate_panels(world, monkeypatch)
        editing, newer_in = asyncio.Event(), asyncio.Event()
        try:
            table_message, hand = _past_capacity_hand(world)
            first = await world.click("anna", table_message, hand)
            key = next(k for k, p in presenter.panels.items() if p.interaction.id == first.id)
            real_edit = discord.Interaction.edit_original_response

            async def late_edit(self: discord.Interaction, **kwargs: Any) -> Any:
                if self.id == first.id:  # the old panel's edit, held until a newer one came
                    editing.set()
                    await newer_in.wait()
                return await real_edit(self, **kwargs)  # its message is gone by now: 404

            monkeypatch.setattr(discord.Interaction, "edit_original_response", late_edit)
            go.set()
            await asyncio.wait_for(editing.wait(), timeout=10)
            second = await world.click("anna", table_message, hand)
            assert await _deleted(first.message)
        finally:
            go.set()
            newer_in.set()
        await world.bot_settled()
        # The old panel's failed edit did not drop the newer one: it follows the game.
        assert presenter.panels[key].interaction.id == second.id
        panel = second.message
        assert panel is not None and panel.embeds and panel.buttons()
