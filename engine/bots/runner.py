"""Drive a game forward with computer players (duels, benches, tests).

Turns go to the one seat on turn. In a window every seat it waits for is
asked in turn, starting at a seat that moves on with every event so no seat
is always first, and the first answer that is not silence is applied at once;
silence from all of them counts as R17 says (engine/silence.py). A live table
differs in timing only: there the computers answer after a pause, people
answer when they like, and the window's clock may end it.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.bots.base import Bot
from engine.events import Event
from engine.game import Game
from engine.silence import everyone_silent
from engine.views import public_view, seat_view


def next_event(game: Game, bots: Mapping[int, Bot]) -> Event:
    """The next event of a game where every seat the game waits for is a bot."""
    waiting = game.waiting()
    public = public_view(game)
    if not waiting.window:
        for seat in waiting.seats:
            event = bots[seat].decide(seat_view(game, seat, public))
            if event is None:
                raise RuntimeError(f"{bots[seat].level} bot at seat {seat} kept silent "
                                   "on its turn")
            return event
        raise RuntimeError("the game waits for nobody")
    seats = waiting.seats
    start = len(game.events) % len(seats) if seats else 0
    for seat in seats[start:] + seats[:start]:
        event = bots[seat].decide(seat_view(game, seat, public))
        if event is not None:
            return event
    return everyone_silent(game)


def play_out(game: Game, bots: Mapping[int, Bot], max_events: int = 200_000) -> Game:
    """Play until the game is over."""
    for _ in range(max_events):
        if game.over:
            return game
        game.apply(next_event(game, bots))
    raise RuntimeError(f"the game did not end within {max_events} events")


def computer_event(game: Game, bots: Mapping[int, Bot], person: int) -> Event:
    """The next event of a game where the computers answer around one person
    who is not waited for now (or has passed the open window): as
    `next_event`, with the person left out (a practice game, a daily board)."""
    waiting = game.waiting()
    public = public_view(game)
    seats = [s for s in waiting.seats if s != person]
    if not waiting.window:
        event = bots[seats[0]].decide(seat_view(game, seats[0], public))
        if event is None:
            raise RuntimeError(f"computer at seat {seats[0]} kept silent on its turn")
        return event
    if seats:
        start = len(game.events) % len(seats)
        for seat in seats[start:] + seats[:start]:
            event = bots[seat].decide(seat_view(game, seat, public))
            if event is not None:
                return event
    return everyone_silent(game)
