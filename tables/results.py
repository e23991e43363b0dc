"""A finished game's places and per-seat stats, worked out from its record.

Places: the winner first; then those who went out, the later the better (the
same moment: fewer marks first; equal marks share a place); forfeits last,
the first to leave last of all.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from data.places import shared_places
from data.stats import StatsDelta
from engine import events as ev
from engine.chance import RecordChance
from engine.game import Game
from engine.record import load_record, parse_event


@dataclass
class _Tally:
    rounds: int = 0
    rounds_won: int = 0
    marks: int = 0
    toeps: int = 0
    toeps_won: int = 0
    folds: int = 0
    vuile_was: int = 0
    vuile_was_caught: int = 0
    checks: int = 0
    checks_right: int = 0
    dead_man_rounds: int = 0
    dead_man_survived: int = 0
    out_at: int | None = None  # index of the event that put this seat out


@dataclass
class _Round:
    toeps: list[int] = field(default_factory=list)
    dead: tuple[int, ...] = ()


@dataclass(frozen=True)
class Results:
    places: tuple[int, ...]
    marks: tuple[int, ...]
    forfeited: tuple[bool, ...]
    forfeit_order: tuple[int | None, ...]
    stats: tuple[StatsDelta, ...]
    winner: int | None


def results(record: dict[str, Any]) -> Results:
    rec = load_record(record)
    game = Game(rec.rules, rec.players, RecordChance(rec.deals, random.Random(rec.seed)),
                rec.first_leader)
    tallies = [_Tally() for _ in range(game.n)]
    state = _Round()
    _follow(game, game.opening, tallies, state, 0)
    for index, raw in enumerate(rec.events):
        happenings = game.apply(parse_event(raw, game.n))
        _follow(game, happenings, tallies, state, index)
    return Results(_places(game, tallies), tuple(game.marks), tuple(game.forfeited),
                   _forfeit_order(game), _stats(game, tallies), game.winner)


def _follow(game: Game, happenings: tuple[ev.Happening, ...], tallies: list[_Tally],
            state: _Round, index: int) -> None:
    checkers: tuple[int, ...] = ()
    for h in happenings:
        if isinstance(h, ev.RoundStarted):
            state.toeps, state.dead = [], ()
            for s in game.alive():
                tallies[s].rounds += 1
        elif isinstance(h, ev.DeadMansRound):
            state.dead = h.dead
            for s in h.dead:
                tallies[s].dead_man_rounds += 1
        elif isinstance(h, ev.Toeped):
            tallies[h.seat].toeps += 1
            state.toeps.append(h.seat)
        elif isinstance(h, ev.Folded):
            tallies[h.seat].folds += 1
        elif isinstance(h, ev.VuileWasCalled):
            tallies[h.seat].vuile_was += 1
        elif isinstance(h, ev.Checked):
            tallies[h.seat].checks += 1
        elif isinstance(h, ev.VuileWasOutcome):
            checkers = h.checkers
            if h.outcome == "caught":
                tallies[h.caller].vuile_was_caught += 1
                for s in checkers:
                    tallies[s].checks_right += 1
        elif isinstance(h, ev.MarksTaken):
            tallies[h.seat].marks += h.marks
        elif isinstance(h, ev.PlayerOut):
            if tallies[h.seat].out_at is None:
                tallies[h.seat].out_at = index
        elif isinstance(h, ev.RoundWon):
            _round_won(game, h, tallies, state)


def _round_won(game: Game, h: ev.RoundWon, tallies: list[_Tally], state: _Round) -> None:
    if h.seat is not None:
        tallies[h.seat].rounds_won += 1
        tallies[h.seat].toeps_won += state.toeps.count(h.seat)
    # A dead man who loses takes at least 2 from the edge and is out: to
    # survive the round is to win it.
    if h.seat in state.dead:
        tallies[h.seat].dead_man_survived += 1


def _places(game: Game, tallies: list[_Tally]) -> tuple[int, ...]:
    end = len(game.events)
    key: dict[int, tuple[int, int, int]] = {}
    for s in range(game.n):
        if s == game.winner:
            key[s] = (0, 0, 0)
        elif game.forfeited[s]:
            key[s] = (2, -game.forfeit_order.index(s), 0)
        else:
            out_at = tallies[s].out_at
            key[s] = (1, -(end if out_at is None else out_at), game.marks[s])
    order = sorted(range(game.n), key=lambda s: key[s])
    places = [0] * game.n
    for s, place in zip(order, shared_places([key[s] for s in order]), strict=True):
        places[s] = place
    return tuple(places)


def _forfeit_order(game: Game) -> tuple[int | None, ...]:
    return tuple(game.forfeit_order.index(s) + 1 if game.forfeited[s] else None
                 for s in range(game.n))


def _stats(game: Game, tallies: list[_Tally]) -> tuple[StatsDelta, ...]:
    out = []
    for s, t in enumerate(tallies):
        out.append(StatsDelta(
            games=1, wins=int(game.winner == s), rounds=t.rounds, rounds_won=t.rounds_won,
            marks=t.marks, toeps=t.toeps, toeps_won=t.toeps_won, folds=t.folds,
            vuile_was=t.vuile_was, vuile_was_caught=t.vuile_was_caught, checks=t.checks,
            checks_right=t.checks_right, dead_man_rounds=t.dead_man_rounds,
            dead_man_survived=t.dead_man_survived))
    return tuple(out)


__all__ = ["Results", "results"]
