"""Ratings where they matter: the end of a rated game shows each person's
rating before and after it, and `/toep stats` calls a newcomer unrated,
with how far to go, instead of showing numbers that mean nothing yet."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.i18n import t
from cogs.render_community import decimal
from cogs.render_ratings import signed
from data import ratings
from data.db import Database
from data.ratings import PROVISIONAL_GAMES, Rating
from data.stats import StatsDelta, add_stats
from tables.snapshot import Status
from tests.e2e.toep_world import World, open_public_table, open_world, original

LANGS = pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("nl", "nl")])
STRANGER = 9_100_001  # someone else of the server, an id only


async def _rated_games(db: Database, guild: int, user: int, count: int) -> None:
    """`user` won `count` rated games against STRANGER (as a table saves them)."""
    for _ in range(count):
        async with db.transaction() as conn:
            await add_stats(conn, guild, {user: StatsDelta(games=1, wins=1),
                                          STRANGER: StatsDelta(games=1)})
            await ratings.update_ratings(conn, guild, {user: 1, STRANGER: 2})


async def _rating(db: Database, guild: int, user: int) -> tuple[Rating, int]:
    async with db.read() as conn:
        rows = list(await conn.execute_fetchall(
            "SELECT mu, sigma, rated_games FROM player_stats WHERE guild_id = ? AND user_id = ?",
            (guild, user)))
    return Rating(rows[0]["mu"], rows[0]["sigma"]), int(rows[0]["rated_games"])


def _db(world: World) -> Database:
    assert world.bot is not None
    return world.bot.db


@LANGS
async def test_a_rated_game_ends_with_every_rating_before_and_after(
        tmp_path: Path, locale: str, lang: str) -> None:
    async with open_world(tmp_path, ("anna", "bram"), locale=locale,
                          guild_locale=locale) as world:
        db, guild = _db(world), world.guild.id
        anna, bram = world.people["anna"].id, world.people["bram"].id
        await _rated_games(db, guild, anna, PROVISIONAL_GAMES)  # rated already
        await _rated_games(db, guild, bram, PROVISIONAL_GAMES - 1)  # this game is the one
        before, _ = await _rating(db, guild, anna)

        table = await open_public_table(world)
        await world.walk_out("bram")  # anna wins: a rated game (public, two people)
        await world.fake.wait_for(lambda: table.status is Status.FINISHED)
        heading = t(lang, "table.ratings")
        message = await world.wait_table_message(heading)
        field = next(f for f in message.embeds[0]["fields"] if f["name"] == heading)

        after, games = await _rating(db, guild, anna)
        assert games == PROVISIONAL_GAMES + 1 and after.ordinal > before.ordinal
        anna_line = t(lang, "rating.change", name="anna", before=decimal(before.ordinal, lang),
                      after=decimal(after.ordinal, lang),
                      delta=signed(after.ordinal - before.ordinal, lang))
        first, games = await _rating(db, guild, bram)
        assert games == PROVISIONAL_GAMES
        bram_line = t(lang, "rating.first", name="bram", after=decimal(first.ordinal, lang),
                      games=PROVISIONAL_GAMES)
        assert field["value"] == f"{anna_line}\n{bram_line}"  # the winner first
        assert f"(+{decimal(after.ordinal - before.ordinal, lang)})" in anna_line


@LANGS
async def test_stats_call_a_newcomer_unrated_until_a_rating_means_something(
        tmp_path: Path, locale: str, lang: str) -> None:
    async with open_world(tmp_path, ("anna", "bram")) as world:
        db, guild = _db(world), world.guild.id
        bram = world.people["bram"].id
        await _rated_games(db, guild, bram, 1)
        res = await world.slash("anna", "toep stats", {"member": world.people["bram"]},
                                locale=locale)
        text = original(res).text
        assert t(lang, "stats.unrated", rated=1, min=PROVISIONAL_GAMES) in text
        assert "μ" not in text and "σ" not in text and "0.0" not in text and "0,0" not in text

        await _rated_games(db, guild, bram, PROVISIONAL_GAMES - 1)
        res = await world.slash("anna", "toep stats", {"member": world.people["bram"]},
                                locale=locale)
        text = original(res).text
        rating, _ = await _rating(db, guild, bram)
        assert f"**{decimal(rating.ordinal, lang)}**" in text
        assert t(lang, "stats.rank", rank=1, total=2) in text  # and the stranger
        assert t(lang, "stats.unrated", rated=PROVISIONAL_GAMES, min=PROVISIONAL_GAMES) \
            not in text
