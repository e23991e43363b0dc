"""The gate (cogs/gate.py) against any click a modified client can make:
hypothesis draws custom_ids for every prefix of ours (and none), select
values and component types, and sends them from every kind of message the
bot posts (the public table message, a game's hand panel, a leaderboard, the
settings message, a practice game, the question "leave the game?", the rules
with their menu). None of
them is on the message it is sent from. Whatever comes: each gets a short
private answer in time, no exception escapes and nothing is logged at ERROR
(`open_world` checks both), and no message changes, public or not."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.e2e.fake_discord.components import iter_components
from tests.e2e.fake_discord.models import Message
from tests.e2e.toep_world import World, open_private_table, open_world, original, reply, start

PREFIXES = ("toep", "toepboard", "toepset", "toepban", "toeplearn", "toeprules", "toepweb",
            "toepreview", "toepdaily", "TOEP", "toepx", "")
WORDS = ("{table}", "{guild}", "{other}", "{user}", "0", "1", "01", "²", "¹²", "١", "-", "",
         "join", "leave", "addbot", "removebot", "start", "cancel", "hand", "stay", "walkout",
         "again", "play", "pass", "toep", "call", "fold", "new", "quit", "lang", "pick", "reset",
         "value", "limit", "clock", "10H", "AS", "easy", "3", "zz", "a" * 17, "ping", "remove",
         "max_hosted", "max_tables", "1:{user}", "2:bot", "open")
PART = st.one_of(st.sampled_from(WORDS), st.text(max_size=20),
                 st.integers(0, 2**70).map(str))
CUSTOM_ID = st.one_of(
    st.builds(lambda prefix, parts: ":".join([prefix, *parts]),
              st.sampled_from(PREFIXES), st.lists(PART, max_size=6)),
    st.text(max_size=120))
VALUES = st.one_of(st.none(), st.lists(st.one_of(st.sampled_from(
    ["en", "nl", "auto", "limit", "10", "true", "none", "always", "never", "index", "cards",
     "1:{user}"]), st.text(max_size=120)), max_size=26))
SOURCES = ("table", "panel", "board", "settings", "learn", "question", "rules")
CLICK = st.tuples(CUSTOM_ID, VALUES, st.sampled_from([2, 3]), st.sampled_from(SOURCES))


def looks(world: World, ids: list[int]) -> list[tuple[Any, ...]]:
    """How these messages look (public and ephemeral), and their edits."""
    return [(m.id, m.deleted, m.content, json.dumps(m.embeds), json.dumps(m.components),
             len(m.edits)) for m in map(world.fake.message, ids)]


def on(message: Message, custom_id: str) -> bool:
    return any(c.get("custom_id") == custom_id for c in iter_components(message.components))


async def sources(world: World) -> dict[str, Message]:
    """One message of each kind, all visible to anna."""
    await open_private_table(world, guests=("bram",))
    await start(world)
    panel = await world.panel("anna")
    assert panel is not None
    question = (await (await world.slash("anna", "toep leave")).wait_followups(1))[0]
    return {"table": world.table_message(), "panel": panel, "question": question,
            "board": original(await world.slash("anna", "toep leaderboard")),
            "settings": original(await world.slash("anna", "toep-admin settings")),
            "learn": original(await world.slash("anna", "toep learn")),
            "rules": original(await world.slash("anna", "toep rules"))}


# No shrinking: each example is a bot's life, and the clicks of a failing one
# are few enough to read.
@settings(max_examples=6, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(clicks=st.lists(CLICK, min_size=20, max_size=30))
async def test_no_forged_click_changes_anything(tmp_path_factory: Any, caplog: Any,
                                                clicks: list[tuple[Any, ...]]) -> None:
    caplog.set_level(logging.WARNING)
    path: Path = tmp_path_factory.mktemp("gate")
    async with open_world(path, ("anna", "bram")) as world:
        messages = await sources(world)
        table = world.table()
        await world.bot_settled()
        other = world.fake.add_guild("Elsewhere")
        words = {"{table}": str(table.id), "{guild}": str(world.guild.id),
                 "{other}": str(other.id), "{user}": str(world.people["bram"].id)}
        ids = list(world.fake.store.messages)
        before, state = looks(world, ids), (table.status, table.stamp, list(table.seats))
        for custom_id, values, component_type, source in clicks:
            for word, number in words.items():
                custom_id = custom_id.replace(word, number)
            message = messages[source]
            if on(message, custom_id):
                continue  # a click any client could make: not forged
            res = await world.fake.forge_click(world.people["anna"], message, custom_id,
                                               values=values, component_type=component_type)
            await world.settle()
            text = reply(res)
            assert 0 < len(text) <= 200, (custom_id, text)
        await world.bot_settled()
        assert looks(world, ids) == before  # the answers are new ephemeral messages
        assert (table.status, table.stamp, list(table.seats)) == state
    # Nothing above WARNING from any logger (asyncio's "never retrieved" too).
    assert [r.getMessage() for r in caplog.records if r.levelno > logging.WARNING] == []
