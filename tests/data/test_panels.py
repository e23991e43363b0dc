"""Saved hand panels (data/panels.py), on each backend: saved and taken back
until their token lapses, replaced by a person's newer panel, gone when
their game ends, and never shown with their token."""

from __future__ import annotations

from datetime import timedelta

from data.db import Database
from data.games import end_game
from data.panels import SavedPanel, save_panels, take_back
from tests.data.helpers import NOW, playing

LIFE = timedelta(minutes=15)
TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OnNlY3JldA"


def _panel(game_id: int, user_id: int, opened_minutes: int = 0, *,
           token: str = TOKEN, lang: str = "en") -> SavedPanel:
    opened = NOW + timedelta(minutes=opened_minutes)
    return SavedPanel(game_id, user_id, 900 + opened_minutes, 555, token, lang, opened,
                      opened + LIFE)


async def test_panels_are_taken_back_until_they_lapse(db: Database) -> None:
    game = await playing(db, (1, 2))
    await save_panels(db, [_panel(game.id, 1, 0), _panel(game.id, 2, 5, lang="nl")], (), NOW)
    back = await take_back(db, NOW + timedelta(minutes=10))
    assert back == [_panel(game.id, 1, 0), _panel(game.id, 2, 5, lang="nl")]
    # A quarter of an hour after the first was opened, its token has lapsed:
    # the row is deleted, the other comes back.
    assert await take_back(db, NOW + LIFE) == [_panel(game.id, 2, 5, lang="nl")]
    assert await take_back(db, NOW) == [_panel(game.id, 2, 5, lang="nl")]  # it is gone
    assert await take_back(db, NOW + LIFE + timedelta(minutes=5)) == []


async def test_a_newer_panel_replaces_the_old_and_gone_ones_are_deleted(
        db: Database) -> None:
    game = await playing(db, (1, 2))
    await save_panels(db, [_panel(game.id, 1, 0), _panel(game.id, 2, 0)], (), NOW)
    newer = _panel(game.id, 1, 3, token="bmV3ZXI")
    await save_panels(db, [newer], [(game.id, 2)], NOW)
    assert await take_back(db, NOW) == [newer]


async def test_the_panels_of_a_game_that_ends_are_deleted(db: Database) -> None:
    game, other = await playing(db, (1, 2)), await playing(db, (3, 4))
    await save_panels(db, [_panel(game.id, 1), _panel(other.id, 3)], (), NOW)
    await end_game(db, game.id, NOW)
    assert await take_back(db, NOW) == [_panel(other.id, 3)]
    # And a panel of a game no longer in play is not saved at all.
    await save_panels(db, [_panel(game.id, 2)], (), NOW)
    assert await take_back(db, NOW) == [_panel(other.id, 3)]


def test_a_token_never_shows_in_a_repr() -> None:
    panel = _panel(1, 2)
    assert TOKEN not in repr(panel) and TOKEN not in str(panel)


async def test_saving_deletes_the_panels_that_lapsed_meanwhile(db: Database) -> None:
    game = await playing(db, (1, 2))
    await save_panels(db, [_panel(game.id, 1, 0)], (), NOW)
    later = _panel(game.id, 2, 20)
    await save_panels(db, [later], (), NOW + LIFE)  # the first lapsed by now
    assert await take_back(db, NOW) == [later]
