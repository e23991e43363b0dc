"""Toep van de dag for a server (no Discord): its day in its time zone, the
day's secret seed, a member's boards one after the other, and the close.

A member's board is saved after every choice (its events, the computers'
answers included), and rebuilt from them on the next click: a restart loses
nothing, and nothing but the database holds a board in play. A day opens
when the first member asks for it, with a seed from the operating system's
randomness whose SHA-256 is shown at once; it closes at midnight in the
server's time zone, when the ranking is made, the duplicate ratings move
and the seed is published.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from datetime import UTC, datetime, time, timedelta
from typing import ParamSpec, TypeVar
from zoneinfo import ZoneInfo, available_timezones

from data import daily as store
from data.daily import Day, PlayedBoard
from data.db import Database
from engine.board_session import BoardSession
from engine.boards import Board, board
from engine.day_seed import commitment
from engine.duplicate import Ranked, against_par, matchpoints, ranking
from engine.events import Event
from engine.par import PAR_RUNS, par_scores
from engine.record import parse_event
from engine.telling import Parting, parting, telling_board
from tables.clock import ClockSource
from tables.log_safe import log_failure

log = logging.getLogger(__name__)
P = ParamSpec("P")
T = TypeVar("T")

BOARDS = 8
LEVEL = "hard"
FEW = 5  # a day with fewer finishers than this shows the par
ELO_K = 32.0
TOURNAMENT = "tournament-"  # the start of a tournament's key
TOURNAMENT_BOARDS = 16  # most boards a tournament may have
TOURNAMENT_HOURS = 168  # its longest window: a week


# Files of the system's zone database that are no place's time zone.
_NOT_ZONES = frozenset({"localtime", "posixrules", "factory"})


@functools.cache
def _zone_names() -> dict[str, str]:
    return {name.lower(): name for name in available_timezones()
            if name.lower() not in _NOT_ZONES}


def zone_name(text: str) -> str | None:
    """The IANA time zone `text` names, in any case ("europe/amsterdam"), or
    None: only the database's names, never a path or a file of the system."""
    return _zone_names().get(text.strip().lower())


def zone(name: str) -> ZoneInfo | None:
    """The time zone of an IANA name, or None for a name that is none."""
    known = zone_name(name)
    return None if known is None else ZoneInfo(known)


def day_at(now: datetime, time_zone: str) -> tuple[str, datetime]:
    """The day it is at `now` in `time_zone`, and when it ends (in UTC)."""
    tz = zone(time_zone) or ZoneInfo("UTC")
    local = now.astimezone(tz).date()
    ends = datetime.combine(local + timedelta(days=1), time(0), tzinfo=tz)
    return local.isoformat(), ends.astimezone(UTC)


def computer_names(seat: int, name: str, computers: Sequence[str]) -> tuple[str, ...]:
    """The board's players: the member at their seat, the computers at the others."""
    others = iter(computers)
    return tuple(name if s == seat else next(others) for s in range(4))


@dataclass(frozen=True)
class Standing:
    """The day's ranking with names, and each board's scores by member."""

    rows: list[Ranked]
    names: dict[int, str]
    scores: dict[int, list[int]]


@dataclass(frozen=True)
class Closing:
    """A day just closed: what its message shows."""

    day: Day
    standing: Standing
    telling: int | None  # the board's index
    best: int | None  # who scored best there
    parted: Parting | None


class Daily:
    def __init__(self, db: Database, clock: ClockSource, executor: Executor | None,
                 boards: int = BOARDS, level: str = LEVEL, par_runs: int = PAR_RUNS) -> None:
        self.db, self.clock, self.executor = db, clock, executor
        self.boards, self.level, self.par_runs = boards, level, par_runs
        self._par_tasks: set[asyncio.Task[None]] = set()
        self._par_days: set[tuple[int, str]] = set()

    # --- the day -----------------------------------------------------------------------

    async def today(self, guild_id: int) -> Day:
        """The server's day now, opened if nobody opened it yet. A day opened
        keeps its end when the admins change the time zone: the new one
        applies from the next day."""
        now = self.clock.now()
        found = await store.current_day(self.db, guild_id, now)
        if found is not None:
            return found
        settings = await store.get_settings(self.db, guild_id)
        name, closes = day_at(now, settings.time_zone)
        if await store.get_day(self.db, guild_id, name) is not None:
            # This date's day is over already: the time zone was moved back
            # meanwhile. The next date's day opens now, a little longer.
            name, closes = day_at(closes, settings.time_zone)
        seed = secrets.token_hex(16)
        return await store.open_day(self.db, guild_id, name, seed, commitment(seed),
                                    self.boards, closes)

    async def open_today(self, guild_id: int) -> str | None:
        """The server's day now if someone opened it; never opens one (a
        look at one's history is no wish to play, and a day opened closes
        with a post)."""
        found = await store.current_day(self.db, guild_id, self.clock.now())
        return None if found is None else found.day

    async def open_tournament(self, guild_id: int, boards: int, hours: int,
                              channel_id: int) -> Day | None:
        """A tournament on `boards` new boards for `hours`; None if one is open."""
        now = self.clock.now()
        seed = secrets.token_hex(16)
        key = f"{TOURNAMENT}{now.astimezone(UTC):%Y%m%d-%H%M%S}"  # no ":" (custom_ids)
        return await store.open_tournament(self.db, guild_id, key, seed, commitment(seed),
                                           boards, now, now + timedelta(hours=hours),
                                           channel_id)

    async def tournament(self, guild_id: int) -> Day | None:
        """The server's tournament open now, if any."""
        return await store.current_day(self.db, guild_id, self.clock.now(), "tournament")

    async def event(self, guild_id: int, key: str) -> Day | None:
        """The day or tournament `key` if it is open now; None if it is over."""
        if key.startswith(TOURNAMENT):
            found = await self.tournament(guild_id)
        else:
            found = await self.today(guild_id)
        return found if found is not None and found.day == key else None

    def board(self, day: Day, index: int) -> Board:
        return board(day.seed, index)

    def want_par(self, day: Day, standing: Standing) -> None:
        """Work out the day's par if its few finishers are to see it: once a
        day, only for a server where it shows (it takes seconds of a worker)."""
        key = (day.guild_id, day.day)
        if day.par is not None or len(standing.scores) >= FEW or key in self._par_days:
            return
        self._par_days.add(key)

        async def work() -> None:
            loop = asyncio.get_running_loop()
            par = [await loop.run_in_executor(self.executor, par_scores,
                                              self.board(day, i), self.par_runs, self.level)
                   for i in range(day.boards)]
            await store.set_par(self.db, day.guild_id, day.day, par)
        task = asyncio.get_running_loop().create_task(work())
        self._par_tasks.add(task)
        task.add_done_callback(self._par_done)

    def _par_done(self, task: asyncio.Task[None]) -> None:
        self._par_tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a day's par could not be worked out", exc_info=task.exception())

    async def close(self) -> None:
        for task in list(self._par_tasks):
            task.cancel()

    # --- a member's boards --------------------------------------------------------------

    async def current(self, day: Day, user_id: int, name: str, computers: Sequence[str]
                      ) -> tuple[int, BoardSession] | None:
        """The member's board in play (begun or next), or None: all finished."""
        played = await store.boards_of(self.db, day.guild_id, day.day, user_id)
        done = [p for p in played if p.score is not None]
        if len(done) >= day.boards:
            return None
        index = len(done)
        b = self.board(day, index)
        events = played[index].events if len(played) > index else []
        players = computer_names(b.seat, name, computers)
        session = await self._thread(BoardSession.resume, b, players, events, self.level)
        return index, session

    async def act(self, day: Day, user_id: int, index: int, session: BoardSession,
                  event: Event | None) -> bool:
        """The member's choice at board `index` and the computers' answers,
        saved; False if the day closed meanwhile (nothing saved). Raises
        IllegalEvent or NothingToPass (nothing changed)."""
        await self._thread(session.act, event)
        # A tournament counts toward no streak (nor the duplicate rating).
        last = session.over and index == day.boards - 1 and not day.tournament
        saved = PlayedBoard(index, session.game.players[session.me], session.events(),
                            session.score)
        return await store.save_board(self.db, day, user_id, saved, self.clock.now(),
                                      finished_day=last)

    async def _thread(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """The computers think in a worker thread: the event loop stays free."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, functools.partial(fn, *args, **kwargs))

    # --- results ------------------------------------------------------------------------

    async def standing(self, day: Day) -> Standing:
        found = await store.day_scores(self.db, day)
        scores = {u: s for u, (_, s) in found.items()}
        rows = ranking({u: [float(x) for x in s] for u, s in scores.items()})
        return Standing(rows, {u: n for u, (n, _) in found.items()}, scores)

    def versus(self, day: Day, standing: Standing, user_id: int
               ) -> list[tuple[float, float | None]]:
        """The member's matchpoints on each board so far, and against the par
        (None when the day has many finishers or the par is not ready)."""
        own = standing.scores[user_id]
        out: list[tuple[float, float | None]] = []
        for i, score in enumerate(own):
            mp = matchpoints({u: s[i] for u, s in standing.scores.items()})[user_id]
            par = None
            if day.par is not None and len(standing.scores) < FEW:
                par = against_par(score, day.par[i])
            out.append((mp, par))
        return out

    async def close_due(self, owns: Callable[[int], bool] = lambda guild_id: True
                        ) -> list[Closing]:
        """Close every day whose end has come, of the servers this process
        drives (`owns`: its shards; a cluster's other processes close theirs,
        and post in channels they can see): ratings move, the seed is out."""
        closed = []
        for day in await store.due_days(self.db, self.clock.now()):
            if not owns(day.guild_id):
                continue
            try:
                closing = await self._close(day)
            except Exception:
                # One server's day that cannot close (its data, a database
                # hiccup) holds back no other server's: it is tried again
                # at the next tick, and the log says which.
                log_failure(log, logging.ERROR,
                            f"guild {day.guild_id}: day {day.day} could not be closed")
                continue
            if closing is not None:
                closed.append(closing)
        return closed

    async def unposted(self, owns: Callable[[int], bool] = lambda guild_id: True
                       ) -> list[Closing]:
        """The closed days of this process's servers whose results have not
        reached their channel yet (just closed, a post that failed, a stop in
        between): to be posted."""
        out = []
        for day in await store.unposted_days(self.db):
            if not owns(day.guild_id):
                continue
            try:
                out.append(await self._telling(day, await self.standing(day)))
            except Exception:
                log_failure(log, logging.ERROR,
                            f"guild {day.guild_id}: day {day.day}'s results could not be read")
        return out

    async def posted(self, day: Day) -> None:
        """The day's results have reached their channel, or have nowhere to go."""
        await store.mark_posted(self.db, day)

    async def _close(self, day: Day) -> Closing | None:
        standing = await self.standing(day)
        ratings = await store.ratings_of(self.db, day.guild_id, list(standing.scores))
        moved = {} if day.tournament else new_ratings(standing.rows, ratings)
        if not await store.close_day(self.db, day, moved):
            return None
        return await self._telling(day, standing)

    async def _telling(self, day: Day, standing: Standing) -> Closing:
        try:
            return await self._closing(day, standing)
        except Exception:
            # Closed: its ranking and seed are still posted, only without
            # the telling board.
            log_failure(log, logging.ERROR,
                        f"guild {day.guild_id}: day {day.day}'s telling board failed")
            return Closing(replace_closed(day), standing, None, None, None)

    async def _closing(self, day: Day, standing: Standing) -> Closing:
        per_board = [{u: float(s[i]) for u, s in standing.scores.items()}
                     for i in range(day.boards)]
        index = telling_board(per_board)
        if index is None:
            return Closing(replace_closed(day), standing, None, None, None)
        best = max(per_board[index], key=lambda u: per_board[index][u])
        events = await store.all_events(self.db, day, list(standing.scores))
        n = len(standing.names)
        parsed = {u: [parse_event(e, 4) for e in boards[index]] for u, boards in events.items()}
        others = [parsed[u] for u in parsed if u != best]
        return Closing(replace_closed(day), standing, index, best,
                       parting(parsed[best], others) if n > 1 else None)


def replace_closed(day: Day) -> Day:
    return replace(day, closed=True)


def new_ratings(rows: Sequence[Ranked], ratings: Mapping[int, float]) -> dict[int, float]:
    """Elo against the field: each finisher's day average (a share of the
    others beaten) against what their rating expected of them."""
    out: dict[int, float] = {}
    for row in rows:
        who = row.who
        assert isinstance(who, int)
        others = [ratings[r.who] for r in rows if r.who != who]  # type: ignore[index]
        if not others:
            out[who] = ratings[who]
            continue
        expected = sum(1 / (1 + 10 ** ((o - ratings[who]) / 400)) for o in others) / len(others)
        out[who] = round(ratings[who] + ELO_K * (row.average / 100 - expected), 1)
    return out
