"""tables/rebuild.py: a table rebuilt from a round base (or the base of the
round before it) shows the same "what happened" lines as a replay of its
whole log, wherever the log was cut; a base saved before the previous round
rode along (format 2) still restores, by the whole log."""

from __future__ import annotations

from collections import deque
from datetime import UTC, datetime
from typing import Any

import pytest

from data.gamevalues import Game as GameRow
from data.gamevalues import LoadedGame, Seat
from engine.errors import RecordError
from engine.game import Game
from engine.record import parse_event, to_record
from engine.round_base import RoundBase
from engine.rules import TableRules
from tables import rebuild as rebuild_module
from tables.rebuild import parsed_events, rebuild
from tests.engine.test_round_base import _random_game, _replaying

KEEP = 8
SEED = 11


def _loaded(record: dict[str, Any], events: int, base: dict[str, Any] | None) -> LoadedGame:
    """The database's view of the game after its first `events` events."""
    now = datetime(2026, 1, 1, tzinfo=UTC)
    row = GameRow(1, 1, 1, None, 1, True, record["rules"], SEED, "playing", False,
                  record["first_leader"], now, now, None)
    seats = tuple(Seat(i, name) for i, name in enumerate(record["players"]))
    chance = tuple({"deal": i, **deal} for i, deal in enumerate(record["deals"]))
    return LoadedGame(row, seats, frozenset(), tuple(record["events"][:events]), chance, base)


def _cuts(players: int) -> tuple[dict[str, Any], list[tuple[int, RoundBase, tuple[Any, ...]]]]:
    """A whole game's record, and after each of its events: the live game's
    round base and the lines a live table would show."""
    rules = TableRules(limit=10)
    record = to_record(_random_game(SEED, players, rules), SEED)
    live, events = _replaying(record, SEED)
    told: deque[Any] = deque(live.opening, maxlen=KEEP)
    cuts = []
    for k, event in enumerate(events, start=1):
        told.extend(live.apply(event))
        if not live.over:
            cuts.append((k, live.round_base, tuple(told)))
    return record, cuts


@pytest.mark.parametrize("players", [2, 4])
def test_the_lines_come_out_the_same_from_a_base_as_from_the_whole_log(
        players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    record, cuts = _cuts(players)
    whole_replays = 0
    real_replayed = rebuild_module.replayed

    def counting(*args: Any, **kwargs: Any) -> Game:
        nonlocal whole_replays
        whole_replays += 1
        return real_replayed(*args, **kwargs)

    monkeypatch.setattr(rebuild_module, "replayed", counting)
    for k, base, told in cuts:
        rebuilt = rebuild(_loaded(record, k, base.to_json()), KEEP)
        assert rebuilt.recent == told, f"after event {k}"
        assert to_record(rebuilt.game, SEED)["events"] == record["events"][:k]
        assert rebuilt.game.round_base.alone() == base.alone()
    # Only a cut early in the first round (before it told enough) replays it all.
    early = sum(1 for _, base, _ in cuts if base.round_no == 0)
    assert 0 < whole_replays <= early


def test_a_format_2_base_still_restores_by_the_whole_log() -> None:
    record, cuts = _cuts(3)
    for k, base, told in cuts[::7]:
        saved = base.to_json()
        saved.update(format=2)
        del saved["previous"]
        rebuilt = rebuild(_loaded(record, k, saved), KEEP)
        assert rebuilt.recent == told, f"after event {k}"
        assert rebuilt.game.round_base.alone() == base.alone()


@pytest.mark.parametrize("seat", [True, 1.0, "1"])
def test_a_log_entry_whose_seat_is_no_number_is_refused_after_a_good_one(seat: object) -> None:
    good = {"do": "fold", "seat": 1}
    assert parsed_events([good], 3) == [parse_event(good, 3)]
    with pytest.raises(RecordError, match="seat"):
        parsed_events([good, {"do": "fold", "seat": seat}], 3)
    with pytest.raises(RecordError, match="no seat 3"):
        parsed_events([{"do": "fold", "seat": 3}], 3)  # a seat of a bigger table's log
