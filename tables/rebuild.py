"""A table's game rebuilt from what the database holds: its event log, its
chance log and, when saved, the base of the round in play.

With a round base only the round in play is replayed (a restart of hundreds
of tables deep into their games stays quick); without one, or with one that
does not fit the log, the whole log is.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from data.games import LoadedGame
from engine.chance import RecordChance, SeededChance
from engine.errors import RecordError
from engine.events import Event
from engine.game import Game
from engine.record import parse_event
from engine.round_base import RoundBase, deal_entry
from engine.rules import TableRules
from tables.chance_log import ChanceLog, fold
from tables.log_safe import log_failure

log = logging.getLogger(__name__)


def rebuild(loaded: LoadedGame) -> tuple[Game, ChanceLog, int]:
    """The game of a saved table, its chance log, and how many chance rows it has."""
    row = loaded.game
    rules = TableRules.from_json(row.rules)
    players = [s.name for s in loaded.seats]
    deals = fold(loaded.deals)
    events = parsed_events(loaded.events, len(players))
    game = None
    if loaded.round_base is not None:
        try:
            game = _from_round_base(rules, players, deals, row.first_leader, row.seed,
                                    loaded.round_base, events)
        except Exception:  # a shortcut that failed: the log is the truth
            log_failure(log, logging.WARNING, "table %s: its round base does not fit its "
                        "log; replaying the whole log", row.id)
    if game is None:
        game = replayed(rules, players, deals, row.first_leader, row.seed, events)
    return game, ChanceLog.of(game), len(loaded.deals)


def replayed(rules: TableRules, players: Sequence[str], deals: Sequence[object],
             first_leader: int | None, seed: int, events: Sequence[Event]) -> Game:
    """A table's game replayed from its first event; further chance from its seed."""
    game = Game(rules, players, RecordChance(deals, SeededChance(seed)), first_leader)
    for event in events:
        game.apply(event)
    game.chance = SeededChance(seed)
    return game


def parsed_events(raw_events: Sequence[object], seats: int) -> list[Event]:
    """Log entries as events (RecordError for one that is not an event)."""
    parsed: dict[tuple[object, ...], Event] = {}  # a log repeats its few event kinds
    out = []
    for raw in raw_events:
        if not isinstance(raw, dict):
            raise RecordError("an event must be a JSON object")
        key = (raw.get("do"), raw.get("seat"), raw.get("card"))
        event = parsed.get(key)
        if event is None:
            event = parsed[key] = parse_event(raw, seats)
        out.append(event)
    return out


def _from_round_base(rules: TableRules, players: Sequence[str], deals: Sequence[Any],
                     first_leader: int | None, seed: int, saved: object,
                     events: Sequence[Event]) -> Game:
    if first_leader is None:
        raise RecordError("a game in play has a first leader")
    base = RoundBase.from_json(saved, len(players))
    deal_log = [deal_entry(d, len(players)) for d in deals[:base.deals]]
    game = Game.at_round(rules, players, RecordChance(deals, SeededChance(seed)),
                         first_leader, base, events, deal_log)
    for event in events[base.events:]:
        game.apply(event)
    game.chance = SeededChance(seed)
    return game
