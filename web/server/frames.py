"""The frames a viewer's websocket carries, built from what each may see.

The table's part is built from the snapshot's `PublicView` alone, and is the
same for every viewer of one language; a seated player's own part only from
their own `SeatView` (their hand, their legal moves, the laid-down cards of
a vuile was they checked). No other source of cards is read here, so a frame
can hold no card its viewer may not see. The event history is left out: it
is public, but a page does not need it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cogs.render_hand import answer_verbs
from cogs.render_text import happening_line, raw_names
from engine import events as ev
from engine.cards import Card
from engine.events import Happening
from engine.views import PublicView, SeatView
from tables.snapshot import TableSnapshot

Json = dict[str, Any]


def table_frame(snap: TableSnapshot, recent: Sequence[Happening], lang: str) -> Json:
    """The public table: the same for every viewer of `lang`."""
    names = raw_names(snap)
    clock = snap.clock
    return {
        "table": snap.table_id,
        "status": snap.status.value,
        "public": snap.public,
        "host": str(snap.host_id),
        "stamp": snap.stamp,
        "end_reason": snap.end_reason,
        "seats": [{"index": s.index, "name": s.name, "user": None if s.user_id is None
                   else str(s.user_id), "level": s.level} for s in snap.seats],
        "rules": {"limit": snap.rules.limit, "max_players": snap.rules.max_players,
                  "max_stake": snap.rules.max_stake},
        "game": None if snap.view is None else _public(snap.view),
        "clock": None if clock is None else {
            "seats": list(clock.seats), "window": clock.window, "paused": clock.paused,
            "deadline": None if clock.deadline is None else clock.deadline.timestamp()},
        "passed": sorted(snap.passed),
        "recent": [happening_line(h, names, lang).replace("**", "") for h in recent],
    }


def seat_frame(snap: TableSnapshot, view: SeatView) -> Json:
    """One seat's own part: only ever sent to the person in that seat. The
    answers are the hand panel's buttons (a play is a card of `playable`)."""
    return {
        "seat": view.seat,
        "hand": _cards(view.hand),
        "playable": [e.card.text for e in view.legal if e.do == ev.PLAY and e.card is not None],
        "answers": sorted(answer_verbs(snap, view)),
        "laid_down": [{"caller": ld.caller, "cards": _cards(ld.cards)} for ld in view.laid_down],
    }


def _public(view: PublicView) -> Json:
    return {
        "players": list(view.players),
        "phase": view.phase.value,
        "round": view.round,
        "kind": view.kind,
        "stake": view.stake,
        "limit": view.rules.limit,
        "marks": list(view.marks),
        "out": list(view.out),
        "forfeited": list(view.forfeited),
        "in_round": list(view.in_round),
        "folded": list(view.folded),
        "sat_out": list(view.sat_out),
        "had_dead_man": list(view.had_dead_man),
        "hand_sizes": list(view.hand_sizes),
        "table": [[seat, card.text] for seat, card in view.table],
        "tricks": [{"number": t.number, "winner": t.winner,
                    "cards": [[seat, card.text] for seat, card in t.cards]}
                   for t in view.tricks],
        "open_hands": [[seat, _cards(cards)] for seat, cards in view.open_hands],
        "dead_men": list(view.dead_men),
        "last_toeper": view.last_toeper,
        "waiting": list(view.waiting),
        "window": view.window,
        "caller": view.caller,
        "checkers": list(view.checkers),
        "winner": view.winner,
        "event_count": view.event_count,
    }


def _cards(cards: Sequence[Card]) -> list[str]:
    return [card.text for card in cards]
