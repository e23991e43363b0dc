"""Every message the bot sends is fitted to Discord's limits on its way out
(cogs/outgoing.py), through either of discord.py's transports: a message
grown past them (a bug of ours) still reaches the person, clipped, and the
bug is logged; the fake Discord, as strict as Discord, takes it."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import discord
import pytest

from tests.e2e.toep_world import open_world, reply


async def test_a_reply_past_2000_characters_arrives_clipped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    async with open_world(tmp_path, expect_logged=("cogs.outgoing",)) as world:
        monkeypatch.setattr(sys.modules["cogs.render_rules"], "rules_topic",
                            lambda topic, lang: "r" * 4101)
        res = await world.slash("anna", "toep rules", {"topic": "cards"})
        text = reply(res)
        assert len(text) == 2000 and text.endswith("…")
        assert [r.code for r in world.fake.rejections if r.code == 50035] == []
    assert any(r.name == "cogs.outgoing" and r.levelno == logging.ERROR
               and "content: 4101 characters" in r.getMessage() for r in caplog.records)


async def test_a_channel_message_and_its_embed_are_fitted(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with open_world(tmp_path, expect_logged=("cogs.outgoing",)) as world:
        assert world.bot is not None
        channel = world.bot.get_partial_messageable(world.channel.id, guild_id=world.guild.id)
        embed = discord.Embed(title="t" * 300, description="d" * 5000)
        for _ in range(30):
            embed.add_field(name="n", value="v" * 1100)
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="l" * 90, custom_id="toep:1:join"))
        sent = await channel.send("c" * 2500, embed=embed, view=view)
        message = world.fake.message(sent.id)
        assert len(message.content) == 2000
        shown = message.embeds[0]
        assert len(shown["title"]) == 256 and len(shown["fields"]) <= 25
        assert message.buttons()[0]["label"] == "l" * 79 + "…"
        await sent.edit(content="e" * 2001)
        assert len(world.fake.message(sent.id).content) == 2000
    clipped = [r for r in caplog.records if r.name == "cogs.outgoing"]
    assert len(clipped) == 2 and all(r.levelno == logging.ERROR for r in clipped)
