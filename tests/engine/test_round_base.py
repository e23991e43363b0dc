"""Round bases: a game built from the base of a round and that round's events
is the game a replay of the whole record gives, and a base that does not
fit is refused."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import events as ev
from engine.chance import RandomChance, RecordChance
from engine.errors import RecordError
from engine.events import Event
from engine.game import Game
from engine.record import parse_event, result, to_record
from engine.round_base import RoundBase, deal_entry
from engine.rules import TableRules
from engine.views import public_view, seat_view
from tests.engine.test_properties import options

_NOT_STATE = {"chance", "_out", "opening"}


def _random_game(seed: int, players: int, rules: TableRules) -> Game:
    rng = random.Random(seed)
    game = Game(rules, [f"p{i}" for i in range(players)], RandomChance(random.Random(seed)))
    while not game.over:
        if rng.random() < 0.004:
            event = ev.act(ev.FORFEIT, rng.choice(game.alive()))
        else:
            legal = game.legal_events()
            event = legal[rng.randrange(len(legal))]
        game.apply(event)
    return game


def _replaying(record: dict[str, Any], seed: int) -> tuple[Game, list[Event]]:
    """A fresh game of the record, and the record's events (not yet applied)."""
    game = Game(TableRules.from_json(record["rules"]), record["players"],
                RecordChance(record["deals"], random.Random(seed)), record["first_leader"])
    return game, [parse_event(e, game.n) for e in record["events"]]


def _state(game: Game) -> dict[str, Any]:
    """Everything the game holds, copied (it changes as play goes on)."""
    return copy.deepcopy({k: v for k, v in vars(game).items() if k not in _NOT_STATE})


def _at(record: dict[str, Any], seed: int, base: RoundBase, events: list[Event]) -> Game:
    n = len(record["players"])
    return Game.at_round(TableRules.from_json(record["rules"]), record["players"],
                         RecordChance(record["deals"], random.Random(seed)),
                         record["first_leader"], base, events,
                         [deal_entry(d, n) for d in record["deals"]])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8), opts=options)
def test_every_round_base_builds_the_game_a_whole_replay_gives(
        seed: int, players: int, opts: dict[str, Any]) -> None:
    rules = TableRules(**opts)
    record = json.loads(json.dumps(to_record(_random_game(seed, players, rules), seed)))
    whole, events = _replaying(record, seed)
    states = {0: _state(whole)}
    bases = [whole.round_base]
    for k, event in enumerate(events, start=1):
        whole.apply(event)
        if whole.round_base is not bases[-1]:
            bases.append(whole.round_base)
            states[k] = _state(whole)
    assert bases[0].events == 0 and len(bases) >= min(len(whole.rounds), 2)
    for base in bases:
        saved = RoundBase.from_json(json.loads(json.dumps(base.to_json())), players)
        assert saved == base
        game = _at(record, seed, saved, events)
        assert _state(game) == states[base.events]  # the moment the round began
        for event in events[base.events:]:
            game.apply(event)
        assert to_record(game, seed) == record
        assert result(game) == result(whole)
        assert public_view(game) == public_view(whole)
        assert [seat_view(game, s) for s in range(players)] == \
            [seat_view(whole, s) for s in range(players)]


def _a_late_base() -> tuple[dict[str, Any], list[Event], RoundBase]:
    rules = TableRules(limit=10)
    record = to_record(_random_game(7, 3, rules), 7)
    whole, events = _replaying(record, 7)
    for event in events:
        whole.apply(event)
        if whole.round_base.round_no >= 2:
            return record, events, whole.round_base
    raise AssertionError("a game to 10 marks has more than two rounds")


@pytest.mark.parametrize(("change", "reason"), [
    ({"format": 1}, "format"),  # a base saved before the vuile was record
    ({"kind": "party"}, "round kind"),
    ({"marks": [0, 1]}, "marks"),
    ({"events": -1}, "events"),
    ({"out": [1, 0, 0]}, "out"),
    ({"rounds": [{"number": 1}]}, "kind"),
    ({"forfeit_order": [5]}, "not a seat"),
    ({"two_left_done": "no"}, "two_left_done"),
])
def test_a_saved_base_of_the_wrong_shape_is_refused(change: dict[str, Any], reason: str) -> None:
    _, _, base = _a_late_base()
    with pytest.raises(RecordError, match=reason):
        RoundBase.from_json({**base.to_json(), **change}, 3)


def _changed(base: RoundBase, field: str) -> RoundBase:
    fields = dict(vars(base))
    if field == "marks":
        fields["marks"] = (base.marks[0] + 1, *base.marks[1:])
    elif field == "rounds":
        fields["rounds"] = base.rounds[1:]
    elif field == "out":
        fields["out"] = (not base.out[0], *base.out[1:])
    elif field == "forfeit_order":
        fields["forfeit_order"] = (0, *base.forfeit_order)
    return RoundBase(**fields)


@pytest.mark.parametrize("field", ["marks", "rounds", "out", "forfeit_order"])
def test_a_base_that_disagrees_with_itself_is_refused(field: str) -> None:
    record, events, base = _a_late_base()
    assert _at(record, 7, base, events).round_no == base.round_no + 1
    with pytest.raises(RecordError, match="round base"):
        _at(record, 7, _changed(base, field), events)


def test_a_base_beyond_the_log_is_refused() -> None:
    record, events, base = _a_late_base()
    with pytest.raises(RecordError, match="beyond the log"):
        _at(record, 7, base, events[:base.events - 1])


def test_a_base_carries_the_one_before_it_and_no_further() -> None:
    _, _, base = _a_late_base()
    assert base.previous is not None and base.previous.round_no == base.round_no - 1
    assert base.previous.previous is None  # one round back, not the whole chain
    saved = base.to_json()
    assert saved["format"] == 3 and saved["previous"]["round_no"] == base.round_no - 1
    assert RoundBase.from_json(json.loads(json.dumps(saved)), 3) == base


def test_a_format_2_base_reads_without_the_one_before() -> None:
    _, _, base = _a_late_base()
    saved = {k: v for k, v in base.to_json().items() if k != "previous"}
    assert RoundBase.from_json({**saved, "format": 2}, 3) == base.alone()


@pytest.mark.parametrize("change", [{"round_no": 9}, {"events": 10_000}, {"marks": [1]}])
def test_a_previous_base_that_does_not_lie_before_is_refused(change: dict[str, Any]) -> None:
    _, _, base = _a_late_base()
    saved = base.to_json()
    saved["previous"] = {**saved["previous"], **change}
    with pytest.raises(RecordError, match="round base"):
        RoundBase.from_json(saved, 3)
