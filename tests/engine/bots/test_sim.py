"""The hard player's round simulator agrees with the engine."""

from __future__ import annotations

import random

from engine import events as ev
from engine.bots.cardints import ints
from engine.bots.knowledge import sim_from_view
from engine.bots.search import solve
from engine.bots.sim import ANSWERING, OVER, PLAYING, RoundSim
from engine.chance import RandomChance
from engine.events import Event
from engine.game import Game, Phase
from engine.views import seat_view
from tests.engine.bots.helpers import random_rules


def _apply_to_sim(sim: RoundSim, event: Event) -> None:
    if event.do == ev.PLAY:
        assert event.card is not None
        sim.play(event.card.index)
    elif event.do == ev.TOEP:
        sim.toep()
    else:
        sim.answer(event.do == ev.CALL)


def _check_same_moment(game: Game, sim: RoundSim) -> None:
    if game.phase is Phase.PLAY:
        assert sim.phase == PLAYING and sim.turn == game.turn
        assert sorted(sim.hands[game.turn]) == sorted(ints(game.hands[game.turn]))
        toep = ev.act(ev.TOEP, game.turn) in game.legal_events(game.turn)
        assert sim.can_toep(game.turn) == toep
    elif game.phase is Phase.TOEP_ANSWER:
        assert sim.phase == ANSWERING and sim.answer_seat == game.toep_turn


def test_simulator_agrees_with_the_engine_on_random_rounds() -> None:
    checked = 0
    for g in range(400):
        rng = random.Random(g)
        players = rng.randint(2, 8)
        game = Game(random_rules(rng), [f"p{i}" for i in range(players)], RandomChance(rng))
        # Skip the window, and start the comparison at a random moment of the play.
        while game.phase not in (Phase.PLAY, Phase.TOEP_ANSWER) and not game.over:
            legal = game.legal_events()
            game.apply(ev.act(ev.CLOSE_WINDOW) if game.phase is Phase.WINDOW
                       else rng.choice(legal))
        if game.over:
            continue
        for _ in range(rng.randrange(6)):
            if game.phase not in (Phase.PLAY, Phase.TOEP_ANSWER):
                break
            game.apply(rng.choice(game.legal_events()))
        if game.phase not in (Phase.PLAY, Phase.TOEP_ANSWER):
            continue
        seat = game.waiting().seats[0]
        round_no = game.round_no
        before = list(game.round_marks)
        sim = sim_from_view(seat_view(game, seat), {s: ints(h) for s, h in enumerate(game.hands)})
        while game.round_no == round_no and not game.over:
            _check_same_moment(game, sim)
            event = rng.choice(game.legal_events())
            game.apply(event)
            _apply_to_sim(sim, event)
        assert sim.phase == OVER
        summary = game.rounds[-1]
        assert summary.winner == (None if sim.winner < 0 else sim.winner)
        assert summary.jack_finish == sim.jack
        assert summary.stake == sim.stake
        assert [m - b for m, b in zip(summary.marks, before, strict=True)] == sim.taken
        checked += 1
    assert checked > 300


def test_solver_wins_a_sure_last_trick() -> None:
    from engine.rules import TableRules
    # Seat 0 leads 10C in the last trick: nobody can beat it.
    sim = RoundSim.fresh(TableRules(), [[7], [6], [5]], 0)  # 10C, 9C, 8C
    end = solve(sim)
    assert end.winner == 0 and end.taken == [0, 1, 1]
