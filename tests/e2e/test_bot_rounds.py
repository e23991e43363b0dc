"""Rounds that ask something else: the dead man's round choice (R13) and the
super toep question (R15), reached by playing through Discord. The seeds were
found offline by playing the same scripted people through the engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.i18n import t
from engine import events as ev
from engine.chance import SeededChance
from engine.game import Game, Phase
from engine.rules import TableRules
from engine.state import DEAD_MAN, NORMAL, SUPER_TOEP
from tests.e2e.toep_world import (
    Policy,
    World,
    careful,
    ladder,
    open_private_table,
    open_world,
    simulate,
)
from tests.e2e.toep_world import start as start_game

# Two people at limit 5 who toep up to 4: after round 1 bram (seat 1) is on the
# edge (4 marks), so round 2 is his dead man's round and anna chooses.
DEAD_SEED, DEAD_POLICY = 1, ladder(4)
# Three people at limit 5 who toep up to 2: cara (seat 2) goes out first.
SUPER_SEED, SUPER_POLICY = 11, ladder(2)


def _reaches(seed: int, players: int, policy: Policy, phase: Phase) -> Game | None:
    game = Game(TableRules(limit=5), ["anna", "bram", "cara"][:players], SeededChance(seed))
    steps = simulate(game, policy, lambda g: g.phase is phase)
    return None if steps is None else game


def test_the_seeds_still_lead_where_the_tests_need() -> None:
    dead = _reaches(DEAD_SEED, 2, DEAD_POLICY, Phase.DEAD_MAN_CHOICE)
    assert dead is not None and dead.dead_men == (1,) and dead.marks == [0, 4]
    two_left = _reaches(SUPER_SEED, 3, SUPER_POLICY, Phase.SUPER_QUESTION)
    assert two_left is not None and two_left.out == [False, False, True]


async def _play_until(world: World, policy: Policy, phase: Phase) -> Game:
    table = world.table()
    await world.drive(policy, lambda tb: tb.game is not None and tb.game.phase is phase)
    assert table.game is not None
    return table.game


@pytest.mark.parametrize("choice", [ev.PLAY_IN, ev.SIT_OUT])
async def test_a_dead_mans_round_choice(tmp_path: Path, choice: str) -> None:
    async with open_world(tmp_path, seed=DEAD_SEED) as world:
        await open_private_table(world, guests=("bram",), limit=5)
        await start_game(world)
        game = await _play_until(world, DEAD_POLICY, Phase.DEAD_MAN_CHOICE)
        assert game.kind == DEAD_MAN and game.dead_men == (1,) and game.marks == [0, 4]
        assert game.stake == 2 and game.waiting().seats == (0,)

        # The dead man has no choice; anna has, on her panel.
        bram = await world.panel("bram")
        assert bram is None or not {ev.PLAY_IN, ev.SIT_OUT} & _verbs(bram)
        anna = await world.panel("anna")
        assert anna is not None and {ev.PLAY_IN, ev.SIT_OUT} <= _verbs(anna)
        dead = t("en", "hand.ask.dead_man_choice", dead="bram")
        assert dead in anna.text
        await world.answer("anna", choice, panel=anna)

        if choice == ev.SIT_OUT:
            # R13: she takes one mark; the lone dead man wins his round at once.
            assert game.marks == [1, 4] and game.round_no == 3 and game.kind == NORMAL
            assert game.rounds[-1].winner == 1
            await world.wait_table_message("anna sits out.")
        else:
            # She plays: the vuile was moment opens, nobody may toep, the dead man leads.
            assert game.phase is Phase.WINDOW and game.kind == DEAD_MAN
            await _play_until(world, careful, Phase.PLAY)  # no vuile was (genuine only)
            assert game.kind == DEAD_MAN and game.turn == 1
            bram = await world.panel("bram")
            assert bram is not None and ev.TOEP not in _verbs(bram) and ev.PLAY in _verbs(bram)
            await world.wait_table_message("anna plays in.")


async def test_the_super_toep_question(tmp_path: Path) -> None:
    async with open_world(tmp_path, ("anna", "bram", "cara"), seed=SUPER_SEED) as world:
        await open_private_table(world, guests=("bram", "cara"), limit=5)
        await start_game(world)
        game = await _play_until(world, SUPER_POLICY, Phase.SUPER_QUESTION)
        assert game.out == [False, False, True] and game.waiting().seats == (0, 1)

        # Cara is out and not asked; the two left are, in a window.
        cara = await world.panel("cara")
        assert cara is None or not {ev.SUPER_YES, ev.SUPER_NO} & _verbs(cara)
        bram = await world.panel("bram")
        assert bram is not None and {ev.SUPER_YES, ev.SUPER_NO} <= _verbs(bram)
        assert t("en", "hand.ask.super_question") in bram.text
        await world.answer("bram", ev.SUPER_YES, panel=bram)
        assert game.phase is Phase.SUPER_QUESTION and game.waiting().seats == (0,)
        await world.answer("anna", ev.SUPER_YES)

        # Both said yes: one round of eight cards decides the game.
        assert game.kind == SUPER_TOEP and game.phase is Phase.WINDOW
        anna = await world.panel("anna")
        assert anna is not None
        assert len([b for b in anna.buttons() if _verb_of(b) == ev.PLAY]) == 8
        await world.wait_table_message("Super toep! One round of eight tricks decides the game.")


def _verb_of(button: dict[str, object]) -> str | None:
    from cogs.ids import ForgedId, decode

    try:
        return decode(str(button.get("custom_id", ""))).verb
    except ForgedId:
        return None


def _verbs(panel: object) -> set[str]:
    from tests.e2e.fake_discord.models import Message

    assert isinstance(panel, Message)
    return {v for b in panel.buttons() if not b.get("disabled") and (v := _verb_of(b))}
