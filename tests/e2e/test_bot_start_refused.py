"""What keeps the bot from starting is said in one line, and it exits 1: run as
`bot.py` runs it (tests/e2e/second_bot.py), against the fake Discord."""

from __future__ import annotations

import dataclasses
import json
import socket
from pathlib import Path

from bench.e2e_wire import TOKEN, BotConfig
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_bot_shards import config, run_second


def closed_port() -> int:
    """A port on this machine that nothing listens on: a connection there is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def one_line(code: int | None, text: str) -> str:
    ours = [line for line in text.splitlines() if line.startswith("toep:")]
    assert code == 1 and len(ours) == 1 and "Traceback" not in text, text
    return ours[0]


async def test_too_many_servers_for_one_connection_asks_for_shards(tmp_path: Path) -> None:
    async with FakeDiscord(token=TOKEN, max_guilds_per_shard=1) as fake:
        for name in ("Café", "Kroeg"):
            fake.add_guild(name)
        line = one_line(*await run_second(config(fake, tmp_path / "toep.sqlite3")))
        assert "SHARD_COUNT" in line and "4011" in line, line
        assert fake.errors == []


async def test_too_many_servers_on_one_shard_names_the_shard(tmp_path: Path) -> None:
    async with FakeDiscord(token=TOKEN, max_guilds_per_shard=1) as fake:
        fake.add_guild("Café", shard=(1, 2))
        for name in ("Kroeg", "Bruin café"):
            fake.add_guild(name, shard=(0, 2))  # two on shard 0: one too many
        line = one_line(*await run_second(config(fake, tmp_path / "toep.sqlite3", 0, 1)))
        assert "of shard 0 (code 4011)" in line and "SHARD_COUNT" in line, line
        assert fake.errors == []


async def run_twisted(config: BotConfig, twist: dict[str, object]) -> tuple[int | None, str]:
    return await run_second(config, json.dumps(twist))


async def test_no_dns_is_one_line_with_advice(tmp_path: Path) -> None:
    async with FakeDiscord(token=TOKEN) as fake:
        line = one_line(*await run_twisted(config(fake, tmp_path / "toep.sqlite3"),
                                           {"dns": True}))
    assert "discord.com" in line and "DNS" in line, line


async def test_a_proxy_that_refuses_is_one_line_with_advice(tmp_path: Path) -> None:
    async with FakeDiscord(token=TOKEN) as fake:
        line = one_line(*await run_twisted(config(fake, tmp_path / "toep.sqlite3"),
                                           {"proxy": f"http://user:secret@127.0.0.1:{closed_port()}"}))
    assert "proxy" in line and "secret" not in line, line


async def test_privileged_intents_refused_say_which_and_where(tmp_path: Path) -> None:
    async with FakeDiscord(token=TOKEN) as fake:
        fake.add_guild("Café")
        line = one_line(*await run_twisted(config(fake, tmp_path / "toep.sqlite3"),
                                           {"intents": ["members"]}))
    assert "4014" in line and "Server Members" in line, line


async def test_a_database_path_it_cannot_write_is_one_line(tmp_path: Path) -> None:
    async with FakeDiscord(token=TOKEN) as fake:
        fake.add_guild("Café")
        line = one_line(*await run_second(config(fake, "/proc/toep.sqlite3")))
    assert "/proc/toep.sqlite3" in line, line


async def test_a_refused_connection_is_one_line_with_advice(tmp_path: Path) -> None:
    async with FakeDiscord(token=TOKEN) as fake:
        nowhere = dataclasses.replace(config(fake, tmp_path / "toep.sqlite3"),
                                      port=closed_port())
        line = one_line(*await run_second(nowhere))
    assert "discord.com:443" in line and "refused" in line and "firewall" in line, line


async def test_a_token_discord_refuses_says_check_discord_token(tmp_path: Path) -> None:
    async with FakeDiscord(token=TOKEN.replace("abc", "xyz")) as fake:
        line = one_line(*await run_second(config(fake, tmp_path / "toep.sqlite3")))
    assert "check DISCORD_TOKEN" in line, line
