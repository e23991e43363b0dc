"""The decisions of a finished game, each with what its seat saw then.

`decisions(record, seats)` replays a `toep-replay/1` record and yields, for
every event a reviewed seat chose where more than one choice was legal, the
event's index, the event, and the seat's `SeatView` just before it. The view
is all the review reads of the game: it holds no card the seat had not seen,
so a review cannot depend on one (the twin-deal principle, docs/design.md).

Reviewed are the decisions whose worth is counted in marks: a card or a
toep (also in a super toep), a call or a fold, playing in or sitting out a
dead man's round, a vuile was call, and a check or a belief. Silence in the
vuile was moment is no event (R17): a seat that could call and did not
passed, and its pass is judged at the event that closed the window, with
the hand it then played the round with (`close_window`, its choice). A super
toep answer is reviewed too, by the whole game's chances on the mark scale
of a game's end (engine/review_super.py).
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterator
from dataclasses import dataclass

from engine import events as ev
from engine.errors import IllegalEvent, RecordError
from engine.events import Event
from engine.game import Game
from engine.record import ReplayError, load_record, new_game, parse_event
from engine.refusal_words import replay_line
from engine.state import Phase
from engine.views import SeatView, seat_view

log = logging.getLogger(__name__)

REVIEWED_PHASES = frozenset({Phase.PLAY, Phase.TOEP_ANSWER, Phase.DEAD_MAN_CHOICE,
                             Phase.WINDOW, Phase.CHECK, Phase.SUPER_QUESTION})


@dataclass(frozen=True)
class Decision:
    index: int  # into the record's events
    chosen: Event
    view: SeatView  # the seat's view just before the event


def replayed(record: object) -> tuple[Game, list[Event]]:
    """The game before its first event and the record's events, checked;
    raises ReplayError as the replay command does."""
    try:
        parsed = load_record(record)
    except RecordError as err:
        raise ReplayError(None, str(err)) from None
    game = new_game(parsed)
    events: list[Event] = []
    for index, raw in enumerate(parsed.events):
        try:
            events.append(parse_event(raw, game.n))
        except RecordError as err:
            raise ReplayError(index, str(err)) from None
    return game, events


def decisions(record: object, seats: Collection[int]) -> Iterator[Decision]:
    """The reviewed decisions of `seats`, in the record's order. The game must
    be over: a game in progress is never reviewed (nor exported)."""
    game, events = replayed(record)
    if not events and not game.over:
        raise ReplayError(None, "the game is not finished; only a finished game is reviewed")
    found: list[Decision] = []
    for index, event in enumerate(events):
        found.extend(_made(game, index, event, seats))
        try:
            game.apply(event)
        except IllegalEvent as err:
            raise ReplayError(index, replay_line(err)) from None
    if not game.over:
        raise ReplayError(None, "the game is not finished; only a finished game is reviewed")
    # Yielded only once the whole record replayed: a bad record reviews nothing.
    yield from found


def _made(game: Game, index: int, event: Event, seats: Collection[int]) -> list[Decision]:
    """The reviewed decisions `event` makes: its seat's choice, or at the
    close of the vuile was moment the pass of every seat that could call."""
    if game.phase not in REVIEWED_PHASES:
        return []
    if event.do == ev.CLOSE_WINDOW:
        views = (seat_view(game, seat) for seat in sorted(seats))
        return [Decision(index, event, view) for view in views if could_call(view)]
    seat = event.seat
    if seat is None or seat not in seats or event.do == ev.FORFEIT:
        return []
    view = seat_view(game, seat)
    if len(view.legal) > 1 or (event.do == ev.VUILE_WAS and could_call(view)):
        return [Decision(index, event, view)]
    return []


def could_call(view: SeatView) -> bool:
    """Whether the seat may call vuile was now: then calling and passing are its choices."""
    return view.public.phase is Phase.WINDOW and any(e.do == ev.VUILE_WAS for e in view.legal)
