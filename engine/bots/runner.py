"""Drive a game forward with computer players (duels, benches, tests).

Windows are answered the way a live table answers them: every seat the window
waits for is asked, starting at a seat that moves on with every event so no
seat is always first; the first call is applied, and silence from all closes
the window.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine import events as ev
from engine.bots.base import Bot
from engine.events import Event
from engine.game import Game, Phase
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
    return _silence(game, waiting.seats)


def _silence(game: Game, seats: tuple[int, ...]) -> Event:
    """What silence in the current window stands for (R17)."""
    if game.phase is Phase.CHECK:
        return ev.act(ev.BELIEVE, seats[0])
    if game.phase is Phase.SUPER_QUESTION:
        return ev.act(ev.SUPER_NO, seats[0])
    return ev.act(ev.CLOSE_WINDOW)


def play_out(game: Game, bots: Mapping[int, Bot], max_events: int = 200_000) -> Game:
    """Play until the game is over."""
    for _ in range(max_events):
        if game.over:
            return game
        game.apply(next_event(game, bots))
    raise RuntimeError(f"the game did not end within {max_events} events")
