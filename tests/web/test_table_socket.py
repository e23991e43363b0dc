"""The web table's websocket against the bot on the fake Discord (issue 30):
four people play a whole game, switching between the page and the buttons
in Discord mid-round, while a fifth member watches; every frame each page
receives is checked against the game as it stands: a seat's own hand, and
no card of anyone else's. Who may watch is Discord's word, never the page's."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from cogs.render_text import happening_line
from data.gameload import load_game
from engine.record import replay_json, result, to_record
from tables.rebuild import rebuild
from tables.snapshot import Status
from tables.table import Table
from tests.e2e.toep_world import World, careful, open_world
from tests.web.page import Frame, Page, base_url

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


def _marker(table: Table) -> tuple[Any, ...]:
    game = table.game
    count = None if game is None else len(game.events)
    return table.status.value, count, sorted(table.passed), len(table.seats)


def _frame_marker(frame: Frame) -> tuple[Any, ...]:
    game = frame["game"]
    return (frame["status"], None if game is None else game["event_count"], frame["passed"],
            len(frame["seats"]))


class Watch:
    """Checks every frame as it arrives against the game at that moment."""

    def __init__(self, world: World, pages: dict[str, Page]) -> None:
        self.world, self.pages = world, pages
        self.checked = 0
        self.seen = {name: 0 for name in pages}

    def check_new(self) -> None:
        table = self.world.table()
        for name, page in self.pages.items():
            for frame in page.frames[self.seen[name]:]:
                self._check(table, name, frame)
            self.seen[name] = len(page.frames)

    def _check(self, table: Table, name: str, frame: Frame) -> None:
        seat = table.seat_of(self.world.people[name].id)
        me = frame["me"]
        if seat is None or table.game is None:
            assert me is None, f"{name} sits nowhere but got a seat's part"
        else:
            assert me is not None and me["seat"] == seat
        game = table.game
        if game is None or _frame_marker(frame) != _marker(table):
            return  # a lobby holds no cards; an older state is checked as it was sent
        opened = {c.text for _, cards in game_open(game) for c in cards}
        foreign = {c for s, hand in enumerate(game.hands) if s != seat
                   for c in hand if c.text not in opened}
        shown = _strings(frame)
        assert not foreign & {c for c in foreign if c.text in shown}, (
            f"{name} was sent another seat's card")
        # The "what happened" lines are the table message's, from public happenings.
        names = tuple(s.name for s in table.seats)
        assert frame["recent"] == [happening_line(h, names, "en").replace("**", "")
                                   for h in table.recent]
        if seat is not None:
            assert sorted(me["hand"]) == sorted(c.text for c in game.hands[seat])
        self.checked += 1

    async def caught_up(self) -> None:
        table = self.world.table()
        for page in self.pages.values():
            await page.wait(lambda p=page: p.frames  # type: ignore[misc]
                            and _frame_marker(p.last) == _marker(table))
        self.check_new()


async def _page_act(world: World, page: Page, verb: str, card: str | None) -> None:
    """Click in the page; back once the table moved on."""
    table = world.table()
    before = _marker(table)
    await page.act(verb, card)
    await world.fake.wait_for(lambda: _marker(table) != before)


def game_open(game: Any) -> list[tuple[int, Any]]:
    return [(s, game.hands[s]) for s in range(game.n) if game.open_hand[s]]


def _strings(frame: Frame) -> set[str]:
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(frame)
    return found


async def test_a_whole_game_between_page_and_buttons_shows_nobody_a_foreign_card(
        world: World, http: aiohttp.ClientSession) -> None:
    pages = await _pages(world, http)
    watch = Watch(world, pages)
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
        game = table.game
        assert game is not None
        seat = next(s for s in game.waiting().seats if s not in table.passed)
        who = world.name_of(table.seats[seat].user_id)
        assert who is not None
        choice = careful(game, seat)
        assert choice is not None
        verb, card = choice
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
            before = _marker(table)
            await pages[who].act(verb, card, stamp="0")
            assert (await pages[who].note("refused"))["text"] == "That moment has passed."
            assert _marker(table) == before
    assert table.status is Status.FINISHED and by_page > 10 and by_button > 10
    assert watch.checked >= 5 * steps  # every viewer's frame of every moment
    # The Discord message shows the same end as the pages.
    await world.bot_settled()
    assert world.table_message().text.count("anna") >= 1
    assert all(p.last["status"] == "finished" for p in pages.values())
    # The game's record, from the database, replays to the same outcome.
    assert world.bot is not None and table.game is not None
    loaded = await load_game(world.bot.db, table.id)
    record = to_record(rebuild(loaded, 8).game, table.row.seed)
    assert result(replay_json(json.loads(json.dumps(record)))) == result(table.game)
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
