"""A finished game's record as one seat saw it (docs/records.md, "A seat's view").

`seat_view_record(record, seat)` replays a `toep-replay/1` record with the
engine and writes every card that seat never saw as `"??"`. It works on
places, not on card names: a place is one slot of a deal, either a seat's
dealt hand (`hands[s][i]`) or a slot of the deal's draw pile, the stock
followed by each reshuffle in turn (the order in which vuile was callers draw
their new hands). A place is shown when the seat saw the card that lay there:

- its own dealt hand, and the new hands it drew itself (vuile was);
- a card another seat played, at the place that seat's hand came from;
- a caught bluffer's open hand, while the public view showed it open;
- the laid-down cards of a checked, genuine vuile was, if the seat checked.

Everything else is hidden: other hands, the stock and the reshuffles, an
unchecked vuile was. Knowing a card is not enough to show it elsewhere: the
seat's own old cards, shuffled back under the stock, stay hidden there, since
where they went would tell who drew them.

The result keeps `format`, `rules`, `players`, `first_leader`, the deals
(as the engine used them, every chance outcome fixed) and the events (they
hold no hidden card), and adds `"view": SEAT`. The seed is left out: it
could deal the game again. Pure: no I/O, no clock, no random generator.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from engine.cards import Card
from engine.errors import IllegalEvent, RecordError
from engine.events import Dealt, Happening, VuileWasOutcome
from engine.game import Game
from engine.record import FORMAT, ReplayError, load_record, new_game, parse_event
from engine.refusal_words import replay_line
from engine.views import seat_view

log = logging.getLogger(__name__)

HIDDEN = "??"

# A place in one deal: ("hand", seat, i) or ("pile", j), j counting through
# the stock and then the reshuffles in order.
Place = tuple[str, int] | tuple[str, int, int]


class _Deal:
    """What one seat saw of one deal, and where each seat's current hand lies."""

    def __init__(self, game: Game, index: int, seat: int) -> None:
        self.index = index
        entry = game.deal_log[index]
        self.seen: set[Place] = set()
        # card index -> place, for the hand each seat holds now
        self.where: list[dict[int, Place]] = [
            {} if hand is None else {c.index: ("hand", s, i) for i, c in enumerate(hand)}
            for s, hand in enumerate(entry.hands)
        ]
        self.seen.update(self.where[seat].values())

    def saw(self, owner: int, cards: tuple[Card, ...] | list[Card]) -> None:
        for card in cards:
            place = self.where[owner].get(card.index)
            if place is None:
                raise AssertionError(f"deal {self.index}: {card.text} is not where seat "
                                     f"{owner}'s hand came from")
            self.seen.add(place)

    def draw(self, game: Game, owner: int, seat: int) -> None:
        """`owner` holds a new hand: the last cards taken from the draw pile."""
        entry = game.deal_log[self.index]
        pile = list(entry.stock) + [c for r in entry.reshuffles for c in r]
        taken = len(pile) - len(game.stock)
        hand = game.hands[owner]
        start = taken - len(hand)
        if start < 0 or {c.index for c in pile[start:taken]} != {c.index for c in hand}:
            raise AssertionError(f"deal {self.index}: seat {owner}'s new hand is not "
                                 "the top of the draw pile")
        self.where[owner] = {pile[j].index: ("pile", j) for j in range(start, taken)}
        if owner == seat:
            self.seen.update(self.where[owner].values())


class _Watcher:
    """Replays alongside the game, collecting the places `seat` saw."""

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.seat = seat
        self.deals: list[_Deal] = []
        self._new_deals()
        self._look()

    @property
    def current(self) -> _Deal:
        return self.deals[-1]

    def _new_deals(self) -> bool:
        added = False
        while len(self.deals) < len(self.game.deal_log):
            self.deals.append(_Deal(self.game, len(self.deals), self.seat))
            added = True
        return added

    def before(self, event_seat: int | None, card: Card | None) -> None:
        """A card about to be played is public: note its place."""
        if event_seat is not None and card is not None:
            self.current.saw(event_seat, [card])

    def after(self, happenings: tuple[Happening, ...], hands_before: list[list[Card]]) -> None:
        game = self.game
        deal = self.current
        for h in happenings:
            if (isinstance(h, VuileWasOutcome) and h.genuine is True
                    and self.seat in h.checkers):
                # The laid-down cards: the caller's hand when the call was settled.
                deal.saw(h.caller, hands_before[h.caller])
        if self._new_deals():
            # A new deal ends the old one within this event; nothing drawn in between.
            self._look()
            return
        for s in range(game.n):
            hand = game.hands[s]
            if hand and any(c.index not in deal.where[s] for c in hand):
                deal.draw(game, s, self.seat)
        if any(isinstance(h, (VuileWasOutcome, Dealt)) for h in happenings):
            self._look()

    def _look(self) -> None:
        """What the seat's view shows now: its own hand and any open hand."""
        view = seat_view(self.game, self.seat)
        deal = self.current
        deal.saw(self.seat, list(view.hand))
        for owner, cards in view.public.open_hands:
            deal.saw(owner, cards)


def _mask(cards: list[Card], places: list[Place], seen: set[Place]) -> list[str]:
    return [c.text if p in seen else HIDDEN for c, p in zip(cards, places, strict=True)]


def _masked_deal(game: Game, deal: _Deal) -> dict[str, Any]:
    entry = game.deal_log[deal.index]
    hands: list[list[str] | None] = []
    for s, hand in enumerate(entry.hands):
        if hand is None:
            hands.append(None)
            continue
        hands.append(_mask(hand, [("hand", s, i) for i in range(len(hand))], deal.seen))
    stock = entry.stock
    out: dict[str, Any] = {
        "hands": hands,
        "stock": _mask(stock, [("pile", j) for j in range(len(stock))], deal.seen),
    }
    if entry.leader is not None:
        out["leader"] = entry.leader
    if entry.reshuffles:
        offset = len(stock)
        reshuffles = []
        for order in entry.reshuffles:
            places: list[Place] = [("pile", offset + j) for j in range(len(order))]
            reshuffles.append(_mask(order, places, deal.seen))
            offset += len(order)
        out["reshuffles"] = reshuffles
    return out


def seat_view_record(record: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """The record of a finished game as `seat` saw it: `"view": seat`, and
    `"??"` for every card the seat never saw.

    Raises ReplayError (its line starts `record:` or `event N:`, as the
    replay command's) for a malformed record, a seat that is not at the
    table, an event that does not replay, or a game that is not over: a game
    in progress is never exported.
    """
    try:
        parsed = load_record(record)
    except RecordError as err:
        raise ReplayError(None, str(err)) from None
    if type(seat) is not int or not 0 <= seat < len(parsed.players):
        raise ReplayError(None, f"there is no seat {seat!r} at this table")
    game = new_game(parsed)
    watcher = _Watcher(game, seat)
    for index, raw in enumerate(parsed.events):
        try:
            event = parse_event(raw, game.n)
            game.verify(event)
            watcher.before(event.seat, event.card)
            hands_before = [list(h) for h in game.hands]
            happenings = game.apply(event)
        except IllegalEvent as err:
            raise ReplayError(index, replay_line(err)) from None
        except RecordError as err:
            raise ReplayError(index, str(err)) from None
        watcher.after(happenings, hands_before)
    if not game.over:
        raise ReplayError(None, "the game is not finished; only a finished game is "
                                "shown as a seat's view")
    return {
        "format": FORMAT,
        "view": seat,
        "rules": game.rules.to_json(),
        "players": list(game.players),
        "first_leader": game.first_leader,
        "deals": [_masked_deal(game, deal) for deal in watcher.deals],
        "events": [e.to_json() for e in game.events],
    }
