"""A table's journal: the game in play, written ahead to the database.

Each change is applied to the game, then saved (its events, the chance they
brought, the base of a round they began and a forfeit that counts toward a
ban, in one transaction), and only then handed back to be told. A change that
fails on the way, in the engine or in the database, puts the game back to the
events the database holds, so the next click is judged and saved against
them. The table's lock is the caller's: the journal never awaits one.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Sequence
from datetime import datetime

from data import bans, games, stats
from data.chance_log import ChanceLog
from data.db import Database
from data.errors import GameStateError, LogOrderError
from data.games import Game as GameRow
from data.games import LoadedGame, Seat, SeatResult
from data.group_commit import LogWriter
from data.ratings import RatingChange
from engine.chance import SeededChance
from engine.events import Event, Happening
from engine.game import Game
from engine.record import to_record
from engine.rules import TableRules
from tables.errors import Refusal, TableFailure
from tables.log_safe import log_failure
from tables.rebuild import parsed_events, rebuild, replayed
from tables.results import results
from tables.snapshot import SeatInfo

log = logging.getLogger(__name__)


class Journal:
    def __init__(self, table_id: int, seed: int, db: Database, writer: LogWriter,
                 keep: int) -> None:
        self.table_id, self.seed = table_id, seed
        self._db, self._writer = db, writer
        self.game: Game | None = None  # None until the game starts
        self.recent: deque[Happening] = deque(maxlen=keep)  # for the table message
        self._chance = ChanceLog()
        self._chance_rows = 0  # how many chance rows the database holds
        # Each person's rating before and after, once a rated result is saved.
        self.rating_changes: tuple[RatingChange, ...] = ()

    def in_play(self) -> Game:
        if self.game is None:
            raise Refusal("not_started")
        return self.game

    async def start(self, rules: TableRules, seats: Sequence[Seat], now: datetime) -> GameRow:
        """Deal the first round and save the start with it; the game is
        taken on only once that is saved."""
        game = Game(rules, [s.name for s in seats], SeededChance(self.seed))
        chance = ChanceLog()
        rows = chance.new_rows(game)
        try:
            row = await games.start_game(self._db, self.table_id, seats=list(seats),
                                         first_leader=game.first_leader, now=now, deals=rows)
        except GameStateError:
            # No longer a lobby: a start reported failed may have been made (its
            # answer lost on the way). Then the game is the database's.
            loaded = await games.load_game(self._db, self.table_id)
            if loaded.game.status != "playing":
                raise
            log.warning("table %s: its start, reported failed, had been saved: the game goes"
                        " on from the database", self.table_id)
            self.resume(loaded)
            return loaded.game
        self.game, self._chance, self._chance_rows = game, chance, len(rows)
        self.recent.extend(game.opening)
        return row

    def resume(self, loaded: LoadedGame) -> Game:
        """The saved game rebuilt, with the happenings its table showed last."""
        rebuilt = rebuild(loaded, self.recent.maxlen or 0)
        self.game, self._chance, self._chance_rows = (
            rebuilt.game, rebuilt.chance, rebuilt.chance_rows)
        self.recent.clear()
        self.recent.extend(rebuilt.recent)
        return rebuilt.game

    async def commit(self, events: Sequence[Event],
                     forfeit: bans.Forfeit | None = None) -> list[Happening]:
        """Apply `events` and save them; what came of them, once saved.
        Raises TableFailure, the game rolled back, if either failed."""
        game = self.in_play()
        first, base = len(game.events), game.round_base
        happenings: list[Happening] = []
        saving = False
        try:
            for event in events:
                happenings.extend(game.apply(event))
            rows = self._chance.new_rows(game)
            # A round these events began: its base lets a restart replay only it.
            new_base = game.round_base.to_json() if game.round_base is not base else None
            saving = True
            await self._writer.append(
                self.table_id, first, [e.to_json() for e in game.events[first:]],
                self._chance_rows, rows, new_base, forfeit)
        except Exception as err:
            if saving:  # the database's trouble (locked, disk full), not a bug of ours
                log.warning("table %s: saving events from %d failed: %s", self.table_id,
                            first, err)
            else:  # a bug of ours: its text may name a card, so at DEBUG only
                log_failure(log, logging.ERROR, "table %s: applying events from %d failed",
                            self.table_id, first)
            caught_up = isinstance(err, LogOrderError) and await self._catch_up(first)
            if not caught_up:
                self._roll_back(first)
            raise TableFailure(str(err), storage=saving, caught_up=caught_up) from err
        self._chance_rows += len(rows)
        self.recent.extend(happenings)
        return happenings

    async def save_result(self, seats: Sequence[SeatInfo], rated: bool, now: datetime) -> None:
        """The finished game's places and each person's figures."""
        game = self.in_play()
        outcome = results(to_record(game, self.seed))
        seat_results = [SeatResult(s, outcome.marks[s], outcome.places[s], outcome.forfeited[s],
                                   outcome.forfeit_order[s]) for s in range(game.n)]
        deltas = {info.user_id: outcome.stats[info.index] for info in seats
                  if info.user_id is not None}
        self.rating_changes = tuple(
            await stats.finish_game(self._db, self.table_id, seat_results, deltas, rated, now))

    async def save_end(self, now: datetime) -> None:
        """The game ended unrated, before its end: the marks as they stood."""
        game = self.in_play()
        marks = [SeatResult(s, game.marks[s], None, game.forfeited[s]) for s in range(game.n)]
        await games.end_game(self._db, self.table_id, now, marks)

    async def _catch_up(self, first: int) -> bool:
        """The database's log goes on past `first`: a save whose answer was lost
        on the way (a COMMIT timed out, a connection dropped) had been made, and
        the game was put back without it. The database is the truth: the game is
        taken from it. False if it cannot be read now (then the next save finds
        out again)."""
        try:
            self.resume(await games.load_game(self._db, self.table_id))
        except Exception:  # still the database's trouble, or a record we cannot rebuild
            log_failure(log, logging.WARNING, "table %s: reading the saved game back failed",
                        self.table_id)
            return False
        log.warning("table %s: the database holds %d events where the table held %d (a save"
                    " reported failed had been made): the game goes on from the database",
                    self.table_id, len(self.in_play().events), first)
        return True

    def _roll_back(self, saved: int) -> None:
        """Back to the first `saved` events (what the database holds), rebuilt
        from the game's own record: the database may be what failed."""
        game = self.in_play()
        record = to_record(game, self.seed)
        events = parsed_events(record["events"][:saved], len(record["players"]))
        self.game = replayed(game.rules, record["players"], record["deals"],
                             record["first_leader"], self.seed, events)
        self._chance = ChanceLog.of(self.game)
