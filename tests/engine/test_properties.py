"""Property tests: random legal games, 2-8 players, random options, with the
invariants checked after every event (docs/design.md, "Testing")."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import events as ev
from engine.cards import DECK, Card
from engine.chance import RandomChance
from engine.events import Happening, Redealt, RoundStarted, VuileWasOutcome
from engine.game import Game
from engine.record import replay_json, result, to_record
from engine.rules import NextLeader, TableRules, TwoLeft
from engine.views import public_view, seat_view

options = st.fixed_dictionaries({
    "limit": st.integers(5, 30),
    "max_stake": st.one_of(st.none(), st.integers(2, 10)),
    "folded_card_wins": st.booleans(),
    "no_toep_past_limit": st.booleans(),
    "next_leader": st.sampled_from(list(NextLeader)),
    "rounds": st.one_of(st.none(), st.integers(1, 100)),
    "seven_counts": st.booleans(),
    "redeal_after": st.integers(2, 5),
    "dead_man": st.booleans(),
    "small_players": st.one_of(st.none(), st.integers(1, 5)),
    "two_left": st.sampled_from(list(TwoLeft)),
    "max_players": st.just(8),
})


def _places(game: Game) -> list[Card]:
    cards = [c for h in game.hands for c in h] + game.stock + game.discards
    cards += [c for _, c in game.table] + [c for t in game.tricks for _, c in t.cards]
    return cards


class Tracker:
    """What each seat may see, worked out from the happenings alone."""

    def __init__(self, game: Game) -> None:
        self.caught: set[int] = set()
        self.checked: dict[int, set[int]] = {s: set() for s in range(game.n)}

    def follow(self, happenings: tuple[Happening, ...]) -> None:
        for h in happenings:
            if isinstance(h, Redealt):
                self.caught.clear()
            elif isinstance(h, RoundStarted):
                self.caught.clear()
                self.checked = {s: set() for s in self.checked}
            elif isinstance(h, VuileWasOutcome):
                self.caught.discard(h.caller)
                if h.outcome == "caught":
                    self.caught.add(h.caller)
                elif h.genuine:
                    for s in h.checkers:
                        self.checked[s].add(h.caller)


def _check(game: Game, tracker: Tracker, marks_before: list[int]) -> None:
    cards = _places(game)
    assert sorted(c.index for c in cards) == [c.index for c in DECK]
    assert all(a >= b for a, b in zip(game.marks, marks_before, strict=True))
    public = public_view(game)
    for seat, hand in public.open_hands:
        assert seat in tracker.caught and list(hand) == sorted(game.hands[seat])
    for seat in range(game.n):
        view = seat_view(game, seat, public)
        assert sorted(view.hand) == sorted(game.hands[seat])
        for laid in view.laid_down:
            assert seat in laid.checkers and laid.caller in tracker.checked[seat]
        assert all(game.can(e) for e in view.legal)


def _play(seed: int, players: int, rules: TableRules, forfeits: bool) -> Game:
    rng = random.Random(seed)
    game = Game(rules, [f"p{i}" for i in range(players)], RandomChance(random.Random(seed)))
    tracker = Tracker(game)
    tracker.follow(game.opening)
    for _ in range(20_000):
        if game.over:
            return game
        legal = game.legal_events()
        assert legal, "a game that is not over always has a legal event"
        if forfeits and rng.random() < 0.003:
            seat = rng.choice(game.alive())
            event = ev.act(ev.FORFEIT, seat)
        else:
            event = legal[rng.randrange(len(legal))]
        before = list(game.marks)
        tracker.follow(game.apply(event))
        _check(game, tracker, before)
    raise AssertionError("the game did not end")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8), opts=options,
       forfeits=st.booleans())
def test_random_legal_games_keep_every_invariant_and_end(
        seed: int, players: int, opts: dict[str, Any], forfeits: bool) -> None:
    game = _play(seed, players, TableRules(**opts), forfeits)
    assert game.over and game.winner is not None
    assert [s for s in range(game.n) if not game.out[s]] == [game.winner]
    record = json.loads(json.dumps(to_record(game, seed)))
    again = replay_json(record)
    assert result(again) == result(game)
    assert public_view(again) == public_view(game)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8), stop=st.floats(0, 1))
def test_a_record_cut_anywhere_replays_to_the_same_state(
        seed: int, players: int, stop: float) -> None:
    rules = TableRules(max_players=8, limit=8)
    game = _play(seed, players, rules, forfeits=True)
    record = to_record(game, seed)
    cut = int(len(record["events"]) * stop)
    record["events"] = record["events"][:cut]
    part = replay_json(record)
    assert len(part.events) == cut
    record_again = to_record(part, seed)
    assert result(replay_json(record_again)) == result(part)
    for seat in range(part.n):
        assert seat_view(replay_json(record_again), seat) == seat_view(part, seat)
