"""Issue 27 (d) through the fake Discord: a finished game's review, privately,
by /toep review and by the Review buttons (the table's last message, /toep
history), in both languages; progress while it runs, the kept review on a
second ask, and refusals for a non-player and a game in play."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from cogs.i18n import t
from cogs.review_work import version
from data.reviews import get_review
from tables.clock import SystemClock
from tests.e2e.fake_discord.models import Message
from tests.e2e.test_community_board import _db, _id, store_game
from tests.e2e.toep_world import World, open_private_table, open_world, original, start

LANGS = pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("nl", "nl")])
SAMPLES = 24
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with open_world(tmp_path, ("anna", "bram", "cora"), clock=SystemClock()) as opened:
        _cog(opened).samples = SAMPLES
        _cog(opened).edit_every = 0.4
        yield opened


def _cog(world: World) -> Any:
    """The loaded review cog (an extension's own copy of its module's class)."""
    assert world.bot is not None
    cog = world.bot.get_cog("ReviewCog")
    assert cog is not None
    return cog


async def _game(world: World, seed: int = 7, status: str = "finished") -> int:
    """A game of anna (seat 1) and bram (seat 0) with two computer players."""
    people = [(_id(world, "bram"), "bram"), (_id(world, "anna"), "anna")]
    return await store_game(_db(world), world.guild.id, people, seed=seed, computers=2,
                            status=status)


async def _done(world: World, message: Message, seen: list[str] | None = None) -> Message:
    """`message` once it shows the review (its picture attached); every text
    it showed on the way is put in `seen`."""
    def finished() -> Message | None:
        if seen is not None and (not seen or seen[-1] != message.text):
            seen.append(message.text)
        return message if message.attachments else None

    found: Message = await world.fake.wait_for(finished, 60.0)
    return found


async def _answer(world: World, res: Any, words: str) -> Message:
    message = original(res)
    found: Message = await world.fake.wait_for(
        lambda: message if words in message.text else None, 20.0)
    return found


async def _ask(world: World, who: str, game: int, locale: str = "en-US") -> Any:
    """/toep review, returning at the acknowledgement (while the review runs)."""
    return await world.fake.slash(world.people[who], world.channel, "toep review",
                                  {"game": game}, locale=locale)


def _webhook_gaps(world: World) -> list[float]:
    """The gaps between the progress edits of each reply. Its last edit, the
    review itself, goes out the moment the review is done, paced or not."""
    times: dict[int, list[float]] = {}
    for edit in world.fake.edit_log:
        if edit.route.startswith("PATCH /webhooks/"):
            times.setdefault(edit.message_id, []).append(edit.at)
    return [b - a for at in times.values() for a, b in itertools.pairwise(at[:-1])]


@LANGS
async def test_review_by_command_then_kept(tmp_path: Path, locale: str, lang: str) -> None:
    async with open_world(tmp_path, ("anna", "bram", "cora"), clock=SystemClock(),
                          locale=locale) as world:
        _cog(world).samples = SAMPLES
        _cog(world).edit_every = 0.4
        game = await _game(world)
        res = await _ask(world, "anna", game, locale)
        assert res.ephemeral
        seen: list[str] = []
        message = await _done(world, original(res), seen)
        # progress on the way: queued, then decision by decision
        assert any(t(lang, "review.queued", id=game) == s for s in seen), seen
        assert any(s.startswith(t(lang, "review.progress", id=game, done=1, total=99)[:25])
                   for s in seen), seen
        assert min(_webhook_gaps(world), default=1.0) >= 0.3  # paced edits
        assert message.ephemeral
        assert t(lang, "review.title", id=game) in message.text
        assert t(lang, "review.accuracy", percent=0, ok=0, count=0, lost=0)[:12] in message.text
        picture = message.attachments[0]
        assert picture.data.startswith(PNG) and picture.filename == f"toep-review-{game}.png"
        assert picture.description and picture.description.startswith(
            t(lang, "review.alt", id=game, limit=8, actual="", best="")[:20])
        # kept, for anna's seat only, holding only her decisions
        kept = await get_review(_db(world), game, 1, version(SAMPLES))
        assert kept is not None and kept["seat"] == 1 and kept["decisions"]
        assert {d["seat"] for d in kept["decisions"]} == {1}
        assert await get_review(_db(world), game, 0, version(SAMPLES)) is None

        # a second ask reads it back: no progress, the same words
        res = await world.slash("anna", "toep review", {"game": game}, locale=locale)
        seen = []
        again = await _done(world, original(res), seen)
        assert again.text == message.text
        assert not any(t(lang, "review.queued", id=game) == s for s in seen)
        assert world.fake.errors == []


async def test_refused_for_a_non_player_and_a_game_in_play(world: World) -> None:
    game = await _game(world)
    running = await _game(world, seed=8, status="playing")
    res = await world.slash("cora", "toep review", {"game": game})
    answer = await _answer(world, res, t("en", "review.not_yours", id=game))
    assert answer.ephemeral and not answer.attachments
    res = await world.slash("anna", "toep review", {"game": running})
    await _answer(world, res, t("en", "review.in_progress", id=running))
    res = await world.slash("anna", "toep review", {"game": running}, locale="nl")
    await _answer(world, res, t("nl", "review.in_progress", id=running))
    res = await world.slash("cora", "toep review", {"game": 999_999}, locale="nl")
    await _answer(world, res, t("nl", "review.not_yours", id=999_999))
    res = await world.slash("cora", "toep review")  # no game of hers
    await _answer(world, res, t("en", "review.no_games"))
    for key in ((game, 0), (game, 1), (game, 2)):
        assert await get_review(_db(world), key[0], key[1], version(SAMPLES)) is None


async def test_two_asks_at_once_share_one_review(world: World) -> None:
    game = await _game(world)
    first, second = await asyncio.gather(_ask(world, "anna", game), _ask(world, "anna", game))
    one, two = await asyncio.gather(_done(world, original(first)),
                                    _done(world, original(second)))
    assert one.text == two.text
    pool = _cog(world).pool
    assert pool.started == 1


async def test_a_member_waits_on_two_reviews_at_most(world: World) -> None:
    games = [await _game(world, seed=s) for s in (11, 12, 13)]
    results = [await _ask(world, "anna", g) for g in games]
    await _answer(world, results[2], t("en", "review.too_many", count=2))
    for res in results[:2]:
        await _done(world, original(res))
    # once they are done, the third may be asked
    res = await world.slash("anna", "toep review", {"game": games[2]})
    await _done(world, original(res))


async def test_a_review_longer_than_the_reply_may_wait_goes_on(world: World) -> None:
    game = await _game(world)
    _cog(world).wait_at_most = 0.0  # as if 13 minutes had passed at once
    res = await _ask(world, "anna", game, "nl")
    await _answer(world, res, t("nl", "review.late", id=game))
    assert not original(res).attachments

    async def kept() -> bool:
        return await get_review(_db(world), game, 1, version(SAMPLES)) is not None

    for _ in range(600):
        if await kept():
            break
        await asyncio.sleep(0.1)
    assert await kept()
    _cog(world).wait_at_most = 60.0
    res = await _ask(world, "anna", game, "nl")  # asked again: at once, from the database
    message = await _done(world, original(res))
    assert t("nl", "review.title", id=game) in message.text


async def test_review_button_in_history(world: World) -> None:
    game = await _game(world)
    res = await world.slash("anna", "toep history")
    listing = original(res)
    label = t("en", "btn.review_game", id=game)
    clicked = await world.click("anna", listing, str(listing.button(label=label)["custom_id"]))
    message = await _done(world, original(clicked))
    assert message.ephemeral and t("en", "review.title", id=game) in message.text
    # the button names a game, not a seat: cora pressing one (a forged click)
    # is refused by the review itself
    own = original(await world.slash("cora", "toep history"))
    forged = await world.forge_click("cora", f"toepreview:{game}", own)
    await _answer(world, forged, t("en", "review.not_yours", id=game))
    # without a number: the last finished game of hers (kept by now: at once)
    res = await world.fake.slash(world.people["anna"], world.channel, "toep review", {})
    message = await _done(world, original(res))
    assert t("en", "review.title", id=game) in message.text


@LANGS
async def test_review_button_under_the_finished_table(tmp_path: Path, locale: str,
                                                      lang: str) -> None:
    async with open_world(tmp_path, ("anna", "bram", "cora"), locale=locale,
                          guild_locale=locale) as world:
        _cog(world).samples = 8
        table = await open_private_table(world, guests=("bram",), bots=("easy",), limit=5)
        await start(world)
        await world.play_to_the_end()
        label = t(lang, "btn.review")
        final: Message = await world.fake.wait_for(lambda: next(
            (m for m in world.fake.channel_messages(world.channel)
             if any(b.get("label") == label for b in m.buttons())), None), 10.0)
        custom_id = str(final.button(label=label)["custom_id"])
        assert custom_id == f"toepreview:{table.id}"
        res = await world.click("bram", final, custom_id)
        message = await _done(world, original(res))
        assert message.ephemeral and t(lang, "review.title", id=table.id) in message.text
        assert message.attachments[0].description
        res = await world.click("cora", final, custom_id)  # not at this table
        await _answer(world, res, t(lang, "review.not_yours", id=table.id))
        seat = table.seat_of(world.people["bram"].id)
        assert seat is not None
        kept = await get_review(_db(world), table.id, seat, version(8))
        assert kept is not None and {d["seat"] for d in kept["decisions"]} <= {seat}


async def test_the_command_in_both_languages(world: World) -> None:
    subs = {o["name"]: o for c in world.fake.commands() if c["name"] == "toep"
            for o in c["options"]}
    review = subs["review"]
    assert review["name_localizations"]["nl"] == "terugblik"
    (game,) = review["options"]
    assert game["name"] == "game" and game["name_localizations"]["nl"] == "potje"
    assert not game["required"] and game["min_value"] == 1
