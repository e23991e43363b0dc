"""What keeps the bot from starting is said in one line, and it exits 1: run as
`bot.py` runs it (tests/e2e/second_bot.py), against the fake Discord."""

from __future__ import annotations

from pathlib import Path

from bench.e2e_wire import TOKEN
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_bot_shards import config, run_second


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
