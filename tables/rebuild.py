"""A table's game rebuilt from what the database holds: its event log, its
chance log and, when saved, the base of the round in play.

With a round base only the round in play is replayed (a restart of hundreds
of tables deep into their games stays quick). Early in a round, when that
round has not yet told the `keep` lines the table message shows, the round
before is replayed too, from the previous base saved with it (format 3). A
base without one (format 2, saved before it came in), or one that does not
fit the log, gives way to the whole log.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from data.chance_log import ChanceLog, fold
from data.games import LoadedGame
from engine.chance import RecordChance, SeededChance
from engine.errors import RecordError
from engine.events import Event, Happening
from engine.game import Game
from engine.record import parse_event
from engine.round_base import RoundBase, deal_entry
from engine.rules import TableRules
from engine.state import DealEntry
from tables.log_safe import log_failure

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rebuilt:
    game: Game
    chance: ChanceLog
    chance_rows: int  # how many chance rows the database holds
    recent: tuple[Happening, ...]  # the last happenings, as the table message showed them


def rebuild(loaded: LoadedGame, keep: int) -> Rebuilt:
    """The game of a saved table, its chance log, and its last `keep`
    happenings (the table message's "what happened" lines)."""
    row = loaded.game
    rules = TableRules.from_json(row.rules)
    players = [s.name for s in loaded.seats]
    deals = fold(loaded.chance_rows)
    events = parsed_events(loaded.events, len(players))
    recent: deque[Happening] = deque(maxlen=keep)
    game = None
    if loaded.round_base is not None:
        try:
            base = RoundBase.from_json(loaded.round_base, len(players))
            deal_log = [deal_entry(d, len(players)) for d in deals[:base.deals]]
            for start in (base, base.previous):  # too early in the round: the one before
                if start is None:
                    break
                recent.clear()
                game = _from_round_base(rules, players, deals, deal_log, row.first_leader,
                                        row.seed, start, events, recent)
                if len(recent) >= keep:
                    break
        except Exception:  # a shortcut that failed: the log is the truth
            game = None
            log_failure(log, logging.WARNING, "table %s: its round base does not fit its "
                        "log; replaying the whole log", row.id)
    if game is None or len(recent) < keep:  # still short of lines: the rounds before
        recent.clear()
        game = replayed(rules, players, deals, row.first_leader, row.seed, events, recent)
    return Rebuilt(game, ChanceLog.of(game), len(loaded.chance_rows), tuple(recent))


def replayed(rules: TableRules, players: Sequence[str], deals: Sequence[object],
             first_leader: int | None, seed: int, events: Sequence[Event],
             told: deque[Happening] | None = None) -> Game:
    """A table's game replayed from its first event; further chance from its
    seed. What it tells goes to `told`, if given."""
    game = Game(rules, players, RecordChance(deals, SeededChance(seed)), first_leader)
    _apply_all(game, events, told)
    game.chance = SeededChance(seed)
    return game


def _apply_all(game: Game, events: Sequence[Event], told: deque[Happening] | None) -> None:
    if told is None:
        for event in events:
            game.apply(event)
        return
    told.extend(game.opening)
    for event in events:
        told.extend(game.apply(event))


# Every log repeats the same few hundred events: each is checked once, for
# every game restored (a restart of hundreds of tables parses tens of
# thousands). Only events that passed the checks are kept, and never more
# than _PARSED_MOST: a damaged log cannot make it grow.
_PARSED: dict[tuple[object, ...], Event] = {}
_PARSED_MOST = 4096


def parsed_events(raw_events: Sequence[object], seats: int) -> list[Event]:
    """Log entries as events (RecordError for one that is not an event)."""
    out = []
    for raw in raw_events:
        if not isinstance(raw, dict):
            raise RecordError("an event must be a JSON object")
        seat = raw.get("seat")
        # The seat's type too: True and 1.0 equal 1, but are no seat number.
        key = (seats, raw.get("do"), type(seat), seat, raw.get("card"))
        event = _PARSED.get(key)
        if event is None:
            event = parse_event(raw, seats)
            if len(_PARSED) < _PARSED_MOST:
                _PARSED[key] = event
        out.append(event)
    return out


def _from_round_base(rules: TableRules, players: Sequence[str], deals: Sequence[Any],
                     deal_log: Sequence[DealEntry], first_leader: int | None, seed: int,
                     base: RoundBase, events: Sequence[Event], told: deque[Happening]) -> Game:
    if first_leader is None:
        raise RecordError("a game in play has a first leader")
    game = Game.at_round(rules, players, RecordChance(deals, SeededChance(seed)),
                         first_leader, base, events, deal_log)
    _apply_all(game, events[base.events:], told)
    game.chance = SeededChance(seed)
    return game
