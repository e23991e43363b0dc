"""A bot in a process of its own, run as `bot.py` runs it (exit status, stderr), but
connected to a fake Discord: `python -m tests.e2e.second_bot CONFIG_JSON` with a
bench/e2e_wire.py `BotConfig`. Used by test_bot_lease.py."""

from __future__ import annotations

import logging
import sys

import bot
from bench.e2e_bot import build
from bench.e2e_wire import TOKEN, BotConfig


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    config = BotConfig.from_json(argv[0])
    return bot.run(lambda: build(config), TOKEN)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
