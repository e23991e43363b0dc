"""`python -m cli.duel --compare A:B`: one player against another in the same seat.

Seat 0 plays as A and again as B, on the same duplicate deals and the same
whole games, against the same players in the other seats (their seeds follow
their entries, so they are the same players both times). Each deal gives one
paired sample, B's figure minus A's, so the luck of the cards cancels out of
the difference; its 95% interval is taken over deals (games: over games).
Below 0 in marks per round means B takes fewer marks than A: B gains.

Two yardsticks, printed apart. A duplicate deal is the first round of a fresh
game: nobody has a record at the table yet, so a habit (toeping every round,
say) meets players who cannot know it. Whole games are what a live table
plays: the others see the habit over the rounds and answer it, as `normal`
and `hard` do by each player's record. Over whole games each game is one
paired sample: seat 0's marks per round it was in (and share of those rounds
won) as B, less the same as A, on a game whose round r has the same cards
both times (`RoundChance`); and whether it won the game.
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
    game_marks: Interval | None = None  # over whole games: marks per round it was in
    game_share: Interval | None = None  # over whole games: share of those rounds won


@dataclass(frozen=True)
class Comparison:
    a: Side
    b: Side
    marks_gain: Interval | None  # B minus A, per round
    share_gain: Interval | None  # B minus A, share of rounds won
    games_gain: Interval | None  # B minus A, share of games won
    game_marks_gain: Interval | None = None  # B minus A, over whole games
    game_share_gain: Interval | None = None


def _per_round(deals: Sequence[DealResult], seats: int, marks: bool) -> list[float]:
    """Seat 0's marks (or rounds won) per round, one sample per deal."""
    return [(d.entry_marks if marks else d.entry_wins)[0] / seats for d in deals]


def _won(games: Sequence[GameResult]) -> list[float]:
    return [1.0 if g.winner_entry == 0 else 0.0 for g in games]


def _in_games(games: Sequence[GameResult], marks: bool) -> list[float]:
    """Seat 0's marks (or rounds won) per round it was in, one sample per game."""
    return [(g.entry_marks if marks else g.entry_wins)[0] / g.entry_rounds[0]
            for g in games if g.entry_rounds[0]]


def _interval(samples: Sequence[float]) -> Interval | None:
    return mean_interval(samples) if samples else None


def _side(name: str, deals: Sequence[DealResult], games: Sequence[GameResult],
          seats: int) -> Side:
    won = _won(games)
    return Side(name, _interval(_per_round(deals, seats, True)),
                _interval(_per_round(deals, seats, False)),
                wilson_interval(int(sum(won)), len(won)) if won else None,
                _interval(_in_games(games, True)), _interval(_in_games(games, False)))


def _gain(a: Sequence[float], b: Sequence[float]) -> Interval | None:
    return _interval([y - x for x, y in zip(a, b, strict=True)])


def compare_all(setup: DuelSetup, seconds: Sequence[str], deals: int, games: int,
                workers: int) -> list[Comparison]:
    """`setup` seats A at seat 0; one comparison per B in `seconds`, all on
    the same play of A (A's seats and seeds do not depend on B)."""
    n = setup.seats
    a_deals = run_all(play_deal, setup, deals, workers)
    a_games = run_all(play_game, setup, games, workers)
    a = _side(setup.entries[0], a_deals, a_games, n)
    out = []
    for second in seconds:
        b_setup = replace(setup, entries=(second, *setup.entries[1:]))
        b_deals = run_all(play_deal, b_setup, deals, workers)
        b_games = run_all(play_game, b_setup, games, workers)
        out.append(Comparison(
            a, _side(second, b_deals, b_games, n),
            _gain(_per_round(a_deals, n, True), _per_round(b_deals, n, True)),
            _gain(_per_round(a_deals, n, False), _per_round(b_deals, n, False)),
            _gain(_won(a_games), _won(b_games)),
            _gain(_in_games(a_games, True), _in_games(b_games, True)),
            _gain(_in_games(a_games, False), _in_games(b_games, False)),
        ))
    return out


def _json(i: Interval | None) -> list[float | None] | None:
    return None if i is None else i.to_json()


def comparison_json(c: Comparison) -> dict[str, object]:
    def side(s: Side) -> dict[str, object]:
        return {"player": s.name, "marks_per_round": _json(s.marks_per_round),
                "round_share": _json(s.round_share), "games_won": _json(s.games_won),
                "game_marks_per_round": _json(s.game_marks),
                "game_round_share": _json(s.game_share)}
    return {"a": side(c.a), "b": side(c.b),
            "b_minus_a": {"marks_per_round": _json(c.marks_gain),
                          "round_share": _json(c.share_gain),
                          "games_won": _json(c.games_gain),
                          "game_marks_per_round": _json(c.game_marks_gain),
                          "game_round_share": _json(c.game_share_gain)}}


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
    print("first rounds of fresh games (duplicate deals; no record at the table yet):",
          file=out)
    _rows(c, out, (c.a.marks_per_round, c.b.marks_per_round, c.marks_gain),
          (c.a.round_share, c.b.round_share, c.share_gain), "marks/round", "rounds won %")
    print("whole games (the others see seat 0's record; per game, the rounds it was in):",
          file=out)
    _rows(c, out, (c.a.game_marks, c.b.game_marks, c.game_marks_gain),
          (c.a.game_share, c.b.game_share, c.game_share_gain), "marks/round",
          "rounds won %", (c.a.games_won, c.b.games_won, c.games_gain))
    print("B - A below 0 in marks/round: B takes fewer marks than A (B gains); "
          "paired 95% intervals", file=out)


Row = tuple[Interval | None, Interval | None, Interval | None]  # A, B, B - A


def _rows(c: Comparison, out: TextIO, marks: Row, share: Row, marks_head: str,
          share_head: str, won: Row | None = None) -> None:
    won_head = f" {'games won %':<22}" if won is not None else ""
    print(f"  {'seat 0':<14} {marks_head:<22} {share_head:<22}{won_head}", file=out)
    labels = ("A " + c.a.name, "B " + c.b.name, "B - A")
    for i, label in enumerate(labels):
        sign = i == 2
        games = f" {_fmt(won[i], 100, sign):<22}" if won is not None else ""
        print(f"  {label:<14} {_fmt(marks[i], 1, sign):<22} {_fmt(share[i], 100, sign):<22}"
              f"{games}", file=out)
