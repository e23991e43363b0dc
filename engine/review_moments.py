"""The decisions of a finished game, each with what its seat saw then.

`decisions(record, seats)` replays a `toep-replay/1` record and yields, for
every event a reviewed seat chose where more than one choice was legal, the
event's index, the event, and the seat's `SeatView` just before it. The view
is all the review reads of the game: it holds no card the seat had not seen,
so a review cannot depend on one (the twin-deal principle, docs/design.md).

Reviewed are the decisions whose worth is counted in marks within the round:
a card or a toep, a call or a fold, playing in or sitting out a dead man's
round. A vuile was call, a check, a super toep answer and the play of a
super toep are not reviewed (their worth lies in a new hand, in another's
hand or in the whole game).
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
from engine.state import SUPER_TOEP, Phase
from engine.views import SeatView, seat_view

log = logging.getLogger(__name__)

REVIEWED_PHASES = frozenset({Phase.PLAY, Phase.TOEP_ANSWER, Phase.DEAD_MAN_CHOICE})


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
        seat = event.seat
        if (seat is not None and seat in seats and event.do != ev.FORFEIT
                and game.phase in REVIEWED_PHASES and game.kind != SUPER_TOEP):
            view = seat_view(game, seat)
            if len(view.legal) > 1:
                found.append(Decision(index, event, view))
        try:
            game.apply(event)
        except IllegalEvent as err:
            raise ReplayError(index, replay_line(err)) from None
    if not game.over:
        raise ReplayError(None, "the game is not finished; only a finished game is reviewed")
    # Yielded only once the whole record replayed: a bad record reviews nothing.
    yield from found
