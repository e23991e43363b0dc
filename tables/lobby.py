"""A table's lobby: who sits where, who is invited, and the house rules.

Each change is checked (the host's rights, a full table, R19's bans at
public tables), saved, and only then taken on: a failed save changes
nothing, in memory or in the database. The seats and rules stay as the
lobby left them once the game starts. The table holds the lock, checks that
it is still a lobby, and tells the listener.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from data import bans, games
from data.db import Database
from data.games import Game as GameRow
from data.games import LoadedGame, Seat
from engine.bots import make_bot
from engine.rules import TableRules
from tables.clock import ClockSource
from tables.errors import Refusal
from tables.limits import NoLimits, SeatGate
from tables.snapshot import SeatInfo

_REMOVED = 3  # names of people taken off the table that the lobby shows


class Lobby:
    def __init__(self, row: GameRow, seats: Sequence[SeatInfo], invited: set[int],
                 db: Database, clock: ClockSource) -> None:
        self._row = row  # its id, guild, host and publicity never change
        self._db, self._clock = db, clock
        self.seats = list(seats)
        self.invited = invited
        self.rules = TableRules.from_json(row.rules)
        self.gate: SeatGate = NoLimits()  # the manager's fair limits per member
        # Whom the host took off the table lately (names), for the lobby text.
        self.removed: list[str] = []

    def seat_of(self, user_id: int) -> int | None:
        return next((s.index for s in self.seats if s.user_id == user_id), None)

    def require_host(self, user_id: int) -> None:
        if user_id != self._row.host_id:
            raise Refusal("host_only")

    async def join(self, user_id: int, name: str) -> None:
        if self.seat_of(user_id) is not None:
            raise Refusal("already_seated")
        self._require_room()
        if not self._row.public and user_id != self._row.host_id and (
                user_id not in self.invited):
            raise Refusal("invited_only")
        seat = SeatInfo(len(self.seats), user_id, None, name)
        await self._refuse_banned([seat], user_id)
        async with self.gate.new_seat(self._row.guild_id, user_id):
            await self._save_seats([*self.seats, seat])
        if name in self.removed:  # back at the table: no longer "taken off"
            self.removed.remove(name)

    async def leave(self, seat: int) -> None:
        await self._save_seats(self._without(seat))

    async def add_bot(self, user_id: int, level: str) -> None:
        self.require_host(user_id)
        self._require_room()
        make_bot(level)  # refuses an unknown level
        number = 1 + sum(1 for s in self.seats if s.is_bot)
        await self._save_seats(
            [*self.seats, SeatInfo(len(self.seats), None, level, f"Bot {number}")])

    async def remove_bot(self, user_id: int, seat: int) -> None:
        self.require_host(user_id)
        if not 0 <= seat < len(self.seats) or not self.seats[seat].is_bot:
            raise Refusal("not_a_bot_seat", seat=seat)
        await self._save_seats(self._without(seat))

    async def remove(self, user_id: int, seat: int, target: int | None) -> SeatInfo:
        """The host takes a seat from the lobby: a person (`target`, their id)
        or a computer player (`target` None). The seat must still hold them:
        a menu drawn before others left names the seat as it was then."""
        self.require_host(user_id)
        if not 0 <= seat < len(self.seats) or self.seats[seat].user_id != target:
            raise Refusal("seat_changed")
        if target == self._row.host_id:
            raise Refusal("remove_host")
        removed = self.seats[seat]
        await self._save_seats(self._without(seat))
        if not removed.is_bot:
            self.removed = [n for n in self.removed if n != removed.name][-(_REMOVED - 1):]
            self.removed.append(removed.name)
        return removed

    async def invite(self, user_id: int, target_id: int) -> bool:
        """The host invites a member to a private lobby; True if newly invited."""
        self._require_private(user_id)
        new = target_id not in self.invited
        if new:
            await games.add_invites(self._db, self._row.id, [target_id])
            self.invited.add(target_id)
        return new

    async def uninvite(self, user_id: int, target_id: int) -> None:
        """The host withdraws an invite; an invited member seated in the lobby
        leaves their seat with it."""
        self._require_private(user_id)
        if target_id == self._row.host_id or target_id not in self.invited:
            raise Refusal("not_invited")
        await games.remove_invite(self._db, self._row.id, target_id)
        self.invited.discard(target_id)
        seat = self.seat_of(target_id)
        if seat is not None:
            await self._save_seats(self._without(seat))

    async def change_rules(self, user_id: int, rules: TableRules) -> None:
        """The host of a private lobby changes its house rules before the start."""
        self._require_private(user_id, "rules_public")
        if len(self.seats) > rules.max_players:
            raise Refusal("table_full", max=rules.max_players)
        await games.set_rules(self._db, self._row.id, rules.to_json())
        self.rules = rules

    async def check_start(self, user_id: int, computers_only: bool) -> None:
        """Refusal unless the host may start the game now."""
        self.require_host(user_id)
        if len(self.seats) < 2:
            raise Refusal("need_two_players")
        if all(s.is_bot for s in self.seats) and not computers_only:
            raise Refusal("need_a_person")
        await self._refuse_banned(self.seats, user_id)  # a ban may have come since

    def _require_room(self) -> None:
        if len(self.seats) >= self.rules.max_players:
            raise Refusal("table_full", max=self.rules.max_players)

    def _require_private(self, user_id: int, public: str = "invite_public") -> None:
        self.require_host(user_id)
        if self._row.public:
            raise Refusal(public)

    async def _refuse_banned(self, seats: Sequence[SeatInfo], user_id: int) -> None:
        """R19: nobody banned from public tables plays at one, whether they
        join, host or were seated before their ban began."""
        if self._row.public:
            await refuse_banned(self._db, self._clock, self._row.guild_id,
                                [(s.user_id, s.name) for s in seats if s.user_id is not None],
                                user_id)

    def _without(self, seat: int) -> list[SeatInfo]:
        rest = self.seats[:seat] + self.seats[seat + 1:]
        return [replace(s, index=i) for i, s in enumerate(rest)]

    async def _save_seats(self, seats: list[SeatInfo]) -> None:
        await games.update_lobby_seats(self._db, self._row.id, [seat_row(s) for s in seats])
        self.seats = seats


async def refuse_banned(db: Database, clock: ClockSource, guild_id: int,
                        people: Sequence[tuple[int, str]], actor: int) -> None:
    """Refusal (R19) if one of `people` is banned from the guild's public
    tables now: "banned" when it is the actor, "seat_banned" naming another."""
    now = clock.now()
    for user_id, name in people:
        ban = await bans.active_ban(db, guild_id, user_id, now)
        if ban is None:
            continue
        if user_id == actor:
            raise Refusal("banned", "R19", until=ban.until)
        raise Refusal("seat_banned", "R19", name=name, until=ban.until)


def seat_row(seat: SeatInfo) -> Seat:
    return Seat(seat.index, seat.name, user_id=seat.user_id, computer=seat.level)


def seat_infos(loaded: LoadedGame) -> list[SeatInfo]:
    return [SeatInfo(s.seat, s.user_id, s.computer, s.name) for s in loaded.seats]
