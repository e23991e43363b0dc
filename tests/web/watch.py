"""Every frame a page receives, checked against the game as it stands: the
seat's own part for the person in that seat only, its hand exactly, and no
card of anyone else's anywhere in it (issue 30's worst bug)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from typing import Any

from cogs.render_text import happening_line
from data.gameload import load_game
from engine.game import Game
from engine.record import replay_json, result, to_record
from tables.rebuild import rebuild
from tables.table import Table
from tests.e2e.toep_world import World, careful

Frame = dict[str, Any]


def marker(table: Table) -> tuple[Any, ...]:
    """What a frame of the table as it stands now must say."""
    game = table.game
    count = None if game is None else len(game.events)
    return table.status.value, count, sorted(table.passed), len(table.seats)


def frame_marker(frame: Frame) -> tuple[Any, ...]:
    game = frame["game"]
    return (frame["status"], None if game is None else game["event_count"], frame["passed"],
            len(frame["seats"]))


class Watch:
    """`frames[name]`: the table frames `name`'s page received, in order (a
    list the page's reader appends to); `langs[name]`: its language."""

    def __init__(self, world: World, frames: Mapping[str, Sequence[Frame]],
                 langs: Mapping[str, str] | None = None) -> None:
        self.world, self.frames = world, frames
        self.langs = langs or {}
        self.checked = 0
        self.seen = dict.fromkeys(frames, 0)

    def check_new(self) -> None:
        table = self.world.table()
        for name, frames in self.frames.items():
            for frame in frames[self.seen[name]:]:
                self._check(table, name, frame)
            self.seen[name] = len(frames)

    def _check(self, table: Table, name: str, frame: Frame) -> None:
        seat = table.seat_of(self.world.people[name].id)
        me = frame["me"]
        if seat is None or table.game is None:
            assert me is None, f"{name} sits nowhere but got a seat's part"
        else:
            assert me is not None and me["seat"] == seat
        game = table.game
        if game is None or frame_marker(frame) != marker(table):
            return  # a lobby holds no cards; an older state was checked as it came
        opened = {c.text for s in range(game.n) if game.open_hand[s] for c in game.hands[s]}
        foreign = {c.text for s, hand in enumerate(game.hands) if s != seat
                   for c in hand} - opened
        leaked = sorted(foreign & _strings(frame))
        assert leaked == [], f"{name} was sent another seat's card: {leaked}"
        # The "what happened" lines are the table message's, from public happenings.
        names = tuple(s.name for s in table.seats)
        lang = self.langs.get(name, "en")
        assert frame["recent"] == [happening_line(h, names, lang).replace("**", "")
                                   for h in table.recent]
        if seat is not None:
            assert sorted(me["hand"]) == sorted(c.text for c in game.hands[seat])
        self.checked += 1

    async def caught_up(self, timeout: float = 10.0) -> None:
        """Every page shows the table as it stands (a moment in the middle of a
        save, such as a window closing, is passed by); then their frames are checked."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            want = marker(self.world.table())
            behind = [name for name, frames in self.frames.items()
                      if not frames or frame_marker(frames[-1]) != want]
            if not behind:
                break
            assert loop.time() < deadline, f"{behind} did not catch up with {want}"
            await asyncio.sleep(0.01)
        self.check_new()


def next_move(world: World) -> tuple[str, str, str | None]:
    """Who answers next, what and with which card, as a careful player would."""
    table = world.table()
    game = table.game
    assert game is not None
    seat = next(s for s in game.waiting().seats if s not in table.passed)
    who = world.name_of(table.seats[seat].user_id)
    choice = careful(game, seat)
    assert who is not None and choice is not None
    return who, *choice


async def moved_on(world: World, before: tuple[Any, ...]) -> None:
    await world.fake.wait_for(lambda: marker(world.table()) != before)


async def replays_to_the_same_end(world: World, table: Table, played: Game) -> None:
    """The game's record, read back from the database, replays to its outcome."""
    assert world.bot is not None
    loaded = await load_game(world.bot.db, table.id)
    record = to_record(rebuild(loaded, 8).game, table.row.seed)
    assert result(replay_json(json.loads(json.dumps(record)))) == result(played)


def _strings(frame: Frame) -> set[str]:
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(frame)
    return found
