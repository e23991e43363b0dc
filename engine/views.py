"""What each seat may see (docs/design.md, "What each player sees").

The public view holds everything on the table: slates, the stake, cards
played, a caught bluffer's open hand, whose turn it is. A seat's view adds its
own hand, its legal events, and the laid-down cards of a checked vuile was if
it was one of the checkers. No view ever holds another seat's hidden cards.
The event log is public too (it holds no hidden card), so views carry it as
the history a computer player may read.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.events import Event
from engine.game import Game
from engine.rules import TableRules
from engine.state import LaidDown, Phase, RoundSummary, Trick


@dataclass(frozen=True)
class PublicView:
    players: tuple[str, ...]
    rules: TableRules
    phase: Phase
    round: int
    kind: str
    stake: int
    marks: tuple[int, ...]
    out: tuple[bool, ...]
    forfeited: tuple[bool, ...]
    in_round: tuple[bool, ...]
    folded: tuple[bool, ...]
    sat_out: tuple[bool, ...]
    fold_count: tuple[int, ...]
    had_dead_man: tuple[bool, ...]
    hand_sizes: tuple[int, ...]
    table: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    open_hands: tuple[tuple[int, tuple[Card, ...]], ...]
    barred: tuple[bool, ...]
    caught: tuple[int, ...]  # checked calls caught as a bluff, per caller, this game
    shown_genuine: tuple[int, ...]  # checked calls shown genuine, per caller
    dead_men: tuple[int, ...]
    last_toeper: int | None
    waiting: tuple[int, ...]
    window: bool
    caller: int | None
    checkers: tuple[int, ...]
    trick_leader: int
    due_leader: int
    stock_size: int
    discard_size: int
    row: int
    winner: int | None
    rounds: tuple[RoundSummary, ...]
    history: tuple[Event, ...]
    event_count: int

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def led_suit(self) -> str | None:
        return self.table[0][1].suit.value if self.table else None


@dataclass(frozen=True)
class SeatView:
    seat: int
    public: PublicView
    hand: tuple[Card, ...]
    legal: tuple[Event, ...]
    laid_down: tuple[LaidDown, ...]

    @property
    def my_turn(self) -> bool:
        return self.seat in self.public.waiting


def public_view(game: Game) -> PublicView:
    waiting = game.waiting()
    in_call = game.phase is Phase.CHECK
    return PublicView(
        players=game.players,
        rules=game.rules,
        phase=game.phase,
        round=game.round_number,
        kind=game.kind,
        stake=game.stake,
        marks=tuple(game.marks),
        out=tuple(game.out),
        forfeited=tuple(game.forfeited),
        in_round=tuple(game.in_round),
        folded=tuple(game.folded),
        sat_out=tuple(game.sat_out),
        fold_count=tuple(game.fold_count),
        had_dead_man=tuple(game.had_dead_man),
        hand_sizes=tuple(len(h) for h in game.hands),
        table=tuple(game.table),
        tricks=tuple(game.tricks),
        # Sorted: the order the cards were dealt in is nobody's business.
        open_hands=tuple((s, tuple(sorted(game.hands[s]))) for s in range(game.n)
                         if game.open_hand[s] and game.hands[s]),
        barred=tuple(game.barred),
        caught=tuple(game.caught),
        shown_genuine=tuple(game.shown_genuine),
        dead_men=game.dead_men,
        last_toeper=game.last_toeper,
        waiting=waiting.seats,
        window=waiting.window,
        caller=game.call_caller if in_call else None,
        checkers=tuple(game.call_checkers) if in_call else (),
        trick_leader=game.trick_leader,
        due_leader=game.due_leader,
        stock_size=len(game.stock),
        discard_size=len(game.discards),
        row=game.row,
        winner=game.winner,
        rounds=tuple(game.rounds),
        history=tuple(game.events),
        event_count=len(game.events),
    )


def seat_view(game: Game, seat: int, public: PublicView | None = None) -> SeatView:
    return SeatView(
        seat=seat,
        public=public_view(game) if public is None else public,
        hand=tuple(sorted(game.hands[seat])),
        legal=tuple(game.legal_events(seat)),
        laid_down=tuple(ld for ld in game.laid_down if seat in ld.checkers),
    )
