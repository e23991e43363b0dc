"""finish_game: seat results, status, stats and ratings in one transaction."""

from __future__ import annotations

from datetime import timedelta

import pytest

from data import ratings
from data.db import Database
from data.errors import GameStateError
from data.games import SeatResult, load_game
from data.ratings import DEFAULT_RATING, Rating
from data.stats import StatsDelta, finish_game, player_stats
from tests.data.helpers import GUILD, NOW, finished, lobby, playing

LATER = NOW + timedelta(hours=1)


async def test_finish_writes_results_stats_and_ratings(db: Database) -> None:
    game = await playing(db, (1, 2, 3), computers=1)
    results = [
        SeatResult(0, 4, 1),
        SeatResult(1, 15, 3, forfeited=True, forfeit_order=1),
        SeatResult(2, 15, 2),
        SeatResult(3, 15, 2),
    ]
    deltas = {
        1: StatsDelta(games=1, wins=1, rounds=6, rounds_won=3, marks=4, toeps=2, toeps_won=1),
        2: StatsDelta(games=1, rounds=2, marks=6, folds=2, vuile_was=1, vuile_was_caught=1),
        3: StatsDelta(
            games=1,
            rounds=6,
            marks=15,
            checks=2,
            checks_right=1,
            dead_man_rounds=1,
            dead_man_survived=0,
        ),
    }
    changes = await finish_game(db, game.id, results, deltas, True, LATER)

    loaded = await load_game(db, game.id)
    assert loaded.game.status == "finished" and loaded.game.rated
    assert loaded.game.finished_at == LATER
    assert [(s.marks, s.place, s.forfeited, s.forfeit_order) for s in loaded.seats] == [
        (4, 1, False, None),
        (15, 3, True, 1),
        (15, 2, False, None),
        (15, 2, False, None),
    ]
    assert [change.user_id for change in changes] == [1, 2, 3]  # the computer is not rated
    stats = {user: await player_stats(db, GUILD, user) for user in (1, 2, 3)}
    for user, delta in deltas.items():
        found = stats[user]
        assert found is not None and found.totals == delta and found.rated_games == 1
    first, second, third = (stats[u] for u in (1, 3, 2))
    assert first is not None and second is not None and third is not None
    assert first.rating.mu > second.rating.mu > third.rating.mu
    assert first.rating.mu > DEFAULT_RATING.mu > third.rating.mu
    assert (first.rank, second.rank, third.rank) == (1, 2, 3)


async def test_stats_add_up_over_games(db: Database) -> None:
    await finished(db, (1, 2), (1, 2))
    await finished(db, (1, 2), (2, 1))
    await finished(db, (1, 2), (1, 2), rated=False)
    stats = await player_stats(db, GUILD, 1)
    assert stats is not None
    assert (stats.totals.games, stats.totals.wins, stats.totals.rounds) == (3, 2, 12)
    assert stats.rated_games == 2
    assert await player_stats(db, GUILD + 1, 1) is None


async def test_unrated_game_leaves_ratings(db: Database) -> None:
    await finished(db, (1, 2), (1, 2), rated=False)
    stats = await player_stats(db, GUILD, 1)
    assert stats is not None
    assert stats.rating == DEFAULT_RATING and stats.rated_games == 0 and stats.rank is None


async def assert_untouched(db: Database, game_id: int) -> None:
    loaded = await load_game(db, game_id)
    assert loaded.game.status == "playing" and loaded.game.finished_at is None
    assert all(s.marks is None and s.place is None for s in loaded.seats)
    assert await player_stats(db, GUILD, 1) is None
    assert await player_stats(db, GUILD, 2) is None


async def test_failure_at_the_last_step_writes_nothing(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await playing(db, (1, 2))

    def broken(ratings_: object, places: object) -> list[Rating]:
        raise RuntimeError("rating failed")

    monkeypatch.setattr(ratings, "rate", broken)
    deltas = {1: StatsDelta(games=1, wins=1), 2: StatsDelta(games=1)}
    results = [SeatResult(0, 0, 1), SeatResult(1, 15, 2)]
    with pytest.raises(RuntimeError, match="rating failed"):
        await finish_game(db, game.id, results, deltas, True, LATER)
    await assert_untouched(db, game.id)


async def test_stats_for_a_stranger_are_refused(db: Database) -> None:
    game = await playing(db, (1, 2))
    deltas = {1: StatsDelta(games=1), 77: StatsDelta(games=1)}
    with pytest.raises(ValueError, match="not seated"):
        await finish_game(
            db, game.id, [SeatResult(0, 0, 1), SeatResult(1, 15, 2)], deltas, True, LATER
        )
    await assert_untouched(db, game.id)


async def test_results_must_cover_every_seat(db: Database) -> None:
    game = await playing(db, (1, 2))
    with pytest.raises(ValueError, match="cover seats"):
        await finish_game(db, game.id, [SeatResult(0, 0, 1)], {}, True, LATER)
    await assert_untouched(db, game.id)


async def test_only_a_game_in_play_can_finish(db: Database) -> None:
    waiting = await lobby(db)
    with pytest.raises(GameStateError):
        await finish_game(db, waiting.id, [], {}, True, LATER)
    done = await finished(db, (1, 2), (1, 2))
    with pytest.raises(GameStateError, match="finished"):
        await finish_game(db, done.id, [SeatResult(0, 0, 1), SeatResult(1, 1, 2)], {}, True, LATER)


def test_negative_deltas_are_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        StatsDelta(marks=-1)


async def test_tie_keeps_ratings_together(db: Database) -> None:
    await finished(db, (1, 2, 3), (1, 2, 2))
    second = await player_stats(db, GUILD, 2)
    third = await player_stats(db, GUILD, 3)
    assert second is not None and third is not None
    assert second.rating == third.rating
