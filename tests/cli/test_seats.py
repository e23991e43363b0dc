"""The duel's measuring seats: the hard player with less or more evidence (cli/seats.py)."""

from __future__ import annotations

import io
import json

from cli.duel import main
from cli.seats import DUEL_SEATS, MEASURING, make_seat
from engine.bots.hard import HardBot
from engine.bots.sampling import ALL, HARD, SIGNALS, UNIFORM


def test_hard_uniform_is_the_hard_player_on_plain_deals() -> None:
    bot = make_seat("hard-uniform", 5)
    assert isinstance(bot, HardBot)
    assert bot.evidence == UNIFORM and bot.seed == 5
    assert bot.level == "hard-uniform"
    plain = make_seat("hard", 5)
    assert isinstance(plain, HardBot) and plain.evidence == HARD != UNIFORM


def test_each_measuring_seat_adds_its_one_part_to_toeps_calls_and_cards() -> None:
    evidence = {name: make_seat(name).evidence for name in MEASURING}  # type: ignore[attr-defined]
    assert evidence["hard-signals"] == SIGNALS and evidence["hard-all"] == ALL
    for name, part in (("hard-folds", "folds"), ("hard-passes", "passes"),
                       ("hard-window", "window")):
        on = {k for k, v in vars(evidence[name]).items() if v}
        assert on == {"signals", part}


def test_measuring_seats_sit_at_duels_only() -> None:
    from engine.bots import PLAYER_LEVELS
    assert set(MEASURING) <= set(DUEL_SEATS)
    assert not set(MEASURING) & set(PLAYER_LEVELS)


def test_the_duel_compares_hard_with_hard_uniform() -> None:
    out = io.StringIO()
    assert main(["--compare", "hard-uniform:hard", "--seats", "yardstick", "--rounds", "4",
                 "--games", "0", "--json"], stdout=out) == 0
    result = json.loads(out.getvalue())
    assert result["a"]["player"] == "hard-uniform" and result["b"]["player"] == "hard"
    assert result["b_minus_a"]["marks_per_round"] is not None
