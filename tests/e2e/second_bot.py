"""A bot in a process of its own, run as `bot.py` runs it (exit status, stderr), but
connected to a fake Discord: `python -m tests.e2e.second_bot CONFIG_JSON [TWIST_JSON]`
with a bench/e2e_wire.py `BotConfig`. Used by test_bot_lease.py, test_bot_shards.py
and test_bot_start_refused.py.

`TWIST_JSON` (optional) bends the world the way an operator's might be bent:
`{"dns": true}` no host name resolves; `{"proxy": URL}` Discord only through that
proxy (discord.py's `proxy`); `{"intents": ["members"]}` the bot asks for more
intents than Toep does; `{"log": "INFO"}` logs from INFO on (else WARNING).
"""

from __future__ import annotations

import json
import logging
import socket
import sys
from pathlib import Path
from typing import Any

import aiohttp
import discord
from aiohttp.abc import AbstractResolver, ResolveResult

import bot
from bench.e2e_bot import build
from bench.e2e_wire import TOKEN, BotConfig
from cogs.connector import discord_connector
from config import Settings
from tests.e2e.fake_discord import remote_connector


class NoDns(AbstractResolver):
    """A resolver as a machine without DNS has one: every name fails."""

    async def resolve(self, host: str, port: int = 0,
                      family: socket.AddressFamily = socket.AF_INET) -> list[ResolveResult]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    async def close(self) -> None:
        return None


def twisted(config: BotConfig, twist: dict[str, Any]) -> bot.ToepBot:
    if not twist:
        return build(config)
    settings = Settings(discord_token=TOKEN, database_path=Path(config.database))
    kwargs: dict[str, Any] = {}
    if twist.get("dns"):  # Discord's real host names, never the fake
        kwargs["connector"] = aiohttp.TCPConnector(resolver=NoDns())
    elif "proxy" in twist:
        kwargs["proxy"] = twist["proxy"]
    else:
        kwargs["connector"] = remote_connector(config.port, config.ca_pem, print,
                                               discord_connector)
    if "intents" in twist:
        kwargs["intents"] = discord.Intents(guilds=True, **dict.fromkeys(twist["intents"], True))
    return bot.create_bot(settings, **kwargs)


def main(argv: list[str]) -> int:
    config = BotConfig.from_json(argv[0])
    twist: dict[str, Any] = json.loads(argv[1]) if len(argv) > 1 else {}
    logging.basicConfig(level=twist.pop("log", "WARNING"), stream=sys.stderr)
    return bot.run(lambda: twisted(config, twist), TOKEN)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
