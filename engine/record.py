"""Game records in the `toep-replay/1` format (docs/records.md): read, write, replay."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import events as ev
from engine.cards import CardError, parse_card
from engine.chance import RandomChance, RecordChance
from engine.errors import IllegalEvent, RecordError
from engine.events import Event
from engine.game import Game
from engine.refusal_words import replay_line
from engine.rules import RulesError, TableRules

FORMAT = "toep-replay/1"


@dataclass(frozen=True)
class GameRecord:
    rules: TableRules
    players: tuple[str, ...]
    first_leader: int | None
    seed: int
    deals: tuple[object, ...]
    events: tuple[object, ...]


class ReplayError(Exception):
    """A record that does not replay. `event` is the index of the event at
    fault, or None for a problem of the record itself."""

    def __init__(self, event: int | None, message: str) -> None:
        self.event = event
        self.text = message
        super().__init__(self.line())

    def line(self) -> str:
        where = "record" if self.event is None else f"event {self.event}"
        return f"{where}: {self.text}"


def load_record(data: object) -> GameRecord:
    """Check the record's own parts (format, rules, players, seed); the deals
    and events are checked when they are used."""
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object")
    if "view" in data:
        raise RecordError("this is a seat's view of a game, for reading; it cannot be replayed")
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, got {data.get('format')!r}")
    try:
        rules = TableRules.from_json(data.get("rules", {}))
    except RulesError as err:
        raise RecordError(f"rules: {err}") from None
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("players must be a list of names")
    if not 2 <= len(players) <= rules.max_players:
        raise RecordError(f"a table seats 2 to {rules.max_players} players (V12), "
                          f"this record has {len(players)}")
    first = data.get("first_leader")
    if first is not None and (type(first) is not int or not 0 <= first < len(players)):
        raise RecordError(f"first_leader must be a seat from 0 to {len(players) - 1}, "
                          f"got {first!r}")
    seed = data.get("seed", 0)
    if type(seed) is not int:
        raise RecordError(f"seed must be an integer, got {seed!r}")
    deals = data.get("deals", [])
    if not isinstance(deals, list):
        raise RecordError("deals must be a list")
    events = data.get("events", [])
    if not isinstance(events, list):
        raise RecordError("events must be a list")
    return GameRecord(rules, tuple(players), first, seed, tuple(deals), tuple(events))


def parse_event(raw: object, seats: int) -> Event:
    """One event of a record. Raises RecordError for a malformed one."""
    if not isinstance(raw, Mapping):
        raise RecordError("an event must be an object with a 'do'")
    do = raw.get("do")
    if not isinstance(do, str) or do not in ev.ALL_EVENTS:
        raise RecordError(f"unknown event {do!r}")
    if do == ev.CLOSE_WINDOW:
        return ev.act(ev.CLOSE_WINDOW)
    seat = raw.get("seat")
    if type(seat) is not int:
        raise RecordError(f"{do} needs a seat number, got {seat!r}")
    if not 0 <= seat < seats:
        raise RecordError(f"there is no seat {seat}")
    if do != ev.PLAY:
        return ev.act(do, seat)
    card = raw.get("card")
    if not isinstance(card, str):
        raise RecordError(f"seat {seat} plays without a card")
    try:
        return ev.play(seat, parse_card(card))
    except CardError as err:
        raise RecordError(f"seat {seat}: {err}") from None


def new_game(record: GameRecord) -> Game:
    """The game of a record before its first event (the first deal is used)."""
    chance = RecordChance(record.deals, random.Random(record.seed))
    try:
        return Game(record.rules, record.players, chance, record.first_leader)
    except RecordError as err:
        raise ReplayError(None, str(err)) from None


def replay(record: GameRecord) -> Game:
    """Play every event of the record; raise ReplayError at the first that fails."""
    game = new_game(record)
    for index, raw in enumerate(record.events):
        try:
            event = parse_event(raw, game.n)
            game.apply(event)
        except IllegalEvent as err:
            raise ReplayError(index, replay_line(err)) from None
        except RecordError as err:
            raise ReplayError(index, str(err)) from None
    return game


def replay_json(data: object) -> Game:
    try:
        record = load_record(data)
    except RecordError as err:
        raise ReplayError(None, str(err)) from None
    return replay(record)


def to_record(game: Game, seed: int, **extra: Any) -> dict[str, Any]:
    """The record of a game so far: every outcome of chance is fixed in it."""
    out: dict[str, Any] = {
        "format": FORMAT,
        "rules": game.rules.to_json(),
        "players": list(game.players),
        "first_leader": game.first_leader,
        "seed": seed,
        "deals": [d.to_json() for d in game.deal_log],
        "events": [e.to_json() for e in game.events],
    }
    out.update(extra)
    return out


def result(game: Game) -> dict[str, Any]:
    """The replay command's output (docs/records.md, "Output")."""
    return {
        "marks": list(game.marks),
        "out": list(game.out),
        "forfeited": list(game.forfeited),
        "winner": game.winner,
        "round": game.round_number,
        "rounds": [r.to_json() for r in game.rounds],
    }


def play_random_game(players: Sequence[str], rules: TableRules, seed: int,
                     max_events: int = 100_000) -> Game:
    """A whole game of uniformly random legal events (tests and benches)."""
    rng = random.Random(seed)
    game = Game(rules, players, RandomChance(random.Random(seed ^ 0x5EED)))
    for _ in range(max_events):
        if game.over:
            break
        legal = game.legal_events()
        game.apply(legal[rng.randrange(len(legal))])
    return game
