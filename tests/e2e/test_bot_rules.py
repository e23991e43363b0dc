"""`/toep rules`: without a topic an index of all topics, and a menu on the
reader's own reply that turns it to any topic and back, in their language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cogs.i18n import t
from cogs.render_rules import RULES_PICK
from cogs.render_topics import TOPICS
from tests.e2e.fake_discord import CommandError
from tests.e2e.fake_discord.models import Message
from tests.e2e.toep_world import open_world, original


def _menu(message: Message) -> dict[str, Any]:
    return next(c for row in message.components for c in row["components"]
                if c["custom_id"] == RULES_PICK)


def _chosen(message: Message) -> list[str]:
    """The values the menu shows as chosen."""
    return [o["value"] for o in _menu(message)["options"] if o.get("default")]


@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("nl", "nl")])
async def test_rules_without_a_topic_is_an_index_with_a_menu(
        tmp_path: Path, locale: str, lang: str) -> None:
    async with open_world(tmp_path, ("anna", "bram")) as world:
        res = await world.slash("anna", "toep rules", locale=locale)
        reply = original(res)
        assert res.ephemeral and reply.ephemeral
        assert reply.text.startswith(t(lang, "rules.index.head", count=len(TOPICS)))
        for topic in TOPICS:  # every topic named, with what it covers
            assert t(lang, "rules.index.line", topic=t(lang, f"choice.{topic}"),
                     about=t(lang, f"rules.about.{topic}")) in reply.text
        menu = _menu(reply)
        options = menu["options"]
        assert [o["value"] for o in options] == ["index", *TOPICS]
        assert [o["label"] for o in options][1:] == [t(lang, f"choice.{x}") for x in TOPICS]

        # choosing a topic turns this same reply to it, the menu still there
        for topic in ("toep", "slate"):
            choice = await world.fake.click(world.people["anna"], reply, RULES_PICK,
                                            values=[topic], locale=locale)
            assert choice.ack_name == "UPDATE_MESSAGE"
            text = t(lang, f"rules.{topic}")
            await world.fake.wait_for(lambda text=text: reply.text == text)  # type: ignore[misc]
            assert _chosen(reply) == [topic]
        back = await world.fake.click(world.people["anna"], reply, RULES_PICK, values=["index"],
                                      locale=locale)
        assert back.ack_name == "UPDATE_MESSAGE"
        await world.fake.wait_for(lambda: reply.text.startswith(
            t(lang, "rules.index.head", count=len(TOPICS))))
        assert world.fake.ephemeral_messages(world.people["anna"]) == [reply]  # no new ones

        # nobody else can see the reply, so nobody else can turn it
        with pytest.raises(CommandError):
            await world.fake.click(world.people["bram"], reply, RULES_PICK, values=["cards"])
        # a value the menu never offered changes nothing
        forged = await world.fake.forge_click(world.people["anna"], reply, RULES_PICK,
                                              values=["R99"], component_type=3, locale=locale)
        assert original(forged).text == t(lang, "click.forged")
        assert reply.text.startswith(t(lang, "rules.index.head", count=len(TOPICS)))


async def test_rules_with_a_topic_shows_it_with_the_menu(tmp_path: Path) -> None:
    async with open_world(tmp_path, ("anna",)) as world:
        res = await world.slash("anna", "toep rules", {"topic": "vuile_was"}, locale="nl")
        reply = original(res)
        assert reply.ephemeral and reply.text == t("nl", "rules.vuile_was")
        assert _chosen(reply) == ["vuile_was"]
