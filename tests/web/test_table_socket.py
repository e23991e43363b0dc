"""The web table's websocket against the bot on the fake Discord (issue 30):
four people play a whole game, switching between the page and the buttons
in Discord mid-round, while a fifth member watches; every frame each page
receives is checked against the game as it stands: a seat's own hand, and
no card of anyone else's. Who may watch is Discord's word, never the page's."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from cogs.i18n import t
from cogs.render_text import timestamp
from data import bans
from tables.snapshot import Status
from tests.e2e.toep_world import World, open_world
from tests.web.banned import banned
from tests.web.page import Page, base_url
from tests.web.watch import Watch, marker, moved_on, next_move, replays_to_the_same_end

PEOPLE = ("anna", "bram", "cees", "dirk", "eva")  # eva only watches


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with open_world(tmp_path, PEOPLE, web=True) as w:
        yield w


async def _pages(world: World, http: aiohttp.ClientSession) -> dict[str, Page]:
    await world.slash("anna", "toep new", {"private": True, "limit": 5})
    for guest in ("bram", "cees", "dirk"):
        await world.slash("anna", "toep invite", {"member": world.people[guest]})
    pages = {}
    for name in PEOPLE:
        pages[name] = await Page(http, base_url(world)).enter(
            world.fake, world.people[name], world.channel.id)
    return pages


async def _page_act(world: World, page: Page, verb: str, card: str | None) -> None:
    """Click in the page; back once the table moved on."""
    before = marker(world.table())
    await page.act(verb, card)
    await moved_on(world, before)


async def test_a_whole_game_between_page_and_buttons_shows_nobody_a_foreign_card(
        world: World, http: aiohttp.ClientSession) -> None:
    pages = await _pages(world, http)
    watch = Watch(world, {name: page.frames for name, page in pages.items()})
    table = world.table()
    # Seats are taken through the page: eva was not invited, so she may not.
    await pages["eva"].act("join")
    await pages["eva"].note("refused")
    for seated, guest in enumerate(("bram", "cees", "dirk"), start=2):
        await pages[guest].act("join")
        await world.fake.wait_for(lambda n=seated: len(table.seats) == n)  # type: ignore[misc]
    await watch.caught_up()
    assert [s["name"] for s in pages["eva"].last["seats"]] == ["anna", "bram", "cees", "dirk"]
    await pages["anna"].act("start")
    await world.fake.wait_for(lambda: table.game is not None)
    await watch.caught_up()
    steps = by_page = by_button = 0
    while table.status is Status.PLAYING:
        who, verb, card = next_move(world)
        # Everyone switches between the page and the buttons every few moves,
        # so rounds are played half in one, half in the other.
        if (steps // 3) % 2 == 0:
            await _page_act(world, pages[who], verb, card)
            by_page += 1
        else:
            await world.answer(who, verb, card)
            by_button += 1
        steps += 1
        await watch.caught_up()
        if steps == 5:  # a page that clicks a moment already past changes nothing
            before = marker(table)
            await pages[who].act(verb, card, stamp="0")
            assert (await pages[who].note("refused"))["text"] == "That moment has passed."
            assert marker(table) == before
    assert table.status is Status.FINISHED and by_page > 10 and by_button > 10
    assert watch.checked >= 5 * steps  # every viewer's frame of every moment
    # The Discord message shows the same end as the pages.
    await world.bot_settled()
    assert world.table_message().text.count("anna") >= 1
    assert all(p.last["status"] == "finished" for p in pages.values())
    assert table.game is not None
    await replays_to_the_same_end(world, table, table.game)
    for page in pages.values():
        await page.close()


async def test_who_may_watch_is_discords_word(world: World,
                                              http: aiohttp.ClientSession) -> None:
    await world.slash("anna", "toep new", {"private": True})
    stranger = world.fake.add_user("frits", guild=None)  # a member of no server here
    page = Page(http, base_url(world))
    await page.enter(world.fake, stranger, world.channel.id)
    assert page.close_code == 4403 and page.frames == []
    assert page.notes[-1]["text"] == "Only members of this server may sit at its tables."
    # A member who cannot see the channel: neither watch, nor sit down.
    await world.fake.hide_channel(world.channel, world.people["bram"])
    bram = await Page(http, base_url(world)).enter(world.fake, world.people["bram"],
                                                world.channel.id)
    assert bram.close_code == 4403 and bram.frames == []
    assert "cannot see the channel" in bram.notes[-1]["text"]
    # A channel with no table.
    other = world.fake.add_channel(world.guild, "elders")
    cees = await Page(http, base_url(world)).enter(world.fake, world.people["cees"], other.id)
    assert cees.close_code == 4404


async def test_a_seat_taken_on_the_page_is_asked_of_discord_again(
        world: World, http: aiohttp.ClientSession) -> None:
    await world.slash("anna", "toep new", {"private": True})
    await world.slash("anna", "toep invite", {"member": world.people["bram"]})
    bram = await Page(http, base_url(world)).enter(world.fake, world.people["bram"],
                                                world.channel.id)
    assert bram.last["status"] == "lobby" and bram.last["me"] is None
    await world.fake.hide_channel(world.channel, world.people["bram"])
    await bram.act("join")
    await bram.wait(lambda: bram.close_code is not None)
    assert bram.notes[-1]["type"] == "denied"
    assert world.table().seat_of(world.people["bram"].id) is None


async def test_a_pass_brings_a_page_back_without_asking_discord_again(
        world: World, http: aiohttp.ClientSession) -> None:
    await world.slash("anna", "toep new", {"private": True})
    bram = await Page(http, base_url(world)).enter(world.fake, world.people["bram"],
                                                   world.channel.id)
    ticket = bram.notes[0]["pass"]
    await bram.close()

    def member_fetches() -> int:
        return sum(1 for _, method, path, _ in world.fake.store.requests
                   if method == "GET" and "/members/" in path)

    assert world.bot is not None and world.bot.web is not None
    world.bot.web.access.forget()  # as after a restart: nothing known in memory
    before = member_fetches()
    again = Page(http, base_url(world))
    session = await again.login(world.fake, world.people["bram"])
    await again.open(session, world.channel.id, ticket)
    await again.wait(lambda: again.frames)
    assert member_fetches() == before
    # Another's pass counts for nothing: Discord is asked.
    cees = Page(http, base_url(world))
    await cees.open(await cees.login(world.fake, world.people["cees"]), world.channel.id, ticket)
    await cees.wait(lambda: cees.frames)
    assert member_fetches() == before + 1
    for page in (again, cees):
        await page.close()


async def test_a_watcher_who_loses_sight_of_the_channel_is_cut_off(
        world: World, http: aiohttp.ClientSession, monkeypatch: pytest.MonkeyPatch) -> None:
    from web.server import sockets

    monkeypatch.setattr(sockets, "FRESH", 0.05)  # Discord asked again at once, not each minute
    await world.slash("anna", "toep new", {"private": True})
    bram = await Page(http, base_url(world)).enter(world.fake, world.people["bram"],
                                                   world.channel.id)
    renewed = await bram.note("pass")
    assert renewed["pass"]
    await world.fake.hide_channel(world.channel, world.people["bram"])
    await bram.wait(lambda: bram.close_code is not None)
    assert bram.close_code == 4403 and "cannot see the channel" in bram.notes[-1]["text"]


@pytest.mark.parametrize("lang", ["en", "nl"])
async def test_a_banned_player_is_told_at_the_page_until_when_and_why(
        world: World, http: aiohttp.ClientSession, lang: str) -> None:
    ban = await banned(world, "bram")
    await world.slash("anna", "toep new")  # a public table
    bram = world.people["bram"]
    assert world.bot is not None
    untold = await bans.untold_for(world.bot.db, world.guild.id, bram.id)
    assert [n.kind for n in untold] == ["start"]  # nobody told bram yet
    page = await Page(http, base_url(world)).enter(world.fake, bram, world.channel.id, lang)
    notice = t(lang, "ban.notice.barred", count=3, days=7, until=timestamp(ban.until, "f"),
               left=timestamp(ban.until, "R"))
    for _ in range(2):  # and again: the ban is still in force, so is its notice
        await page.act("join")
        refused = await page.note("refused")
        assert refused["text"].startswith(notice) and "R19" in refused["text"]
        page.notes.pop()
    assert world.table().seat_of(bram.id) is None
    # Told at the page, so not told again at bram's next click in Discord.
    assert await bans.untold_for(world.bot.db, world.guild.id, bram.id) == []


async def test_a_ban_notice_that_cannot_be_read_leaves_the_plain_refusal(
        world: World, http: aiohttp.ClientSession, monkeypatch: pytest.MonkeyPatch) -> None:
    ban = await banned(world, "bram")

    async def broken(*args: object) -> list[bans.Notice]:
        raise OSError("disk trouble")

    monkeypatch.setattr(bans, "untold_for", broken)
    await world.slash("anna", "toep new")
    page = await Page(http, base_url(world)).enter(world.fake, world.people["bram"],
                                                   world.channel.id)
    await page.act("join")
    refused = await page.note("refused")
    assert refused["text"].startswith(t("en", "click.banned", until=timestamp(ban.until, "f")))
    assert world.table().seat_of(world.people["bram"].id) is None
