"""Leaderboard order, the min_games filter and paging."""

from __future__ import annotations

from data.db import Database
from data.leaderboard import leaderboard, leaderboard_count
from data.stats import player_stats
from tests.data.helpers import GUILD, finished


async def season(db: Database) -> None:
    """User 1 always wins, 3 always loses, 2 in between; 4 plays once; 5 only unrated."""
    for _ in range(3):
        await finished(db, (1, 2, 3), (1, 2, 3))
    await finished(db, (4, 3), (1, 2))
    await finished(db, (5, 1), (1, 2), rated=False)


async def test_order_is_by_ordinal(db: Database) -> None:
    await season(db)
    board = await leaderboard(db, GUILD, limit=10)
    assert [row.rank for row in board] == [1, 2, 3, 4]
    ordinals = [row.ordinal for row in board]
    assert ordinals == sorted(ordinals, reverse=True)
    assert board[0].user_id == 1
    assert board.index(next(r for r in board if r.user_id == 2)) < board.index(
        next(r for r in board if r.user_id == 3)
    )
    assert all(row.ordinal == row.mu - 3 * row.sigma for row in board)
    assert 5 not in {row.user_id for row in board}  # no rated game


async def test_row_figures(db: Database) -> None:
    await season(db)
    top = (await leaderboard(db, GUILD, limit=1))[0]
    assert (top.user_id, top.games, top.wins, top.rated_games) == (1, 4, 3, 3)
    assert top.win_share == 3 / 4
    assert top.marks_per_round == 4 / 16  # 4 marks from the unrated loss, over 16 rounds


async def test_min_games_filter(db: Database) -> None:
    await season(db)
    board = await leaderboard(db, GUILD, min_games=3)
    assert {row.user_id for row in board} == {1, 2, 3}
    assert await leaderboard_count(db, GUILD, min_games=3) == 3
    assert await leaderboard_count(db, GUILD, min_games=0) == 4
    assert await leaderboard_count(db, GUILD + 1) == 0
    user4 = await player_stats(db, GUILD, 4, min_games=3)
    assert user4 is not None and user4.rank is None


async def test_paging(db: Database) -> None:
    await season(db)
    whole = await leaderboard(db, GUILD, limit=10)
    pages = [await leaderboard(db, GUILD, limit=2, offset=offset) for offset in (0, 2, 4)]
    assert pages[0] + pages[1] == whole
    assert pages[2] == []
    assert [row.rank for row in pages[1]] == [3, 4]


async def test_player_rank_matches_the_board(db: Database) -> None:
    await season(db)
    for row in await leaderboard(db, GUILD, limit=10):
        stats = await player_stats(db, GUILD, row.user_id)
        assert stats is not None and stats.rank == row.rank


async def test_equal_ratings_share_a_place_on_every_page(db: Database) -> None:
    """Ties share a place as in a game's standings (1, 1, 3), also when a
    tie straddles a page, and a person's stats say the same place."""
    for _ in range(3):
        await finished(db, (1, 2, 3, 4), (1, 2, 2, 4))
    board = await leaderboard(db, GUILD, limit=10)
    assert [(row.user_id, row.rank) for row in board] == [(1, 1), (2, 2), (3, 2), (4, 4)]
    assert board[1].ordinal == board[2].ordinal
    page = await leaderboard(db, GUILD, limit=2, offset=2)
    assert [(row.user_id, row.rank) for row in page] == [(3, 2), (4, 4)]
    for user, rank in ((2, 2), (3, 2), (4, 4)):
        stats = await player_stats(db, GUILD, user)
        assert stats is not None and stats.rank == rank
