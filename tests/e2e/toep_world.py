"""The real bot against the fake Discord, and people who click.

`World` starts a fake Discord with one guild and channel, builds the bot with
`create_bot(connector=...)` on a temporary database, and offers the moves a
person makes: slash commands, the table message's buttons, the hand panel.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import ToepBot, create_bot
from cogs.ids import ButtonId, ForgedId, decode
from config import Settings
from tables.clock import ClockSource
from tables.table import Table, TableConfig
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_discord.models import Message

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz012345"
# What a careful player answers when asked: no vuile was, believe, play in...
PREFERRED = ("pass", "call", "play_in", "super_no", "play", "check", "vuile_was", "toep",
             "fold", "sit_out", "believe", "super_yes")


@dataclass
class World:
    fake: FakeDiscord
    path: Path
    clock: ClockSource | None = None
    config: TableConfig = field(default_factory=lambda: TableConfig(bot_pause=0))
    bot: ToepBot | None = None
    task: asyncio.Task[None] | None = None
    guild: Any = None
    channel: Any = None
    people: dict[str, Any] = field(default_factory=dict)

    def setup(self, names: tuple[str, ...] = ("anna", "bram"), locale: str = "en-US",
              guild_locale: str = "en-US") -> None:
        self.guild = self.fake.add_guild("Café de Toep", locale=guild_locale)
        self.channel = self.fake.add_channel(self.guild, "toepen")
        admin = self.fake.add_role(self.guild, "Admin", permissions=0x20)
        for i, name in enumerate(names):
            roles = (admin,) if i == 0 else ()
            self.people[name] = self.fake.add_user(name, locale=locale, roles=roles)

    async def start(self) -> ToepBot:
        bot = create_bot(Settings(discord_token=TOKEN, database_path=self.path),
                         connector=self.fake.connector(), guild_ready_timeout=0.05,
                         clock=self.clock, table_config=self.config)
        self.bot = bot
        self.task = asyncio.create_task(bot.start(TOKEN))
        await self.fake.wait_ready()
        await self.fake.wait_commands("toep")
        for _ in range(500):  # setup_hook restored the tables
            if bot.is_ready():
                break
            await asyncio.sleep(0.01)
        return bot

    async def stop(self) -> None:
        if self.bot is not None:
            await self.bot.close()
        if self.task is not None:
            await asyncio.gather(self.task, return_exceptions=True)
        self.bot, self.task = None, None

    # --- reading ---------------------------------------------------------------------

    def table(self) -> Table:
        assert self.bot is not None
        table = self.bot.manager.in_channel(self.channel.id)
        if table is None:
            tables = list(self.bot.manager)
            assert tables, "no table"
            return tables[-1]
        return table

    def table_message(self) -> Message:
        for message in reversed(self.fake.channel_messages(self.channel)):
            if any(b.get("custom_id", "").startswith("toep:") for b in message.buttons()):
                return message
        raise LookupError("no table message")

    async def wait_table_message(self, text: str, timeout: float = 10.0) -> Message:
        def shown() -> Message | None:
            try:
                message = self.table_message()
            except LookupError:
                return None
            return message if text in message.text else None

        return await self.fake.wait_for(shown, timeout)

    # --- acting ------------------------------------------------------------------------

    async def slash(self, who: str, command: str, options: dict[str, Any] | None = None,
                    **kwargs: Any) -> Any:
        return await self.fake.slash(self.people[who], self.channel, command, options or {},
                                     **kwargs)

    async def click_table(self, who: str, verb: str, arg: str | None = None) -> Any:
        """Click a button of the table message (waiting until it shows one)."""
        def button() -> tuple[Message, str] | None:
            try:
                message = self.table_message()
            except LookupError:
                return None
            for b in message.buttons():
                if _verb(b) == (verb, arg) and not b.get("disabled"):
                    return message, str(b["custom_id"])
            return None

        message, custom_id = await self.fake.wait_for(button, 10.0)
        return await self.fake.click(self.people[who], message, custom_id)

    async def panel(self, who: str) -> Message | None:
        """Press "My hand"; the ephemeral panel, or None if refused."""
        res = await self.click_table(who, "hand")
        message: Message | None = res.message
        if message is None or not message.ephemeral or not message.buttons():
            return None
        return message

    async def act(self, who: str, panel: Message, verbs: tuple[str, ...] = PREFERRED) -> bool:
        """Click the first enabled game button of the panel, by `verbs` order."""
        options = [(b, _verb(b)) for b in panel.buttons() if not b.get("disabled")]
        for verb in verbs:
            for button, (found, _) in options:
                if found == verb:
                    await self.fake.click(self.people[who], panel, button["custom_id"])
                    return True
        return False

    async def play_to_the_end(self, limit: int = 3000) -> None:
        """Every person answers their panel until the game is over."""
        idle = 0
        for _ in range(limit):
            table = self.table()
            if not table.open:
                return
            acted = False
            for who in self.people:
                if table.seat_of(self.people[who].id) is None:
                    continue
                panel = await self.panel(who)
                if panel is not None and await self.act(who, panel):
                    acted = True
            idle = 0 if acted else idle + 1
            if idle > 200:
                raise AssertionError("nobody can act, and the game does not move")
            if not acted:
                await asyncio.sleep(0.02)
        raise AssertionError("the game did not end")


def _verb(button: dict[str, Any]) -> tuple[str | None, str | None]:
    try:
        decoded: ButtonId = decode(button.get("custom_id", ""))
    except ForgedId:
        return None, None
    return decoded.verb, decoded.arg
