"""Clicks the table must shrug off (issue 5): by someone not seated, twice in
a row, from a finished game, forged, from a moment that has passed. Each gets
an ephemeral answer in time and changes nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

from cogs.i18n import t
from engine.game import Phase
from tables.snapshot import Status
from tables.table import Table
from tests.e2e.toep_world import (
    World,
    open_private_table,
    open_world,
    panel_button,
    reply,
    start,
)


def _state(table: Table) -> tuple[object, ...]:
    game = table.game
    events = len(game.events) if game else 0
    return (table.status, events, table.stamp, frozenset(table.passed),
            tuple(s.user_id for s in table.seats))


async def _game_of_two(world: World) -> Table:
    table = await open_private_table(world, guests=("bram",))
    await start(world)
    return table


async def test_clicks_by_someone_not_seated_change_nothing(tmp_path: Path) -> None:
    async with open_world(tmp_path, ("anna", "bram", "cara")) as world:
        table = await open_private_table(world, guests=("bram",))
        before = _state(table)
        # In the lobby of a private table: cara may not join, start or cancel.
        assert reply(await world.click_table("cara", "join")) == t("en", "click.invited_only")
        host_only = t("en", "click.host_only", action=t("en", "click.action_default"))
        assert reply(await world.click_table("cara", "start")) == host_only
        assert reply(await world.click_table("cara", "cancel")) == host_only
        assert reply(await world.click_table("cara", "leave")) == t("en", "click.not_seated")
        assert _state(table) == before

        await start(world)
        before = _state(table)
        # In the game: no hand panel for cara, and a game button with the right
        # stamp (she could copy it from someone's screen) is refused too.
        res = await world.click_table("cara", "hand")
        assert reply(res) == t("en", "click.not_seated") and res.ack_delay is not None
        res = await world.forge_click("cara", f"toep:{table.id}:pass:{table.stamp}")
        assert reply(res) == t("en", "click.not_seated")
        res = await world.slash("cara", "toep hand")
        assert reply(res) == t("en", "click.not_seated")
        assert _state(table) == before


async def test_forged_custom_ids_are_answered_and_change_nothing(tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        table = await _game_of_two(world)
        before = _state(table)
        forged = {
            "toep:999:play:XX:1": "click.forged",  # no such card
            "toep:abc": "click.forged",
            f"toep:{table.id}:dance": "click.forged",
            f"toep:{table.id}:play:10H": "click.forged",  # no stamp
            f"toep:{table.id}:pass:{table.stamp}:extra": "click.forged",
            "toep:" + "9" * 30 + ":hand": "click.forged",
            f"toep:{table.id}:pass:zz{table.stamp}": "click.stale",  # well formed, old
            f"toep:{table.id}:join": "click.already_started",
            "toep:999:pass:1": "click.unknown_table",
            "toep:999:hand": "click.unknown_table",
            "poker:1:call": "click.forged",  # no button of ours at all
            "": "click.forged",
            "TOEP:1:hand": "click.forged",
        }
        for custom_id, key in forged.items():
            res = await world.forge_click("anna", custom_id)
            assert res.acknowledged and res.ack_delay is not None and res.ack_delay < 3
            assert reply(res) == t("en", key), custom_id
            assert _state(table) == before, custom_id


async def test_a_double_click_acts_once(tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        table = await _game_of_two(world)
        game = table.game
        assert game is not None
        await world.answer("anna", "pass")
        await world.answer("bram", "pass")
        assert game.phase is Phase.PLAY
        who = world.name_of(table.seats[game.turn].user_id)
        assert who is not None
        panel = await world.panel(who)
        assert panel is not None
        card = next(e.card for e in game.legal_events(game.turn) if e.card)
        custom_id = panel_button(panel, "play", card.text)
        assert custom_id is not None
        events = len(game.events)
        user = world.people[who]
        first, second = await asyncio.gather(world.fake.click(user, panel, custom_id),
                                             world.fake.click(user, panel, custom_id))
        await world.settle()
        assert len(game.events) == events + 1  # one card played, once
        assert game.events[-1].card == card
        answers = [m for res in (first, second) for m in res.followups]
        assert [m.text for m in answers] == [t("en", "click.stale")]
        assert all(m.ephemeral for m in answers)
        assert not [r for r in world.fake.rejections if r.code == 40060]

        # "My hand" twice at once: two panels, nothing else.
        hand = world.table_message()
        custom = await world.fake.wait_for(lambda: panel_button(hand, "hand"))
        both = await asyncio.gather(world.fake.click(user, hand, custom),
                                    world.fake.click(user, hand, custom))
        await world.settle()
        assert all(res.ephemeral and res.message is not None for res in both)
        assert len(game.events) == events + 1


async def test_a_button_of_a_passed_moment(tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        table = await _game_of_two(world)
        game = table.game
        assert game is not None
        old = await world.panel("anna")  # the vuile was moment: pass or call
        assert old is not None and panel_button(old, "pass") is not None
        await world.answer("anna", "pass")
        await world.answer("bram", "pass")
        assert game.phase is Phase.PLAY
        before = _state(table)
        for verb in ("pass", "vuile_was"):
            custom_id = panel_button(old, verb)
            if custom_id is None:
                continue
            res = await world.click("anna", old, custom_id)
            assert reply(res) == t("en", "click.stale")
            assert _state(table) == before


async def test_a_stale_button_of_a_finished_game(tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        table = await _game_of_two(world)
        old = await world.panel("anna")
        assert old is not None
        await world.panel("anna")  # a newer panel: the old one is no longer refreshed
        question = await world.walk_out("bram")  # walking out forfeits (R16)
        await world.fake.wait_for(lambda: question.text == t("en", "reply.walked_out"))
        assert table.status is Status.FINISHED
        game = table.game
        assert game is not None and game.winner == 0 and game.forfeited == [False, True]
        message = await world.wait_table_message("anna wins the game!")
        # a finished table shows no game buttons, only "play again" and "review"
        assert [b["label"] for b in message.buttons()] == [t("en", "btn.again"),
                                                           t("en", "btn.review")]
        before = _state(table)
        custom_id = panel_button(old, "pass")
        assert custom_id is not None
        res = await world.click("anna", old, custom_id)
        assert reply(res) == t("en", "click.finished")
        res = await world.forge_click("anna", f"toep:{table.id}:hand", message)
        assert reply(res) == t("en", "click.finished")
        res = await world.slash("anna", "toep hand")
        assert reply(res) == t("en", "click.no_table")
        assert _state(table) == before
