"""The real bot against the fake Discord, and people who click.

`World` starts a fake Discord with one guild and channel, builds the bot with
`create_bot(connector=...)` on a temporary database, and offers the moves a
person makes: slash commands, the table message's buttons, the hand panel.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import logging
import random
import re
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import ToepBot, create_bot
from cogs.connector import discord_connector
from cogs.ids import ButtonId, ForgedId, decode
from config import Network, Settings, WebSettings
from engine import events as ev
from engine.game import Game, Phase
from tables.clock import ClockSource, FakeClock
from tables.table import Table, TableConfig
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_discord.models import Message
from tests.e2e.fake_discord.results import InteractionResult

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz012345"
# What a careful player answers when asked: no vuile was, believe, play in...
# discord.py runs each slash command and each button callback in a task named so.
CALLBACK_TASKS = ("CommandTree-invoker", "discord.py: on_interaction")
# A catalog key shown as such ("click.nothing_to_pass"): its text is missing.
RAW_KEY = re.compile(
    r"(?<![\w.])(?:click|reply|err|hand|table|btn)\.[a-z_]+(?:\.[a-z_]+)*(?![\w.])")
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
    starts: list[float] = field(default_factory=list)  # time.monotonic() of each start
    # The table and its message last seen: a closed table leaves the bot's
    # memory, and tests still read how it ended.
    last_table: Table | None = None
    last_message_id: int | None = None
    # The bot's log at ERROR and above: a test that provokes an error reads
    # (and clears) what it expects; anything left fails `open_world`.
    logged_errors: list[logging.LogRecord] = field(default_factory=list)
    # A PostgreSQL database instead of the file at `path` (DATABASE_URL).
    database_url: str | None = None
    # The web table (web/server/), on a free port, logging in through the fake.
    web: WebSettings | None = None

    def setup(self, names: tuple[str, ...] = ("anna", "bram"), locale: str = "en-US",
              guild_locale: str = "en-US") -> None:
        self.guild = self.fake.add_guild("Café de Toep", locale=guild_locale)
        self.channel = self.fake.add_channel(self.guild, "toepen")
        admin = self.fake.add_role(self.guild, "Admin", permissions=0x20)
        for i, name in enumerate(names):
            roles = (admin,) if i == 0 else ()
            self.people[name] = self.fake.add_user(name, locale=locale, roles=roles)

    async def start(self) -> ToepBot:
        """Build and start the bot (again, after `stop`: same database, same fake)."""
        bot = create_bot(Settings(discord_token=TOKEN, database_path=self.path,
                                  database_url=self.database_url, web=self.web),
                         connector=self.fake.connector(discord_connector), guild_ready_timeout=0.05,
                         clock=self.clock, table_config=self.config)
        self.bot = bot
        self.starts.append(time.monotonic())
        self.task = asyncio.create_task(bot.start(TOKEN))
        await self.fake.wait_ready()
        await self.fake.wait_commands("toep")
        # `wait_ready` stays satisfied after the first connection: a second bot
        # is ready when it says so (setup_hook restored the tables by then).
        for _ in range(500):
            if bot.is_ready():
                break
            await asyncio.sleep(0.01)
        assert bot.is_ready(), "the bot did not become ready"
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
            table = tables[-1] if tables else self.last_table
            assert table is not None, "no table"
        self.last_table = table
        return table

    def table_message(self) -> Message:
        """The table's public message (as the presenter knows it), else the
        one last seen of a table since closed, else the newest channel message
        with a button of ours."""
        if self.bot is not None and self.bot.manager.tables:
            shown = self.bot.presenter.shown.get(self.table().id)
            if shown is not None and shown.message_id in self.fake.store.messages:
                self.last_message_id = shown.message_id
                return self.fake.message(shown.message_id)
        for message in reversed(self.fake.channel_messages(self.channel)):
            if any(b.get("custom_id", "").startswith("toep:") for b in message.buttons()):
                return message
            if message.id == self.last_message_id:
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

    @property
    def fake_clock(self) -> FakeClock:
        assert isinstance(self.clock, FakeClock), "this world runs on real time"
        return self.clock

    def fix_seed(self, seed: int) -> None:
        """The next table gets `seed`, so its deals are known in advance."""
        assert self.bot is not None
        self.bot.manager._rng = FixedSeed(seed)

    def name_of(self, user_id: int | None) -> str | None:
        for name, user in self.people.items():
            if user.id == user_id:
                return name
        return None

    def seat(self, who: str) -> int:
        seat = self.table().seat_of(self.people[who].id)
        assert seat is not None, f"{who} is not seated"
        return seat

    async def slash(self, who: str, command: str, options: dict[str, Any] | None = None,
                    **kwargs: Any) -> InteractionResult:
        """Run a slash command; returns when the bot has done with it."""
        res = await self.fake.slash(self.people[who], self.channel, command, options or {},
                                    **kwargs)
        await self.settle()
        return res

    async def click(self, who: str, message: Message, custom_id: str,
                    **kwargs: Any) -> InteractionResult:
        """Click a button; returns when the bot has done with the click (the
        fake returns at the acknowledgement, and the cog defers first)."""
        res = await self.fake.click(self.people[who], message, custom_id, **kwargs)
        await self.settle()
        return res

    async def walk_out(self, who: str) -> Message:
        """`/toep leave` during a game, and "Leave and forfeit" on the question
        it asks first; the question's message (its text becomes the answer)."""
        res = await self.slash(who, "toep leave")
        question = (await res.wait_followups(1))[0]
        button = next(b for b in question.buttons() if _verb(b)[0] == "walkout")
        await self.click(who, question, str(button["custom_id"]))
        return question

    async def clocks_shown(self, timeout: float = 10.0) -> None:
        """Wait until no clock waits for its table message to reach Discord
        (it starts as the message lands): fake time moves on only then, as
        real time would not stand still while the bot edits."""
        deadline = time.monotonic() + timeout
        while self.bot is not None and time.monotonic() < deadline:
            if not any(t.clocks.held is not None and t.reachable and not t.time.unshown
                       for t in self.bot.manager):
                return
            await asyncio.sleep(0.01)

    async def bot_settled(self) -> None:
        """Wait until the callbacks ran, the tables have no work in hand and
        every update is shown."""
        await self.settle()
        assert self.bot is not None
        await self.bot.manager.settled()
        await self.bot.presenter.settled()

    async def settle(self) -> None:
        """Wait until discord.py has run every command and button callback."""
        for _ in range(1000):
            busy = [task for task in asyncio.all_tasks()
                    if task.get_name().startswith(CALLBACK_TASKS) and not task.done()]
            if not busy:
                return
            await asyncio.wait(busy, timeout=5.0)
        raise AssertionError("callbacks keep running")

    async def click_table(self, who: str, verb: str,
                          arg: str | None = None) -> InteractionResult:
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
        return await self.click(who, message, custom_id)

    async def panel(self, who: str) -> Message | None:
        """Press "My hand" (or, while the table message does not show it yet,
        run `/toep hand`); the ephemeral panel (past capacity: once it replaced
        the "thinking" answer), or None if refused. A panel
        opens on the table as last told, so a computer's move (or a closing
        window) in flight is first saved and told."""
        if self.bot is not None:
            await self.bot.manager.settled()
        try:
            table: Message | None = self.table_message()
        except LookupError:
            table = None
        button = None if table is None else panel_button(table, "hand")
        if table is not None and button is not None:
            res = await self.click(who, table, button)
        else:
            res = await self.slash(who, "toep hand")
        if res.ack_type == 5:  # "thinking" past capacity: the panel follows
            await self.fake.wait_for(lambda: res.message is not None
                                     and bool(res.message.buttons()), 10.0)
        message = res.message
        if message is None or not message.ephemeral or not message.buttons():
            return None
        return message

    async def act(self, who: str, panel: Message, verbs: tuple[str, ...] = PREFERRED) -> bool:
        """Click the first enabled game button of the panel, by `verbs` order."""
        options = [(b, _verb(b)) for b in panel.buttons() if not b.get("disabled")]
        for verb in verbs:
            for button, (found, _) in options:
                if found == verb:
                    await self.click(who, panel, button["custom_id"])
                    return True
        return False

    async def answer(self, who: str, verb: str, arg: str | None = None,
                     panel: Message | None = None) -> InteractionResult:
        """Open `who`'s hand panel (or use `panel`) and click its enabled `verb`
        button (`arg`: the card of a play); fails if the panel has none."""
        panel = panel or await self.panel(who)
        assert panel is not None, f"{who} got no hand panel"
        custom_id = panel_button(panel, verb, arg)
        assert custom_id is not None, (
            f"{who}'s panel has no enabled {verb} {arg or ''}: "
            f"{[_verb(b) for b in panel.buttons() if not b.get('disabled')]}")
        return await self.click(who, panel, custom_id)

    async def forge_click(self, who: str, custom_id: str,
                          message: Message | None = None) -> InteractionResult:
        """A click with a custom_id no button of ours carries (a forged client),
        sent from a copy of the table message (or `message`) that shows it: past
        the gate's first check (cogs/gate.py), to try what lies behind it. A
        click from the real message is `fake.forge_click`."""
        source = message or self.table_message()
        forged = dataclasses.replace(source, components=[{"type": 1, "components": [
            {"type": 2, "style": 2, "label": "?", "custom_id": custom_id}]}])
        return await self.click(who, forged, custom_id)

    async def step(self, policy: Policy) -> bool:
        """Every person the game waits for answers as `policy` says, through
        their hand panel. False if nobody could act."""
        table = self.table()
        game = table.game
        if game is None or not table.open or game.over:
            return False
        acted = False
        for seat in game.waiting().seats:
            who = self.name_of(table.seats[seat].user_id)
            if who is None or seat in table.passed:
                continue
            choice = policy(game, seat)
            if choice is None:
                continue
            verb, card = choice
            panel = await self.panel(who)
            if panel is None or panel_button(panel, verb, card) is None:
                continue  # the moment moved on meanwhile (a computer, a clock)
            await self.answer(who, verb, card, panel)
            acted = True
            break  # the game moved on: look again
        return acted

    async def drive(self, policy: Policy, until: Callable[[Table], bool],
                    limit: int = 400, after: Callable[[], None] | None = None) -> None:
        """Answer by `policy` until `until(table)` holds; `after` looks on
        after every step."""
        idle = 0
        for _ in range(limit):
            table = self.table()
            if after is not None:
                after()
            if until(table):
                return
            if not table.open:
                raise AssertionError(f"the table closed before the goal: {table.status}")
            if await self.step(policy):
                idle = 0
            else:
                idle += 1
                if idle > 200:
                    raise AssertionError("nobody can act, and the game does not move")
                await asyncio.sleep(0.01)
        raise AssertionError("the goal was not reached")

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

    # --- checking -------------------------------------------------------------------------

    def assert_all_acknowledged(self) -> None:
        """Every interaction was acknowledged, each within Discord's 3 seconds."""
        late = [(r.id, r.payload["data"].get("custom_id") or r.payload["data"].get("name"),
                 r.ack_delay)
                for r in self.fake.store.interactions.values()
                if r.ack_type is None or r.ack_delay is None or r.ack_delay >= 3.0]
        assert late == [], f"interactions not acknowledged in time: {late}"
        doubles = [r for r in self.fake.rejections if r.code in (40060, 10062)]
        assert doubles == [], f"acknowledged twice or too late: {doubles}"

    def assert_edit_pace(self, interval: float = 0.9) -> None:
        """A channel message is edited at most about once a second."""
        times: dict[int, list[float]] = {}
        for edit in self.fake.edit_log:
            if edit.route.startswith("PATCH /channels/"):
                times.setdefault(edit.message_id, []).append(edit.at)
        for message_id, at in times.items():
            # A bot built again after a restart keeps its own pace.
            gaps = [b - a for a, b in itertools.pairwise(at)
                    if not any(a < started <= b for started in self.starts)]
            assert min(gaps, default=interval) >= interval, (
                f"message {message_id} edited {len(at)} times, gaps {gaps}")


class FixedSeed(random.Random):
    """A table manager's generator of seeds that always gives `seed`."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.fixed = seed

    def getrandbits(self, k: int, /) -> int:
        return self.fixed


class _Errors(logging.Handler):
    """Keeps the bot's log records at ERROR and above."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def original(res: InteractionResult) -> Message:
    """The @original message of an interaction result."""
    message: Message | None = res.message
    assert message is not None
    return message


@asynccontextmanager
async def open_world(path: Path, names: tuple[str, ...] = ("anna", "bram"), *,
                     locale: str = "en-US", guild_locale: str = "en-US",
                     clock: ClockSource | None = None, seed: int | None = None,
                     config: TableConfig | None = None,
                     expect_logged: tuple[str, ...] = (),
                     database_url: str | None = None,
                     web: bool = False, activity: bool = False,
                     trusted_proxies: tuple[Network, ...] = ()) -> AsyncIterator[World]:
    """A started fake Discord and bot (on a `FakeClock` unless given another
    clock: time moves only when a test advances it), on the SQLite file
    `path / "toep.sqlite3"` or the PostgreSQL `database_url`. Afterwards: no errors
    in the fake or the bot's log (but those of the loggers `expect_logged`),
    every click answered in time, once. `web`: the web table runs too, on a
    free port, its logins exchanged at the fake's OAuth2 endpoint; `activity`:
    and the application has an Activity, launched by "Open the table";
    `trusted_proxies`: the web table's WEB_TRUSTED_PROXIES."""
    errors = _Errors()
    root = logging.getLogger()
    root.addHandler(errors)
    try:
        clock = clock or FakeClock()
        # Discord's timestamps (in its snowflakes) run on the world's clock.
        async with FakeDiscord(token=TOKEN, wall_clock=lambda: clock.now().timestamp(),
                               activities=activity) as fake:
            world = World(fake, path / "toep.sqlite3", clock=clock,
                          config=config or TableConfig(bot_pause=0),
                          logged_errors=errors.records, database_url=database_url)
            if web or activity:
                world.web = WebSettings(0, client_id=fake.application_id,
                                        client_secret=fake.client_secret, activity=activity,
                                        trusted_proxies=trusted_proxies)
            world.setup(names, locale=locale, guild_locale=guild_locale)
            await world.start()
            if isinstance(clock, FakeClock):
                clock.settle_hooks.append(world.clocks_shown)
            if seed is not None:
                world.fix_seed(seed)
            try:
                yield world
            finally:
                await world.stop()
            assert fake.errors == []
            world.assert_all_acknowledged()
            world.assert_edit_pace()
    finally:
        root.removeHandler(errors)
    logged = [f"{r.name}: {r.getMessage()}" for r in errors.records
              if r.name.startswith(("cogs", "tables", "engine", "data", "toep", "discord"))
              and r.name not in expect_logged]
    assert logged == [], f"the bot logged errors: {logged}"


async def open_private_table(world: World, *, guests: tuple[str, ...] = (),
                             bots: tuple[str, ...] = (), **rules: Any) -> Table:
    """The first person hosts a private table; `guests` are invited and join,
    `bots` (levels) are added. Not started yet."""
    host = next(iter(world.people))
    res = await world.slash(host, "toep new", {"private": True, **rules})
    assert res.ephemeral
    await world.wait_table_message(host)
    for guest in guests:
        await world.slash(host, "toep invite", {"member": world.people[guest]})
        await world.click_table(guest, "join")
    for level in bots:
        await world.click_table(host, "addbot", level)
    table = world.table()
    await world.fake.wait_for(lambda: len(table.seats) == 1 + len(guests) + len(bots))
    return table


async def open_public_table(world: World) -> Table:
    """The first person opens a public table (the 20 s clock; forfeits there
    count toward a ban, R19), the second joins, and it starts."""
    host, guest = list(world.people)[:2]
    await world.slash(host, "toep new")
    await world.wait_table_message(host)
    await world.click_table(guest, "join")
    table = world.table()
    await world.fake.wait_for(lambda: len(table.seats) == 2)
    return await start(world)


async def ping_always(world: World) -> None:
    """The server pings everyone the moment their turn starts (its default
    for `/toep settings ping:`), as tests of the ping message itself want."""
    from data import ping_settings

    assert world.bot is not None
    await ping_settings.set_guild_default(world.bot.db, world.guild.id,
                                          ping_settings.PingChoice.ALWAYS)
    world.bot.presenter.pings.choices.forget(world.guild.id)


async def to_a_turn(world: World, table: Table) -> int:
    """The opening vuile was window runs out (on the fake clock); the seat
    whose turn it is then."""
    game = table.game
    assert game is not None and game.phase is Phase.WINDOW
    await world.fake_clock.advance(table.rules.window)
    assert game.phase is Phase.PLAY and table.deadline is not None
    return game.turn


async def counted_forfeits(world: World, table: Table) -> int:
    """The forfeits of everyone in the world that count toward a ban (R19)."""
    from data import bans

    counted = 0
    for person in world.people.values():
        counted += len(await bans.forfeits_in_window(
            table.deps.db, table.row.guild_id, person.id, world.fake_clock.now()))
    return counted


async def start(world: World) -> Table:
    host = next(iter(world.people))
    await world.click_table(host, "start")
    table = world.table()
    assert table.game is not None
    return table


# --- scripted players ------------------------------------------------------------------

# A person's choice: a verb of the hand panel, and the card of a play.
Choice = tuple[str, str | None]
Policy = Callable[[Game, int], Choice | None]


def careful(game: Game, seat: int) -> Choice | None:
    """No vuile was, believe, call, play in, no super toep, the first legal card."""
    phase = game.phase
    if phase is Phase.WINDOW:
        return ("pass", None)
    if phase is Phase.CHECK:
        return (ev.BELIEVE, None)
    if phase is Phase.TOEP_ANSWER:
        return (ev.CALL, None)
    if phase is Phase.DEAD_MAN_CHOICE:
        return (ev.PLAY_IN, None)
    if phase is Phase.SUPER_QUESTION:
        return (ev.SUPER_NO, None)
    if phase is Phase.PLAY:
        plays = [e for e in game.legal_events(seat) if e.do == ev.PLAY and e.card]
        return (ev.PLAY, plays[0].card.text) if plays and plays[0].card else None
    return None


def ladder(top: int) -> Policy:
    """`careful`, but toep whenever allowed while the stake is below `top`:
    marks come quickly."""
    def policy(game: Game, seat: int) -> Choice | None:
        if game.phase is Phase.PLAY and game.stake < top and any(
                e.do == ev.TOEP for e in game.legal_events(seat)):
            return (ev.TOEP, None)
        return careful(game, seat)

    return policy


def simulate(game: Game, policy: Policy, until: Callable[[Game], bool],
             limit: int = 2000) -> int | None:
    """Play `game` offline as `World.drive` would with people only: the number
    of decisions until `until(game)`, or None if it never holds."""
    passed: set[int] = set()
    for steps in range(limit):
        if until(game):
            return steps
        if game.over:
            return None
        waiting = game.waiting()
        seats = [s for s in waiting.seats if s not in passed]
        if not seats:
            return None
        seat = seats[0]
        choice = policy(game, seat)
        if choice is None:
            return None
        verb, card = choice
        if verb == "pass":
            if game.phase is Phase.CHECK:
                game.apply(ev.act(ev.BELIEVE, seat))
            elif game.phase is Phase.SUPER_QUESTION:
                game.apply(ev.act(ev.SUPER_NO, seat))
            else:
                passed.add(seat)
                if set(waiting.seats) <= passed:
                    game.apply(ev.act(ev.CLOSE_WINDOW))
                    passed.clear()
            continue
        passed.clear()
        if verb == ev.PLAY:
            found = [e for e in game.legal_events(seat) if e.card and e.card.text == card]
            game.apply(found[0])
        else:
            game.apply(ev.act(verb, seat))
    return None


def reply(res: InteractionResult) -> str:
    """The ephemeral answer to a command or click (its response or followups);
    fails if there is none, or if any answer was posted in the channel."""
    answers = [m for m in res.followups]
    if res.ack_type == 4 and res.message is not None:  # answered with a message
        answers.insert(0, res.message)
    assert answers, f"no answer to interaction {res.id} ({res.ack_name})"
    public = [m.text for m in answers if not m.ephemeral]
    assert public == [], f"answered in the channel: {public}"
    text = "\n".join(m.text for m in answers)
    assert not RAW_KEY.search(text), f"a catalog key instead of its text: {text!r}"
    return text


def panel_button(panel: Message, verb: str, arg: str | None = None) -> str | None:
    """The custom_id of the panel's enabled `verb` button (with `arg`), if any."""
    for button in panel.buttons():
        if not button.get("disabled") and _verb(button) == (verb, arg):
            return str(button["custom_id"])
    return None


def _verb(button: dict[str, Any]) -> tuple[str | None, str | None]:
    try:
        decoded: ButtonId = decode(button.get("custom_id", ""))
    except ForgedId:
        return None, None
    return decoded.verb, decoded.arg
