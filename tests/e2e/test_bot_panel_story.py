"""Every panel tells the story (issue 26): right after a toep, the panel of a
player who only waits shows the toep, the stake, the trick and the card on
the table, in the reader's language, as Discord receives it."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.i18n import lang_for_locale, t
from cogs.render import card_label
from engine import events as ev
from engine.game import Game, Phase
from tables.table import Table
from tests.e2e.toep_world import (
    World,
    open_private_table,
    open_world,
    panel_button,
    start,
    to_a_turn,
)

NAMES = ("anna", "bram", "cees")


async def _at_the_first_turn(world: World) -> tuple[Table, Game]:
    """A private table of the three, started, its opening window run out."""
    table = await open_private_table(world, guests=("bram", "cees"), clock=30)
    await start(world)
    game = table.game
    assert game is not None
    await to_a_turn(world, table)
    return table, game


@pytest.mark.parametrize("locale", ["en-US", "nl"])
async def test_a_waiting_panel_right_after_a_toep_shows_the_toep_and_the_stake(
        tmp_path: Path, locale: str) -> None:
    lang = lang_for_locale(locale)
    async with open_world(tmp_path, NAMES, locale=locale, guild_locale=locale,
                          seed=26) as world:
        table, game = await _at_the_first_turn(world)
        leader = world.name_of(table.seats[game.turn].user_id)
        assert leader is not None
        card = next(e.card for e in game.legal_events(game.turn) if e.do == ev.PLAY and e.card)
        await world.answer(leader, "play", card.text)
        toeper = world.name_of(table.seats[game.turn].user_id)
        assert toeper is not None
        panels = {n: await world.panel(n) for n in NAMES}  # open before the toep: edited
        await world.answer(toeper, "toep")
        assert game.phase is Phase.TOEP_ANSWER and game.stake == 2
        # The answers come one at a time: someone neither toeped nor is asked now.
        asked = {world.name_of(table.seats[s].user_id) for s in game.waiting().seats}
        waiter = next(n for n in NAMES if n != toeper and n not in asked)
        panel = panels[waiter]
        assert panel is not None

        toeped = t(lang, "hap.toeped", name=toeper, stake=2)
        await world.fake.wait_for(lambda: toeped in panel.text, 10.0)
        text = panel.text
        assert t(lang, "table.stake", stake=2) in text
        assert t(lang, "table.trick", number=1, total=4) in text
        on_table = t(lang, "hand.played", name=leader, card=card_label(card, lang))
        assert t(lang, "hand.on_table", cards=on_table) in text
        played = t(lang, "hap.card_played", name=leader, card=card_label(card, lang))
        assert played in text
        asked_name = next(iter(asked))
        assert t(lang, "hand.ask.wait", names=asked_name) in text  # it only waits
        assert panel_button(panel, ev.CALL) is None
        # The toeper waits for the answers too: the same story on a fresh panel.
        mine = await world.panel(toeper)
        assert mine is not None and toeped in mine.text
        assert t(lang, "table.stake", stake=2) in mine.text


async def test_the_panel_of_a_player_who_is_out_shows_no_countdown(tmp_path: Path) -> None:
    async with open_world(tmp_path, NAMES) as world:
        table, game = await _at_the_first_turn(world)
        on_turn = world.name_of(table.seats[game.turn].user_id)
        leaver = next(n for n in NAMES if n != on_turn)
        before = await world.panel(leaver)
        assert before is not None and "<t:" in before.text  # whose turn, and until when
        await world.walk_out(leaver)
        assert game.out[world.seat(leaver)] and not game.over
        await world.fake.wait_for(lambda: t("en", "hand.ask.out") in before.text, 10.0)
        assert "<t:" not in before.text  # the clock is no business of theirs any more
        still = await world.panel(next(n for n in NAMES if n not in (leaver, on_turn)))
        assert still is not None and "<t:" in still.text
