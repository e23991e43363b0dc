"""Four real browsers play a whole game at the chalk table, each opened as
Discord opens an Activity (the SDK's handshake, authorize, the code exchange,
authenticate), two in English and two in Dutch at a phone's width; every fifth
move is made from the hand panel in Discord instead, and the pages follow. Every
websocket frame each browser receives is checked: its own hand, and no card
of anyone else's (issue 30). TOEP_SCREENSHOTS=1 writes the table in both
languages to docs/."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tables.snapshot import Status
from tables.table import Table
from tests.e2e.toep_world import World, open_world
from tests.web.browser.discord_side import DiscordSide
from tests.web.watch import Frame, Watch, marker, moved_on, next_move, replays_to_the_same_end

PEOPLE = {"anna": "en-US", "bram": "nl-NL", "cees": "en-US", "dirk": "nl-NL"}
PHONE = {"width": 390, "height": 844}
DOCS = Path(__file__).resolve().parents[3] / "docs"


def _worth_a_picture(world: World, table: Table) -> bool:
    """Chalk on the slates, cards on the table, and anna to play."""
    game = table.game
    return (game is not None and sum(game.marks) >= 4 and len(game.table) >= 2
            and game.waiting().seats == (world.seat("anna"),))


async def _open(browser: Any, world: World, side: DiscordSide, name: str,
                frames: list[Frame]) -> Any:
    context = await browser.new_context(locale=PEOPLE[name], viewport=PHONE)
    page = await context.new_page()

    def keep(payload: str | bytes) -> None:
        frame = json.loads(payload)
        if frame.get("type") == "table":
            frames.append(frame)

    page.on("websocket", lambda socket: socket.on("framereceived", keep))
    person = world.people[name]
    assert world.bot is not None and world.bot.web is not None
    await page.goto(side.launch(name, world.bot.web.port, world.fake.authorize(person),
                                person.id, world.channel.id, world.guild.id))
    return page


async def test_four_browsers_play_a_whole_game(tmp_path: Path, browser: Any) -> None:
    side = await DiscordSide().start()
    try:
        async with open_world(tmp_path, tuple(PEOPLE), web=True) as world:
            await _play(world, side, browser)
    finally:
        await side.stop()


async def _play(world: World, side: DiscordSide, browser: Any) -> None:
    await world.slash("anna", "toep new", {"private": True, "limit": 5})
    for guest in ("bram", "cees", "dirk"):
        await world.slash("anna", "toep invite", {"member": world.people[guest]})
    frames: dict[str, list[Frame]] = {name: [] for name in PEOPLE}
    pages = {name: await _open(browser, world, side, name, frames[name]) for name in PEOPLE}
    langs = {name: locale[:2] for name, locale in PEOPLE.items()}
    watch = Watch(world, frames, langs)
    await watch.caught_up()
    # The handshake went as Discord's client expects, and Discord exchanged each code.
    asked = await pages["anna"].evaluate("window.asked.map((a) => a[0])")
    assert asked == ["HANDSHAKE", "AUTHORIZE", "AUTHENTICATE"]
    assert world.fake.oauth_exchanges == 4

    def app(name: str) -> Any:
        return pages[name].frame_locator("#app")

    table = world.table()
    for guest in ("bram", "cees", "dirk"):
        before = marker(table)
        await app(guest).locator('#lobby [data-verb="join"]').click()
        await moved_on(world, before)
    await watch.caught_up()
    before = marker(table)
    await app("anna").locator('#lobby [data-verb="start"]').click()
    await moved_on(world, before)
    await watch.caught_up()
    steps, by_button, shot = 0, 0, False
    while table.status is Status.PLAYING:
        who, verb, card = next_move(world)
        # The page dims the cards that may not be played, as its frame says.
        me = frames[who][-1]["me"]
        enabled = app(who).locator("#hand button.card:not([disabled])")
        assert await enabled.count() == len(me["playable"])
        where = (f'#hand [data-card="{card}"]' if verb == "play"
                 else f'#answers [data-verb="{verb}"]')
        before = marker(table)
        if steps % 5 == 4:  # now and then from the hand panel in Discord: the pages follow
            await world.answer(who, verb, card)
            by_button += 1
        else:
            await app(who).locator(where).click()
        await moved_on(world, before)
        await watch.caught_up()
        steps += 1
        if not shot and os.environ.get("TOEP_SCREENSHOTS") and _worth_a_picture(world, table):
            await pages["anna"].screenshot(path=str(DOCS / "web-table-en.png"))
            await pages["bram"].screenshot(path=str(DOCS / "web-table-nl.png"))
            shot = True
    assert table.status is Status.FINISHED and steps > 20 and by_button > 3
    assert watch.checked >= 4 * steps
    standings = {"en": "Final standings", "nl": "Eindstand"}
    for name, page in pages.items():
        await page.frame_locator("#app").get_by_text(standings[langs[name]]).wait_for()
    assert table.game is not None
    await replays_to_the_same_end(world, table, table.game)
    for page in pages.values():
        await page.context.close()
