"""Tests of the fake Discord itself, driven by a tiny real discord.py bot."""

from __future__ import annotations

import asyncio
import io
import json
import zlib
from collections.abc import Callable

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.e2e.conftest import BotRunner
from tests.e2e.fake_discord import (
    EMBED_LINKS,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    CommandError,
    FakeDiscord,
    Guild,
    Limit,
    RateLimitConfig,
    User,
)
from tests.e2e.fake_discord.commands import command_problems

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
MANAGE_GUILD = 0x20


class JoinView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="join:1")
    async def join(self, interaction: discord.Interaction, _: discord.ui.Button[JoinView]) -> None:
        await interaction.response.edit_message(
            content=f"{interaction.user.name} joined", view=None
        )


class NameModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}", ephemeral=True)


class ToyBot(commands.Bot):
    """Just enough bot to exercise every route and rule of the fake."""

    def __init__(self, fake: FakeDiscord, slow: float = 0.0) -> None:
        super().__init__(
            command_prefix="!",
            intents=discord.Intents.default(),
            connector=fake.connector(),
            guild_ready_timeout=0.05,
        )
        self.slow = slow
        self.failures: list[discord.HTTPException] = []
        self._add_commands()

    async def setup_hook(self) -> None:
        self.add_view(JoinView())
        await self.tree.sync()

    def _add_commands(self) -> None:
        tree = self.tree
        toep = app_commands.Group(name="toep", description="Toepen")

        @toep.command(name="new", description="Open a table")
        async def new(
            interaction: discord.Interaction, seats: app_commands.Range[int, 2, 6]
        ) -> None:
            await interaction.response.send_message(f"table for {seats}", view=JoinView())

        @tree.command(description="Ephemeral pong with locale and Manage Server")
        async def ping(interaction: discord.Interaction) -> None:
            manage = interaction.permissions.manage_guild
            await interaction.response.send_message(
                f"pong {interaction.locale.value} manage={manage}", ephemeral=True
            )

        @tree.command(description="Defer, then a followup with a picture")
        async def picture(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send("here", file=discord.File(io.BytesIO(PNG), "t.png"))

        @tree.command(description="Acknowledge twice")
        async def twice(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("once")
            await self._expect_failure(
                discord.InteractionResponse(interaction).send_message("twice")
            )

        @tree.command(description="Answer after the bot's slow delay")
        async def late(interaction: discord.Interaction) -> None:
            await asyncio.sleep(self.slow)
            await self._expect_failure(interaction.response.send_message("too late"))

        @tree.command(description="Ephemeral ack, then a channel message")
        async def announce(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("ok", ephemeral=True)
            assert isinstance(interaction.channel, discord.TextChannel)
            await interaction.channel.send("announcement")

        @tree.command(description="Open a modal")
        async def form(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NameModal())

        @tree.command(description="Ack now, followup after the bot's slow delay")
        async def eventually(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("soon")
            await asyncio.sleep(self.slow)
            await self._expect_failure(interaction.followup.send("later"))

        tree.add_command(toep)

    async def _expect_failure(self, call: object) -> None:
        try:
            await call  # type: ignore[misc]
        except discord.HTTPException as exc:
            self.failures.append(exc)


def world(fake: FakeDiscord) -> tuple[Guild, int, User, User]:
    guild = fake.add_guild("Café", locale="nl")
    channel = fake.add_channel(guild, "toepen")
    admin_role = fake.add_role(guild, "Beheer", MANAGE_GUILD)
    anna = fake.add_user("anna", locale="nl", roles=(admin_role,))
    bram = fake.add_user("bram", locale="en-US")
    return guild, channel.id, anna, bram


async def started(fake: FakeDiscord, run_bot: BotRunner, slow: float = 0.0) -> ToyBot:
    bot = ToyBot(fake, slow)
    await run_bot(bot, fake)
    await fake.wait_commands("ping", "toep")
    return bot


async def test_slash_command_ephemeral_with_locale_and_permissions(
    fake: FakeDiscord, run_bot: BotRunner
) -> None:
    _, channel, anna, bram = world(fake)
    await started(fake, run_bot)
    res_anna = await fake.slash(anna, channel, "ping")
    res_bram = await fake.slash(bram, channel, "ping", locale="de")
    assert res_anna.ack_name == "CHANNEL_MESSAGE_WITH_SOURCE"
    assert res_anna.ack_delay is not None and res_anna.ack_delay < fake.settings.ack_limit
    assert res_anna.ephemeral and res_anna.message is not None
    assert res_anna.message.content == "pong nl manage=True"
    assert res_bram.message is not None and res_bram.message.content == "pong de manage=False"
    assert [m.content for m in fake.ephemeral_messages(anna)] == ["pong nl manage=True"]
    assert fake.channel_messages(channel) == []
    with pytest.raises(CommandError):  # bram cannot click on anna's ephemeral message
        await fake.click(bram, res_anna.message, "join:1")
    assert fake.errors == []


async def test_subcommand_button_click_and_update(fake: FakeDiscord, run_bot: BotRunner) -> None:
    _, channel, anna, bram = world(fake)
    await started(fake, run_bot)
    with pytest.raises(CommandError):  # Range[int, 2, 6] was synced as min/max
        await fake.slash(anna, channel, "toep new", {"seats": 9})
    res = await fake.slash(anna, channel, "toep new", {"seats": 4})
    table = res.message
    assert table is not None and not res.ephemeral
    assert table.content == "table for 4" and table.button(label="Join")["custom_id"] == "join:1"
    assert fake.channel_messages(channel) == [table]
    click = await fake.click(bram, table, label="Join")
    assert click.ack_name == "UPDATE_MESSAGE" and click.message is table
    assert table.content == "bram joined" and table.buttons() == []
    assert len(table.edits) == 1 and fake.edit_log == table.edits
    assert fake.errors == []


async def test_defer_then_followup_with_attachment(fake: FakeDiscord, run_bot: BotRunner) -> None:
    _, channel, anna, _ = world(fake)
    await started(fake, run_bot)
    res = await fake.slash(anna, channel, "picture")
    assert res.ack_type == 5
    message = await res.wait_message()
    assert message.content == "here" and not message.loading
    assert [(a.filename, a.data) for a in message.attachments] == [("t.png", PNG)]
    assert res.followups == [message]  # the first followup after a defer fills the original
    assert fake.errors == []


async def test_double_acknowledgement_is_40060(fake: FakeDiscord, run_bot: BotRunner) -> None:
    _, channel, anna, _ = world(fake)
    bot = await started(fake, run_bot)
    res = await fake.slash(anna, channel, "twice")
    await fake.wait_for(lambda: bot.failures)
    assert [f.code for f in bot.failures] == [40060]
    assert [r.code for r in fake.rejections] == [40060]
    assert res.message is not None and res.message.content == "once"


async def test_late_acknowledgement_is_10062(run_bot: BotRunner) -> None:
    async with FakeDiscord(ack_limit=0.1) as fake:
        _, channel, anna, _ = world(fake)
        bot = await started(fake, run_bot, slow=0.2)
        res = await fake.slash(anna, channel, "late")
        assert not res.acknowledged and res.message is None
        await fake.wait_for(lambda: bot.failures)
        assert isinstance(bot.failures[0], discord.NotFound)
        assert bot.failures[0].code == 10062
        await bot.close()


async def test_429_is_retried_by_discord_py(fake: FakeDiscord, run_bot: BotRunner) -> None:
    _, channel, anna, _ = world(fake)
    await started(fake, run_bot)
    fake.inject_rate_limit("POST", f"/channels/{channel}/messages", retry_after=0.05)
    await fake.slash(anna, channel, "announce")
    posted = await fake.wait_for(lambda: fake.channel_messages(channel))
    assert [m.content for m in posted] == ["announcement"]
    assert len(fake.rate_limit_hits) == 1 and fake.rate_limit_hits[0].retry_after == 0.05
    assert fake.errors == []


async def test_bucket_limit_answers_429_with_headers() -> None:
    async with FakeDiscord(rate_limits=RateLimitConfig(message_create=Limit(1, 0.3))) as strict:
        guild = strict.add_guild()
        channel = strict.add_channel(guild)
        url = f"https://discord.com/api/v10/channels/{channel.id}/messages"
        headers = {"Authorization": f"Bot {strict.settings.token}"}
        async with aiohttp.ClientSession(connector=strict.connector()) as session:
            first = await session.post(url, json={"content": "a"}, headers=headers)
            second = await session.post(url, json={"content": "b"}, headers=headers)
            body = await second.json()
        assert first.status == 200 and first.headers["X-RateLimit-Remaining"] == "0"
        assert second.status == 429 and body["global"] is False and 0 < body["retry_after"] <= 0.3
        assert {"X-RateLimit-Bucket", "X-RateLimit-Reset-After", "Via"} <= set(second.headers)
        assert second.headers["X-RateLimit-Scope"] == "user"
        assert len(strict.rate_limit_hits) == 1 and not strict.rate_limit_hits[0].injected


async def test_unknown_route_is_recorded(fake: FakeDiscord, run_bot: BotRunner) -> None:
    world(fake)
    bot = await started(fake, run_bot)
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/voice/regions"))
    assert fake.errors == ["unknown route: GET discord.com/api/v10/voice/regions"]


async def test_gateway_really_uses_zlib_stream(fake: FakeDiscord, run_bot: BotRunner) -> None:
    world(fake)
    bot = await started(fake, run_bot)
    conn = fake.gateway_connections[0]
    assert conn.query == {"v": "10", "encoding": "json", "compress": "zlib-stream"}
    assert conn.frames_sent >= 3 and conn.bytes_wire < conn.bytes_json  # HELLO, READY, GUILD_CREATE
    assert bot.get_guild(next(iter(fake.store.guilds))) is not None


async def test_wrong_token_is_refused(fake: FakeDiscord) -> None:
    client = discord.Client(intents=discord.Intents.default(), connector=fake.connector())
    with pytest.raises(discord.LoginFailure):
        await client.login("wrong")
    await client.close()
    async with aiohttp.ClientSession(connector=fake.connector()) as session:
        url = "wss://gateway.discord.gg/?v=10&encoding=json&compress=zlib-stream"
        async with session.ws_connect(url) as ws:
            hello = json.loads(zlib.decompressobj().decompress(await ws.receive_bytes()))
            assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] == 41250
            await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 1, "properties": {}}})
            await ws.receive()
            assert ws.close_code == 4004


async def test_modal_round_trip(fake: FakeDiscord, run_bot: BotRunner) -> None:
    _, channel, anna, _ = world(fake)
    await started(fake, run_bot)
    opened = await fake.slash(anna, channel, "form")
    assert opened.ack_name == "MODAL" and opened.modal is not None
    assert opened.modal["title"] == "Your name"
    answered = await fake.submit_modal(anna, opened, {"name": "Anna"})
    assert answered.message is not None and answered.message.content == "hello Anna"
    assert answered.ephemeral and fake.errors == []


async def test_expired_token_is_50027(run_bot: BotRunner) -> None:
    async with FakeDiscord(token_lifetime=0.1) as fake:
        _, channel, anna, _ = world(fake)
        bot = await started(fake, run_bot, slow=0.2)
        res = await fake.slash(anna, channel, "eventually")
        await fake.wait_for(lambda: bot.failures)
        assert bot.failures[0].code == 50027 and res.followups == []
        await bot.close()


async def test_heartbeats_are_acknowledged_a_round_trip_later(run_bot: BotRunner) -> None:
    async with FakeDiscord(heartbeat_interval=0.5, round_trip=0.03) as fake:
        world(fake)
        bot = await started(fake, run_bot)
        conn = fake.gateway_connections[0]
        await asyncio.sleep(1.3)  # the first beat, two of the keep-alive thread, their ACKs
        assert conn.heartbeats >= 3
        # The client measures the round trip, not the time since the beat before
        # (an instant ACK beats discord.py's note of its send: "41.3s behind").
        assert 0.02 < bot.latency < 0.25
        await bot.close()


async def test_reconnect_resumes_session(fake: FakeDiscord, run_bot: BotRunner) -> None:
    _, channel, anna, _ = world(fake)
    await started(fake, run_bot)
    await fake.request_reconnect()
    await fake.wait_for(
        lambda: len(fake.gateway.live_sessions()) == 1 and len(fake.gateway_connections) == 2
    )
    res = await fake.slash(anna, channel, "ping")
    assert res.acknowledged and len(fake.gateway.sessions) == 1  # resumed, not re-identified
    assert fake.errors == []


async def test_a_click_sent_to_a_client_that_just_went_away_waits_for_its_resume(
    fake: FakeDiscord, run_bot: BotRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, channel, anna, _ = world(fake)
    await started(fake, run_bot)
    (session,) = fake.gateway.live_sessions()
    assert session.connection is not None

    async def gone(data: object) -> None:  # the bot's process was killed a moment ago
        raise aiohttp.ClientConnectionResetError("Cannot write to closing transport")

    monkeypatch.setattr(session.connection.ws, "send_bytes", gone)
    monkeypatch.setattr(session.connection.ws, "send_str", gone)
    res = await fake.slash(anna, channel, "ping")  # the person is not told; Discord keeps it
    assert not res.acknowledged
    assert session.sent[-1]["t"] == "INTERACTION_CREATE"  # replayed on a RESUME


# -- faults (controls.py) -------------------------------------------------------------------


def api(fake: FakeDiscord, path: str) -> tuple[str, dict[str, str]]:
    return f"https://discord.com/api/v10{path}", {"Authorization": f"Bot {fake.settings.token}"}


async def bot_sees(predicate: Callable[[], object], timeout: float = 5.0) -> None:
    """Poll the bot's own state (fake.wait_for wakes only on changes in the fake)."""
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.01)


async def posted(
    fake: FakeDiscord, run_bot: BotRunner
) -> tuple[ToyBot, discord.TextChannel, discord.Message, User]:
    """A started toy bot that posted "a" in the world's channel; and anna."""
    _, channel_id, anna, _ = world(fake)
    bot = await started(fake, run_bot)
    channel = bot.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel)
    return bot, channel, await channel.send("a"), anna


async def test_dropped_gateway_is_refused_for_a_while_then_resumed(
    fake: FakeDiscord, run_bot: BotRunner
) -> None:
    _, channel, anna, _ = world(fake)
    bot = await started(fake, run_bot)
    await fake.drop_gateway(down_for=0.3)
    assert fake.gateway.live_sessions() == [] and fake.gateway_connections[0].close_code == 4000
    with pytest.raises(RuntimeError):  # nobody's clicks reach a bot that is not connected
        await fake.slash(anna, channel, "ping")
    await fake.wait_for(lambda: fake.gateway.live_sessions(), timeout=10.0)
    assert fake.gateway.resumed == 1 and fake.gateway.identified == 1  # resumed, same session
    assert [h.kind for h in fake.fault_hits if h.kind == "gateway-refused"]
    assert (await fake.slash(anna, channel, "ping")).acknowledged and not bot.is_closed()
    assert fake.errors == []


async def test_delayed_resume_replays_what_happened_meanwhile(
    fake: FakeDiscord, run_bot: BotRunner
) -> None:
    guild, channel_id, _, _ = world(fake)
    other = fake.add_channel(guild, "elders")
    bot = await started(fake, run_bot)
    assert bot.get_channel(other.id) is not None
    await fake.drop_gateway(resume_delay=0.5)
    await fake.wait_for(lambda: [h for h in fake.fault_hits if h.kind == "resume-delayed"])
    await fake.delete_channel(other)  # happens while the RESUME waits
    assert fake.gateway.live_sessions() == [] and bot.get_channel(other.id) is not None
    await fake.wait_for(lambda: fake.gateway.resumed == 1)
    await bot_sees(lambda: bot.get_channel(other.id) is None)  # CHANNEL_DELETE replayed
    assert bot.get_channel(channel_id) is not None and fake.errors == []


async def test_invalidated_session_identifies_again_with_a_new_ready(
    fake: FakeDiscord, run_bot: BotRunner
) -> None:
    _, channel, anna, _ = world(fake)
    bot = await started(fake, run_bot)

    async def at_once(shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before identifying again; not needed against the fake."""

    bot.before_identify_hook = at_once  # type: ignore[method-assign]
    first = next(iter(fake.gateway.sessions))
    await fake.drop_gateway(invalidate=True)
    await fake.wait_for(lambda: fake.gateway.identified == 2, timeout=10.0)
    assert first not in fake.gateway.sessions and fake.gateway.resumed == 0
    await fake.invalidate_session()  # op 9 on a live connection does the same
    await fake.wait_for(lambda: fake.gateway.identified == 3, timeout=10.0)
    await bot_sees(lambda: bot.guilds and not bot.guilds[0].unavailable)
    assert (await fake.slash(anna, channel, "ping")).acknowledged and fake.errors == []


async def test_guild_create_follows_ready(run_bot: BotRunner) -> None:
    async with FakeDiscord() as fake:
        guild, _, _, _ = world(fake)
        fake.delay_guild_create(0.3, guild)
        bot = ToyBot(fake)
        seen: list[tuple[str, bool]] = []

        async def on_ready() -> None:
            seen.append(("ready", bot.guilds[0].unavailable))

        async def on_guild_available(found: discord.Guild) -> None:
            seen.append(("available", found.unavailable))

        bot.add_listener(on_ready)
        bot.add_listener(on_guild_available)
        await run_bot(bot, fake)
        await fake.wait_for(lambda: len(seen) == 2)
        # discord.py gave up waiting (guild_ready_timeout): READY came with the guild unavailable
        assert seen == [("ready", True), ("available", False)]
        await bot.close()


async def test_edit_storms_answer_like_discord(fake: FakeDiscord) -> None:
    guild, channel_id, _, _ = world(fake)
    other = fake.add_channel(guild, "elders")
    url, headers = api(fake, f"/channels/{channel_id}/messages")
    async with aiohttp.ClientSession(connector=fake.connector()) as session:
        posted = await (await session.post(url, json={"content": "a"}, headers=headers)).json()
        edit_url = f"{url}/{posted['id']}"
        fake.fail_edits(502, times=1)
        failed = await session.patch(edit_url, json={"content": "b"}, headers=headers)
        assert failed.status == 502
        assert await failed.json() == {"code": 0, "message": "502: Bad Gateway"}
        assert (await session.patch(edit_url, json={"content": "b"}, headers=headers)).status == 200
        fake.rate_limit_edits(30.0, seconds=5.0, channel=fake.store.channels[channel_id])
        limited = await session.patch(edit_url, json={"content": "c"}, headers=headers)
        body = await limited.json()
        assert limited.status == 429 and body["retry_after"] == 30.0 and body["global"] is False
        assert limited.headers["X-RateLimit-Scope"] == "user" and limited.headers["Via"]
        assert (await session.post(url, json={"content": "d"}, headers=headers)).status == 200
        other_url, _ = api(fake, f"/channels/{other.id}/messages")
        assert (await session.post(other_url, json={"content": "e"}, headers=headers)).status == 200
        fake.end_storms()
        fake.rate_limit_edits(2.0, times=1, is_global=True)
        limited = await session.post(url, json={"content": "f"}, headers=headers)
        body = await limited.json()
        assert limited.status == 429 and body["global"] is True and body["retry_after"] == 2.0
        assert limited.headers["X-RateLimit-Global"] == "true"
    assert [h.kind for h in fake.fault_hits] == ["5xx", "429", "429-global"]
    assert [h.bucket for h in fake.rate_limit_hits] == ["message_edit", "global"]
    assert fake.errors == []


async def test_discord_py_waits_out_a_short_429_and_gives_up_on_a_long_one(
    fake: FakeDiscord, run_bot: BotRunner
) -> None:
    bot, _, message, _ = await posted(fake, run_bot)
    bot.http.max_ratelimit_timeout = 30.0  # the smallest discord.py allows
    fake.rate_limit_edits(0.1, times=2)
    await message.edit(content="b")  # slept 0.1 s twice, then landed
    assert fake.message(message.id).content == "b"
    fake.fail_edits(503, times=1)  # discord.py retries 500/502/504, not 503
    with pytest.raises(discord.DiscordServerError):
        await message.edit(content="c")
    fake.rate_limit_edits(60.0, seconds=90.0)
    with pytest.raises(discord.RateLimited):
        await message.edit(content="d")
    assert fake.message(message.id).content == "b" and fake.errors == []


async def test_a_deleted_channel_answers_10003_everywhere(
    fake: FakeDiscord, run_bot: BotRunner
) -> None:
    bot, channel, message, anna = await posted(fake, run_bot)
    channel_id = channel.id
    res = await fake.slash(anna, channel_id, "ping")
    await fake.delete_channel(fake.store.channels[channel_id])
    await bot_sees(lambda: bot.get_channel(channel_id) is None)
    calls = [
        channel.send("b"),
        message.edit(content="c"),
        message.delete(),
        channel.fetch_message(message.id),
        bot.fetch_channel(channel_id),
        bot.http.request(discord.http.Route("GET", f"/webhooks/{bot.application_id}/"
                                            f"{res.record.token}/messages/@original")),
    ]
    for call in calls:
        with pytest.raises(discord.NotFound) as caught:
            await call
        assert caught.value.code == 10003
    with pytest.raises(CommandError):
        await fake.slash(anna, channel_id, "ping")
    assert fake.errors == []


async def test_a_denied_permission_is_50013_and_shows_in_app_permissions(
    fake: FakeDiscord, run_bot: BotRunner
) -> None:
    _, channel, message, anna = await posted(fake, run_bot)
    channel_id = channel.id
    place = fake.store.channels[channel_id]
    await fake.deny_permission(place, SEND_MESSAGES)
    await bot_sees(lambda: not channel.permissions_for(channel.guild.me).send_messages)
    res = await fake.slash(anna, channel_id, "ping")
    assert not int(res.record.payload["app_permissions"]) & SEND_MESSAGES
    with pytest.raises(discord.Forbidden) as caught:
        await channel.send("b")
    assert caught.value.code == 50013
    await message.edit(content="c")  # like Discord: editing needs no Send Messages...
    await fake.deny_permission(place, EMBED_LINKS)
    with pytest.raises(discord.Forbidden) as caught:  # ...but an embed needs Embed Links
        await message.edit(embed=discord.Embed(title="d"))
    assert caught.value.code == 50013
    await fake.deny_permission(place, VIEW_CHANNEL)
    with pytest.raises(discord.Forbidden) as caught:
        await message.edit(content="e")
    assert caught.value.code == 50001
    await fake.allow_permission(place, VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS)
    await channel.send("f")
    res = await fake.slash(anna, channel_id, "ping")
    assert int(res.record.payload["app_permissions"]) & SEND_MESSAGES
    assert fake.message(message.id).content == "c" and fake.errors == []


async def test_a_message_older_than_an_hour_takes_no_edit_30046() -> None:
    now = [1_800_000_000.0]
    async with FakeDiscord(wall_clock=lambda: now[0]) as fake:
        _, channel_id, _, _ = world(fake)
        url, headers = api(fake, f"/channels/{channel_id}/messages")
        async with aiohttp.ClientSession(connector=fake.connector()) as session:
            posted = await (await session.post(url, json={"content": "a"}, headers=headers)).json()
            edit_url = f"{url}/{posted['id']}"
            now[0] += 3599
            assert (await session.patch(edit_url, json={"content": "b"},
                                        headers=headers)).status == 200
            now[0] += 2
            refused = await session.patch(edit_url, json={"content": "c"}, headers=headers)
            assert refused.status == 400 and (await refused.json())["code"] == 30046
        assert fake.store.messages[int(posted["id"])].content == "b" and fake.errors == []


def test_who_may_see_a_command_is_set_on_a_top_level_command_only() -> None:
    """Discord reads default_member_permissions (and where a command may be
    used) on a top-level command only; on a subcommand it would hide nothing."""
    sub = {"name": "end", "description": "End", "type": 1}
    group = {"name": "toep", "description": "Toep", "options": [sub],
             "default_member_permissions": "32", "dm_permission": False}
    assert command_problems([group]) == []
    hidden_sub = {**group, "default_member_permissions": None,
                  "options": [{**sub, "default_member_permissions": "32"}]}
    assert command_problems([hidden_sub]) == [
        "toep end: default_member_permissions is only allowed on a top-level command"]
    assert command_problems([{**group, "options": [{**sub, "dm_permission": False}]}]) == [
        "toep end: dm_permission is only allowed on a top-level command"]
    assert command_problems([{**group, "default_member_permissions": "manage"}]) == [
        "toep: default_member_permissions must be a permission bit set"]
    assert command_problems([{**group, "contexts": [0]}]) == []
    assert command_problems([{**group, "contexts": [0, 5]}]) == [
        "toep: contexts must be among 0, 1, 2"]


def test_an_options_choices_are_held_to_discords_limits() -> None:
    """At most 25 choices; a name of 1-100 characters, a text value of at most 100."""
    def option(*choices: dict[str, str]) -> list[dict[str, object]]:
        return [{"name": "toep", "description": "Toep", "options": [
            {"name": "topic", "description": "Topic", "type": 3, "choices": list(choices)}]}]

    fine = {"name": "The cards", "value": "cards"}
    assert command_problems(option(fine)) == []
    assert command_problems(option(*[fine] * 26)) == ["toep topic: 26 choices, at most 25"]
    assert command_problems(option({"name": "n" * 101, "value": "v"})) == [
        f"toep topic: choice {'n' * 101!r}: name 1-100 characters, a text value at most 100"]
    assert command_problems(option({"name": "n", "value": "v" * 101})) == [
        "toep topic: choice 'n': name 1-100 characters, a text value at most 100"]


def test_embeds_buttons_and_select_menus_are_held_to_discords_limits() -> None:
    """What Discord answers 50035 to: a footer over 2,048 characters, a button
    with neither label nor emoji, a select menu out of its bounds."""
    from tests.e2e.fake_discord.validation import message_problems

    def problems(**body: object) -> list[str]:
        return message_problems(dict(body), creating=True, has_files=False)

    assert problems(embeds=[{"title": "t", "footer": {"text": "f" * 2048}}]) == []
    assert problems(embeds=[{"footer": {"text": "f" * 2049}}]) == [
        "embeds[0].footer: 2049 characters, at most 2048"]
    assert problems(embeds=[{"author": {"name": "a" * 257}}]) == [
        "embeds[0].author: 257 characters, at most 256"]
    button = {"type": 2, "style": 1, "custom_id": "b", "label": "Go"}
    assert problems(components=[{"type": 1, "components": [button]}]) == []
    bare = {**button, "label": None}
    assert problems(components=[{"type": 1, "components": [bare]}]) == [
        "a button needs a label or an emoji"]
    option = {"label": "One", "value": "1"}
    select = {"type": 3, "custom_id": "s", "options": [option]}
    assert problems(components=[{"type": 1, "components": [select]}]) == []
    twice = {**select, "options": [option, option]}
    assert problems(components=[{"type": 1, "components": [twice]}]) == [
        "select menu option values must be unique"]
    many = {**select, "options": [{"label": str(i), "value": str(i)} for i in range(26)]}
    assert problems(components=[{"type": 1, "components": [many]}]) == [
        "select menu with 26 options, 1-25 allowed"]
    greedy = {**select, "max_values": 2}
    assert problems(components=[{"type": 1, "components": [greedy]}]) == [
        "select menu min_values 1 / max_values 2 out of range"]
    assert problems(content="c" * 2001) == ["content: 2001 characters, at most 2000"]
    long_id = {**button, "custom_id": "i" * 101}
    assert problems(components=[{"type": 1, "components": [long_id]}]) == [
        f"custom_id {'i' * 101!r}: 1-100 characters"]
    wordy = {**select, "placeholder": "p" * 151,
             "options": [{"label": "l" * 101, "value": "1", "description": "d" * 101}]}
    assert problems(components=[{"type": 1, "components": [wordy]}]) == [
        f"select option {'l' * 101!r}: label and value 1-100 characters",
        f"select option {'l' * 101!r}: description at most 100 characters",
        "select menu placeholder: at most 150 characters"]
    assert problems(content="x", attachments=[{"id": 0, "description": "a" * 1025}]) == [
        "attachment description: 1025 characters, at most 1024"]
    text = {"type": 10, "content": "t" * 2001}
    assert problems(flags=1 << 15, components=[text, text]) == [
        "text displays: 4002 characters in all, at most 4000"]


def test_a_command_with_default_permissions_is_shown_only_to_members_holding_them() -> None:
    """Discord shows such a command only to members with all of its bits (an
    administrator or the owner sees everything; "0" means admins only), unless
    the server's Integrations settings opened it to the member."""
    fake = FakeDiscord()
    guild = fake.add_guild("g")
    manager = fake.add_role(guild, "Manager", permissions=0x20)
    boss, member = fake.add_user("boss", roles=(manager,)), fake.add_user("member")
    admin = {"name": "toep-admin", "default_member_permissions": "32"}
    nobody = {"name": "toep-off", "default_member_permissions": "0"}
    perms = guild.permissions_of
    assert guild.may_use(admin, boss.id, perms(boss.id))
    assert not guild.may_use(admin, member.id, perms(member.id))
    assert not guild.may_use(nobody, boss.id, perms(boss.id))
    assert guild.may_use(nobody, guild.owner_id, perms(guild.owner_id))
    assert guild.may_use({"name": "toep", "default_member_permissions": None},
                         member.id, perms(member.id))
    fake.grant_command(guild, "toep-admin", member)
    assert guild.may_use(admin, member.id, perms(member.id))
    assert not guild.may_use(nobody, member.id, perms(member.id))
