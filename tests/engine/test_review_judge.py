"""One decision judged: exact answers late in a round, planted blunders
caught, sampled answers with an error that is kept out of the verdict."""

from __future__ import annotations

from engine import events as ev
from engine.bots.thumb import call_probability
from engine.events import Event
from engine.game import Game
from engine.review_judge import judge, settled
from engine.review_moments import Decision
from engine.review_value import Table
from engine.review_verdict import Bluffs
from engine.views import seat_view
from tests.engine.bots.helpers import CLOSE, twin_games
from tests.engine.helpers import deal, event, new_game, run


def _decision(game: Game, chosen: str) -> Decision:
    made = event(chosen)
    assert made.seat is not None
    return Decision(len(game.events), made, seat_view(game, made.seat))


def _last_trick_led_by_seat_1() -> Game:
    """Seat 1 took the first three tricks and leads 10H, the best heart; seat 0 holds 7C."""
    game = new_game(deal("JD QD KD 7C", "8D 9D 10D 10H"))
    run(game, "close", "0 JD", "1 8D", "1 9D", "0 QD", "1 10D", "0 KD", "1 10H")
    return game


def test_a_certain_loss_is_exact() -> None:
    game = _last_trick_led_by_seat_1()
    for seed in range(3):
        for samples in (1, 50):
            j = judge(_decision(game, "0 7C"), seed, samples)
            assert j.exact and j.se == 0.0
            assert j.marks[ev.play(0, event("0 7C").card)] == 1.0  # type: ignore[arg-type]
            # A toep is called unless seat 1 folds its sure winner.
            p = j.marks[ev.act(ev.TOEP, 0)] / 2.0
            assert 0.9 < p < 1.0
            assert j.best == event("0 7C") and j.lost == 0.0 and j.verdict == "ok"


def test_a_toep_into_a_certain_loss_is_a_mistake() -> None:
    decision = _decision(_last_trick_led_by_seat_1(), "0 toep")
    assert judge(decision, 0).verdict == "ok"  # a first bluff in a game is sound
    j = judge(decision, 0, bluffs=Bluffs(credit=0.0))
    assert j.exact
    assert j.best == event("0 7C")
    assert abs(j.lost - (2 * call_probability(1.0, 2) - 1.0)) < 0.2
    assert j.verdict == "mistake"


def _certain_winner_toeped() -> Game:
    """Seat 0 leads 10H in the last trick, the best heart; seat 1 toeps."""
    game = new_game(deal("8D 9D 10D 10H", "JD QD KD 7C"))
    run(game, "close", "0 8D", "1 JD", "0 9D", "1 QD", "0 10D", "1 KD", "0 10H", "1 toep")
    return game


def test_folding_a_certain_winner_is_a_blunder() -> None:
    j = judge(_decision(_certain_winner_toeped(), "0 fold"), 0)
    assert j.exact and j.se == 0.0
    assert j.marks == {event("0 call"): 0.0, event("0 fold"): 1.0}
    assert j.best == event("0 call") and j.lost == 1.0 and j.verdict == "blunder"


def test_calling_a_certain_winner_is_ok() -> None:
    j = judge(_decision(_certain_winner_toeped(), "0 call"), 0)
    assert j.best == event("0 call") and j.lost == 0.0 and j.verdict == "ok"


def test_three_players_late_in_the_round_are_dealt_out() -> None:
    # Seat 2's last card is hidden from seat 0: it may be any card seat 0 has not seen.
    game = new_game(deal("8D 9D 10D 10H", "JD QD KD 7C", "7S 8S 9S 7H"))
    run(game, "close", "0 8D", "1 JD", "2 7S", "0 9D", "1 QD", "2 8S",
        "0 10D", "1 KD", "2 9S", "0 10H", "1 toep", "2 call")
    first = judge(_decision(game, "0 fold"), 0, 1)
    again = judge(_decision(game, "0 fold"), 7, 200)
    assert first.exact and first == again
    assert first.marks[event("0 call")] == 0.0 and first.verdict == "blunder"


def test_early_decisions_are_sampled_with_an_error() -> None:
    game = new_game(deal("8D 9H 10S JC", "7D 8H 9S QC", "KD AH 7S 8C", "QD 7H AS 9C"))
    run(game, "close")
    decided: list[Event] = [e for e in seat_view(game, 0).legal if e.do == ev.PLAY]
    j = judge(_decision(game, f"0 {decided[0].card.text}"), 3, 16)  # type: ignore[union-attr]
    assert not j.exact
    assert len(j.marks) == 5  # four cards and a toep
    if j.lost > 0.0:
        assert j.se > 0.0
    assert j == judge(_decision(game, f"0 {decided[0].card.text}"), 3, 16)  # type: ignore[union-attr]


def test_twin_deals_in_a_round_in_play_are_judged_alike() -> None:
    # Seats 1 and 2 hold other cards in the two games; seat 0 sees the same.
    for seed in range(4):
        a, b = twin_games(seed, 3, 1, {}, [CLOSE, ev.act(ev.TOEP, 1), ev.act(ev.CALL, 2)])
        assert a.hands[1:] != b.hands[1:]
        for chosen in (ev.act(ev.CALL, 0), ev.act(ev.FOLD, 0)):
            judged = [judge(Decision(len(g.events), chosen, seat_view(g, 0)), seed, 12)
                      for g in (a, b)]
            assert judged[0] == judged[1]


def test_a_clear_difference_is_settled_and_a_noisy_one_is_not() -> None:
    # Choice 0 was made; choice 1 saves 0.6 marks in every world: a mistake, surely.
    clear = Table([[1.0, 0.4]] * 10, [1.0] * 10)
    assert settled(clear, 0)
    # Here the saving is 0.2 on average but 0 or 0.4 world by world: it may be
    # an inaccuracy or nothing, so more worlds are wanted.
    noisy = Table([[1.0, 1.0], [1.0, 0.6]] * 5, [1.0] * 10)
    assert not settled(noisy, 0)
    # The choice made is the best by far: ok, whatever more worlds say.
    assert settled(Table([[0.0, 2.0], [0.0, 1.6]] * 5, [1.0] * 10), 0)
