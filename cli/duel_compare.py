"""`python -m cli.duel --compare A:B`: one player against another in the same seat.

Seat 0 plays as A and again as B, on the same duplicate deals and the same
whole games, against the same players in the other seats (their seeds follow
their entries, so they are the same players both times). Each deal gives one
paired sample, B's figure minus A's, so the luck of the cards cancels out of
the difference; its 95% interval is taken over deals (games: over games).
Below 0 in marks per round means B takes fewer marks than A: B gains.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TextIO

from cli.duel_play import DealResult, DuelSetup, GameResult, play_deal, play_game, run_all
from cli.duel_stats import Interval, mean_interval, wilson_interval


@dataclass(frozen=True)
class Side:
    """Seat 0's figures as one of the two players."""

    name: str
    marks_per_round: Interval | None
    round_share: Interval | None
    games_won: Interval | None


@dataclass(frozen=True)
class Comparison:
    a: Side
    b: Side
    marks_gain: Interval | None  # B minus A, per round
    share_gain: Interval | None  # B minus A, share of rounds won
    games_gain: Interval | None  # B minus A, share of games won


def _per_round(deals: Sequence[DealResult], seats: int, marks: bool) -> list[float]:
    """Seat 0's marks (or rounds won) per round, one sample per deal."""
    return [(d.entry_marks if marks else d.entry_wins)[0] / seats for d in deals]


def _won(games: Sequence[GameResult]) -> list[float]:
    return [1.0 if g.winner_entry == 0 else 0.0 for g in games]


def _interval(samples: Sequence[float]) -> Interval | None:
    return mean_interval(samples) if samples else None


def _side(name: str, deals: Sequence[DealResult], games: Sequence[GameResult],
          seats: int) -> Side:
    won = _won(games)
    return Side(name, _interval(_per_round(deals, seats, True)),
                _interval(_per_round(deals, seats, False)),
                wilson_interval(int(sum(won)), len(won)) if won else None)


def _gain(a: Sequence[float], b: Sequence[float]) -> Interval | None:
    return _interval([y - x for x, y in zip(a, b, strict=True)])


def compare(setup: DuelSetup, second: str, deals: int, games: int,
            workers: int) -> Comparison:
    """`setup` seats A at seat 0; B is `second`."""
    b_setup = replace(setup, entries=(second, *setup.entries[1:]))
    n = setup.seats
    a_deals = run_all(play_deal, setup, deals, workers)
    b_deals = run_all(play_deal, b_setup, deals, workers)
    a_games = run_all(play_game, setup, games, workers)
    b_games = run_all(play_game, b_setup, games, workers)
    return Comparison(
        _side(setup.entries[0], a_deals, a_games, n),
        _side(second, b_deals, b_games, n),
        _gain(_per_round(a_deals, n, True), _per_round(b_deals, n, True)),
        _gain(_per_round(a_deals, n, False), _per_round(b_deals, n, False)),
        _gain(_won(a_games), _won(b_games)),
    )


def _json(i: Interval | None) -> list[float | None] | None:
    return None if i is None else i.to_json()


def comparison_json(c: Comparison) -> dict[str, object]:
    def side(s: Side) -> dict[str, object]:
        return {"player": s.name, "marks_per_round": _json(s.marks_per_round),
                "round_share": _json(s.round_share), "games_won": _json(s.games_won)}
    return {"a": side(c.a), "b": side(c.b),
            "b_minus_a": {"marks_per_round": _json(c.marks_gain),
                          "round_share": _json(c.share_gain),
                          "games_won": _json(c.games_gain)}}


def _fmt(i: Interval | None, scale: float, sign: bool = False) -> str:
    if i is None:
        return "-"
    f = "+.2f" if sign else ".2f"
    if scale != 1.0:
        f = "+.1f" if sign else ".1f"
    text = f"{scale * i.value:{f}}"
    if i.low is None or i.high is None:
        return text
    return f"{text} [{scale * i.low:{f}}, {scale * i.high:{f}}]"


def write_comparison(c: Comparison, out: TextIO) -> None:
    print(f"{'seat 0':<16} {'marks/round':<22} {'games won %':<22} {'rounds won %':<22}",
          file=out)
    for label, s in (("A " + c.a.name, c.a), ("B " + c.b.name, c.b)):
        print(f"{label:<16} {_fmt(s.marks_per_round, 1):<22} {_fmt(s.games_won, 100):<22} "
              f"{_fmt(s.round_share, 100):<22}", file=out)
    print(f"{'B - A':<16} {_fmt(c.marks_gain, 1, True):<22} "
          f"{_fmt(c.games_gain, 100, True):<22} {_fmt(c.share_gain, 100, True):<22}", file=out)
    print("B - A below 0 in marks/round: B takes fewer marks than A (B gains); "
          "paired 95% intervals", file=out)
