"""R12 outcomes are public: each seat's caught bluffs and checked genuine
calls are counted for the whole game, in the public view."""

from __future__ import annotations

from engine.views import public_view
from tests.engine.helpers import deal, new_game, run

# Seat 1 holds a genuine vuile was, seat 2 four high cards.
V = deal("7D 8D 9D 10D", "JC QC KC AC", "7H 8H 9H 10H", "7S 8S 9S 10S")


def test_a_checked_genuine_call_counts_as_shown_genuine() -> None:
    game = new_game(V)
    run(game, "1 vuile_was", "2 check", "3 believe", "0 believe")
    public = public_view(game)
    assert public.shown_genuine == (0, 1, 0, 0) and public.caught == (0, 0, 0, 0)


def test_a_caught_bluff_counts_as_caught_and_a_believed_call_not_at_all() -> None:
    game = new_game(V)
    run(game, "2 vuile_was", "3 believe", "0 believe", "1 believe")  # believed: unknown
    assert public_view(game).caught == (0, 0, 0, 0)
    run(game, "3 vuile_was", "0 check", "1 believe", "2 believe")  # seat 3: 7S-10S, a bluff
    public = public_view(game)
    assert public.caught == (0, 0, 0, 1) and public.shown_genuine == (0, 0, 0, 0)
