"""A banned player clicks Join in a real browser, opened as Discord opens
the Activity: the page shows the ban's notice in the reader's language, its
end as a date and as how long from now ("in 7 days", "over 7 dagen"), never
Discord's raw timestamp tags."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tables.clock import FakeClock
from tests.e2e.toep_world import open_world
from tests.web.banned import banned
from tests.web.browser.discord_side import DiscordSide


@pytest.mark.parametrize(("locale", "starts", "left"), [
    ("en-US", "⛔ You may not join public tables until ", "(in 7 days): you forfeited 3 games"),
    ("nl-NL", "⛔ Je mag tot ", "(over 7 dagen) niet aan openbare tafels meedoen"),
])
async def test_a_banned_player_s_page_says_until_when_and_why(
        tmp_path: Path, browser: Any, locale: str, starts: str, left: str) -> None:
    side = await DiscordSide().start()
    # The browser reckons "from now" by its own clock: the world's starts there too.
    clock = FakeClock(datetime.now(UTC).replace(microsecond=0))
    try:
        async with open_world(tmp_path, ("anna", "bram"), web=True, clock=clock) as world:
            await banned(world, "bram")
            await world.slash("anna", "toep new")  # a public table
            bram = world.people["bram"]
            assert world.bot is not None and world.bot.web is not None
            context = await browser.new_context(locale=locale)
            page = await context.new_page()
            await page.goto(side.launch("bram", world.bot.web.port, world.fake.authorize(bram),
                                        bram.id, world.channel.id, world.guild.id))
            app = page.frame_locator("#app")
            await app.locator('#lobby [data-verb="join"]').click()
            toast = app.locator("#toast")
            await toast.wait_for()
            text = await toast.inner_text()
            assert text.startswith(starts) and left in text and "<t:" not in text
            assert world.table().seat_of(bram.id) is None
            await context.close()
    finally:
        await side.stop()
