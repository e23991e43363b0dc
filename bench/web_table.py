"""The web table under load: tables played by people whose pages watch them,
while the bot is killed and started again.

    python bench/web_table.py [--tables 50] [--seconds 60] [--kill-at 0.4] [--think 0.5]
                              [--json]

The fake Discord and the people are in this process; the unmodified bot, with
its web table on, in a process of its own (bench/e2e_bot.py, as bench/e2e_load.py
runs it). Each table is private, with four people seated; each of them has a
page open (a websocket, logged in through the fake's OAuth2 as the Embedded App
SDK would). The person whose decision it is answers as a careful player, by turns
from their page and from the hand panel's button in Discord, after looking at
the table for `--think` seconds (0: as fast as the bot answers, a stress test
whose figures are mostly queueing).

Figures (`--json` prints one object):

- `update_p50_ms`, `update_p95_ms`, `update_max_ms`: from a click (the page's
  message sent, or the Discord button clicked) until every one of the table's four
  pages has received the new state (goal: p95 under 150 ms);
  `update_p95_ms_by_page` for the clicks made in the page alone;
  `world_lag_p95_ms`, this process's event-loop lag (the fake Discord and the
  pages share it: a frame is timed when this loop gets to it);
- `foreign_card_frames`: frames that carried a card of another seat's hand (goal
  0). At every moment the four pages of a table agree on, each page's frame is
  checked against the other three's hands; `frames_checked` counts them;
- `restart`: the bot SIGKILLed at `--kill-at` of the run (the people pause first)
  and started again at once on the same database: for every page, the time from
  the restart (the new process started) until it shows the table again
  (`reconnect_max_s`, goal within 3 s; also `from_ready_max_s`, from the new bot's
  ready), and whether it shows the same game it showed before (`same_state`: the
  same status and events; passes in an open window are silence the bot does not
  keep over a restart, so the window starts again);
- `moves`, `by_page`, `by_discord`, `games_finished`, `frames`, `errors` (the
  fake's) and `bot_problems` (the bot's own log at WARNING and above).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script too

from bench.e2e_load import BOT_READY_TIMEOUT, BotProcess, percentile, print_result
from bench.e2e_wire import TOKEN, BotConfig
from cogs.ids import ForgedId, decode
from tests.e2e.fake_discord import FakeDiscord, User
from tests.e2e.fake_discord.models import Message

Frame = dict[str, Any]
CAREFUL = ("pass", "believe", "call", "play_in", "super_no")  # else the first playable card
SETTLE = 10.0  # seconds a table's pages may take to show a move before it counts as stuck
RETRY = 0.1  # seconds between a page's attempts to reconnect
LAG_STEP = 0.05  # seconds between looks at this process's event loop


def marker(frame: Frame) -> tuple[Any, ...]:
    game = frame["game"]
    return (frame["status"], None if game is None else game["event_count"],
            tuple(frame["passed"]), len(frame["seats"]))


class Page:
    """One person's page: logs in once, keeps a websocket, reconnects when it drops."""

    def __init__(self, http: aiohttp.ClientSession, base: str, user: User, channel: int) -> None:
        self.http, self.base, self.user, self.channel = http, base, user, channel
        self.session = ""
        self.last: Frame | None = None
        self.arrived = 0.0  # perf_counter() of `last`
        self.frames = 0
        self.changed = asyncio.Event()
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self.stopping = False
        self.reconnects = 0
        self.denied: str | None = None
        self.closes: list[int | None] = []  # close codes, for a bench that goes wrong
        self.ticket = ""

    async def login(self, fake: FakeDiscord) -> None:
        async with self.http.post(f"{self.base}/api/token",
                                  json={"code": fake.authorize(self.user)}) as res:
            res.raise_for_status()
            self.session = (await res.json())["session"]

    async def run(self) -> None:
        while not self.stopping:
            with contextlib.suppress(aiohttp.ClientError, ConnectionError):
                async with self.http.ws_connect(f"{self.base}/ws") as socket_:
                    self.socket = socket_
                    await socket_.send_json({"type": "hello", "session": self.session,
                                             "channel": str(self.channel), "pass": self.ticket})
                    async for message in socket_:
                        if message.type is aiohttp.WSMsgType.TEXT:
                            self._receive(json.loads(message.data))
                    self.closes.append(socket_.close_code)
            self.socket = None
            if not self.stopping:
                self.reconnects += 1
                await asyncio.sleep(RETRY)

    def _receive(self, frame: Frame) -> None:
        if frame["type"] in ("welcome", "pass"):
            self.ticket = str(frame["pass"])  # shown when reconnecting, as the page does
        if frame["type"] in ("denied", "refused"):
            self.denied = str(frame["text"])
        if frame["type"] != "table":
            return
        self.last, self.arrived = frame, time.perf_counter()
        self.frames += 1
        self.changed.set()

    async def act(self, verb: str, card: str | None) -> None:
        assert self.socket is not None and self.last is not None
        await self.socket.send_json({"type": "act", "verb": verb, "card": card,
                                     "stamp": self.last["stamp"]})


@dataclass
class Run:
    index: int
    channel: Any
    people: list[User]
    pages: list[Page] = field(default_factory=list)
    moves: int = 0


@dataclass
class Tally:
    updates: list[float] = field(default_factory=list)
    page_updates: list[float] = field(default_factory=list)  # the moves made in the page
    lag: list[float] = field(default_factory=list)  # this process's event loop, per look
    by_page: int = 0
    by_discord: int = 0
    checked: int = 0
    leaks: int = 0
    finished: int = 0
    stuck: int = 0
    restart: dict[str, Any] = field(default_factory=dict)


class Bench:
    def __init__(self, tables: int, seconds: float, kill_at: float, think: float) -> None:
        self.tables, self.seconds, self.kill_at, self.think = tables, seconds, kill_at, think
        self.tally = Tally()
        self.runs: list[Run] = []
        self.playing = asyncio.Event()  # cleared while the bot is killed and restarted
        self.in_flight = 0
        self.deadline = 0.0
        self.bot = BotProcess()
        self.fake: FakeDiscord | None = None
        self.config: BotConfig | None = None

    # --- the world -----------------------------------------------------------------------

    async def start(self, fake: FakeDiscord, database: Path, http: aiohttp.ClientSession) -> None:
        self.fake = fake
        guild = fake.add_guild("Café de Toep", locale="en-US")
        for i in range(self.tables):
            channel = fake.add_channel(guild, f"toepen-{i}")
            people = [fake.add_user(f"p{i}-{n}", guild=guild) for n in range(4)]
            self.runs.append(Run(i, channel, people))
        port = _free_port()
        self.config = BotConfig(port=fake.port, ca_pem=fake.ca_pem, database=str(database),
                                bot_pause=0.0, web_port=port, client_id=fake.application_id,
                                client_secret=fake.client_secret)
        await self.bot.start(self.config)
        await self.bot.wait_ready(BOT_READY_TIMEOUT)
        await fake.wait_ready(30.0)
        await fake.wait_commands("toep", timeout=30.0)
        base = f"http://127.0.0.1:{port}/.proxy"
        for run in self.runs:
            run.pages = [Page(http, base, person, run.channel.id) for person in run.people]

    async def open_table(self, run: Run) -> None:
        fake = self.fake
        assert fake is not None
        host = run.people[0]
        # The longest game and clocks: tables still play when the bot is killed.
        await fake.slash(host, run.channel, "toep new", {"private": True, "limit": 30,
                                                         "clock": 60, "window": 30})
        await self._wait(lambda: self.bot.in_channel(run.channel.id) is not None, 30.0)
        for guest in run.people[1:]:
            res = await fake.slash(host, run.channel, "toep invite", {"member": guest})
            await res.wait_followups(1)  # the answer comes once the invitation is saved
        for page in run.pages:
            await page.login(fake)
            asyncio.get_running_loop().create_task(page.run())
        await self._all_showing(run, lambda frames: all(f["status"] == "lobby" for f in frames))
        for seated, page in enumerate(run.pages[1:], start=2):
            await page.act("join", None)
            await self._all_showing(run, _seats_shown(seated))
        await run.pages[0].act("start", None)
        await self._all_showing(run, lambda frames: all(f["game"] for f in frames))

    # --- playing ---------------------------------------------------------------------------

    async def play(self, run: Run) -> None:
        while time.monotonic() < self.deadline:
            await self.playing.wait()
            frames = await self._agreed(run)
            if frames[0]["status"] != "playing":
                self.tally.finished += frames[0]["status"] == "finished"
                return
            self._check(frames)
            await asyncio.sleep(self.think)  # a person reads the table before clicking
            if not self.playing.is_set():
                continue
            self.in_flight += 1
            try:
                if not await self._move(run, frames):
                    self.tally.stuck += 1
                    return
            finally:
                self.in_flight -= 1

    async def _move(self, run: Run, frames: list[Frame]) -> bool:
        game = frames[0]["game"]
        seat = next(s for s in game["waiting"] if s not in frames[0]["passed"])
        page = next(p for p, f in zip(run.pages, frames, strict=True)
                    if f["me"] and f["me"]["seat"] == seat)
        verb, card = _careful(page.last["me"] if page.last else {})
        before = marker(frames[0])
        custom_id = None
        if run.moves % 2 == 1:  # by turns: the hand panel's button in Discord
            custom_id, panel = await self._panel_button(run, page.user, verb, card)
        started = time.perf_counter()
        if custom_id is not None:
            assert self.fake is not None
            await self.fake.click(page.user, panel, custom_id)
            self.tally.by_discord += 1
        else:
            await page.act(verb, card)
            self.tally.by_page += 1
        run.moves += 1
        try:
            await self._all_showing(run, lambda fs: all(marker(f) != before for f in fs), SETTLE)
        except TimeoutError:
            return False
        took = max(p.arrived for p in run.pages) - started
        self.tally.updates.append(took)
        if custom_id is None:
            self.tally.page_updates.append(took)
        return True

    async def _panel_button(self, run: Run, user: User, verb: str,
                            card: str | None) -> tuple[str | None, Any]:
        """Open the hand panel ("My hand" on the table message); the button to click."""
        fake = self.fake
        assert fake is not None
        message = _table_message(fake.channel_messages(run.channel))
        if message is None:
            return None, None
        hand = next((b["custom_id"] for b in message.buttons() if _verb(b) == ("hand", None)),
                    None)
        if hand is None:
            return None, None
        res = await fake.click(user, message, str(hand))
        panel = await fake.wait_for(lambda: res.message if res.message is not None
                                    and res.message.buttons() else None, 10.0)
        for button in panel.buttons():
            if not button.get("disabled") and _verb(button) == (verb, card):
                return str(button["custom_id"]), panel
        return None, None

    def _check(self, frames: list[Frame]) -> None:
        """The four pages agree on the moment: none holds another seat's card."""
        game = frames[0]["game"]
        public = {c for _, c in game["table"]} | {c for t in game["tricks"] for _, c in t["cards"]}
        public |= {c for _, cards in game["open_hands"] for c in cards}
        hands = [set(f["me"]["hand"]) if f["me"] else set() for f in frames]
        for i, frame in enumerate(frames):
            others = set().union(*(h for j, h in enumerate(hands) if j != i)) - public - hands[i]
            if others & _strings(frame):
                self.tally.leaks += 1
            self.tally.checked += 1

    # --- the restart -----------------------------------------------------------------------

    async def restart(self) -> None:
        await asyncio.sleep(self.seconds * self.kill_at)
        self.playing.clear()
        while self.in_flight:
            await asyncio.sleep(0.01)
        pages = [p for run in self.runs for p in run.pages if p.last is not None]
        # The game as saved: passes in an open window are silence the bot does not
        # keep over a restart (the window starts again with its whole clock).
        before = {id(p): marker(p.last)[:2] for p in pages if p.last is not None}
        seen = {id(p): p.frames for p in pages}
        await self.bot.crash()
        restarted = time.perf_counter()
        assert self.config is not None
        await self.bot.start(self.config)
        await self.bot.wait_ready(BOT_READY_TIMEOUT)
        ready = time.perf_counter()
        back: dict[int, float] = {}
        end = time.monotonic() + 30.0
        while len(back) < len(pages) and time.monotonic() < end:
            for page in pages:
                if id(page) not in back and page.frames > seen[id(page)]:
                    back[id(page)] = page.arrived
            await asyncio.sleep(0.01)
        same = sum(1 for p in pages if id(p) in back and p.last is not None
                   and marker(p.last)[:2] == before[id(p)])
        waits = [back[id(p)] - restarted for p in pages if id(p) in back]
        self.tally.restart = {
            "pages": len(pages), "reconnected": len(back), "same_state": same,
            "within_3s": sum(1 for w in waits if w <= 3.0),
            "reconnect_p95_s": round(percentile(waits, 0.95), 2) if waits else None,
            "reconnect_max_s": round(max(waits), 2) if waits else None,
            "from_ready_max_s": round(max(back.values()) - ready, 2) if back else None,
            "bot_ready_s": round(ready - restarted, 2)}
        self.playing.set()

    # --- waiting ---------------------------------------------------------------------------

    async def _agreed(self, run: Run) -> list[Frame]:
        """The frames of the table's four pages once they show the same moment."""
        await self._all_showing(run, lambda fs: len({marker(f) for f in fs}) == 1, 60.0)
        return [p.last for p in run.pages if p.last is not None]

    async def _all_showing(self, run: Run, check: Callable[[list[Frame]], bool],
                           timeout: float = 30.0) -> None:
        async def loop() -> None:
            while True:
                frames = [p.last for p in run.pages]
                if all(f is not None for f in frames) and check(frames):  # type: ignore[arg-type]
                    return
                waits = [asyncio.ensure_future(p.changed.wait()) for p in run.pages]
                for p in run.pages:
                    p.changed.clear()
                await asyncio.wait(waits, timeout=0.5, return_when=asyncio.FIRST_COMPLETED)
                for w in waits:
                    w.cancel()

        try:
            await asyncio.wait_for(loop(), timeout)
        except TimeoutError as err:
            shown = [(p.user.name, p.denied, p.closes, p.last and marker(p.last))
                     for p in run.pages]
            raise TimeoutError(f"table {run.index}: the pages show {shown}") from err

    async def _follow_lag(self) -> None:
        """This process's event-loop lag: the fake Discord and the pages share it,
        and a page's frame is timed when this loop reads it."""
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(LAG_STEP)
            self.tally.lag.append(time.perf_counter() - asked - LAG_STEP)

    async def _wait(self, check: Callable[[], bool], timeout: float) -> None:
        end = time.monotonic() + timeout
        while not check():
            if time.monotonic() > end:
                raise TimeoutError("the bench waited too long")
            await asyncio.sleep(0.05)

    async def run(self) -> dict[str, Any]:
        with tempfile.TemporaryDirectory() as folder:
            # No cap on connections: every page holds one for its websocket.
            async with FakeDiscord(token=TOKEN) as fake, aiohttp.ClientSession(
                    connector=aiohttp.TCPConnector(limit=0)) as http:
                await self.start(fake, Path(folder) / "toep.sqlite3", http)
                await asyncio.gather(*(self.open_table(run) for run in self.runs))
                self.playing.set()  # the run's time counts from here: every table is open
                self.deadline = time.monotonic() + self.seconds
                restart = asyncio.create_task(self.restart())
                lag = asyncio.create_task(self._follow_lag())
                await asyncio.gather(*(self.play(run) for run in self.runs))
                await restart
                lag.cancel()
                for run in self.runs:
                    for page in run.pages:
                        page.stopping = True
                        if page.socket is not None:
                            await page.socket.close()
                problems = await self.bot.close()
                return self.report(fake, problems.to_json())

    def report(self, fake: FakeDiscord, problems: Any) -> dict[str, Any]:
        updates = [u * 1000 for u in self.tally.updates]
        frames = sum(p.frames for run in self.runs for p in run.pages)
        return {
            "tables": self.tables, "pages": 4 * self.tables, "seconds": self.seconds,
            "think_s": self.think, "moves": len(updates),
            "moves_per_s": round(len(updates) / self.seconds, 1), "by_page": self.tally.by_page,
            "by_discord": self.tally.by_discord,
            "update_p50_ms": round(percentile(updates, 0.5), 1) if updates else None,
            "update_p95_ms": round(percentile(updates, 0.95), 1) if updates else None,
            "update_max_ms": round(max(updates), 1) if updates else None,
            "update_p95_ms_by_page": _p95_ms(self.tally.page_updates),
            "world_lag_p95_ms": _p95_ms(self.tally.lag),
            "frames": frames, "frames_checked": self.tally.checked,
            "foreign_card_frames": self.tally.leaks, "games_finished": self.tally.finished,
            "stuck_tables": self.tally.stuck, "restart": self.tally.restart,
            "errors": len(fake.errors), "bot_problems": problems}


def _p95_ms(seconds: list[float]) -> float | None:
    return round(percentile(seconds, 0.95) * 1000, 1) if seconds else None


def _seats_shown(count: int) -> Callable[[list[Frame]], bool]:
    return lambda frames: all(len(f["seats"]) == count for f in frames)


def _careful(me: Frame) -> tuple[str, str | None]:
    for verb in CAREFUL:
        if verb in me.get("answers", ()):
            return verb, None
    if me.get("playable"):
        return "play", me["playable"][0]
    answers = me.get("answers") or ["pass"]
    return answers[0], None


def _verb(button: dict[str, Any]) -> tuple[str | None, str | None]:
    try:
        found = decode(str(button.get("custom_id", "")))
    except ForgedId:
        return None, None
    return found.verb, found.arg


def _table_message(messages: list[Message]) -> Message | None:
    for message in reversed(messages):
        if any(_verb(b)[0] == "hand" for b in message.buttons()):
            return message
    return None


def _strings(value: object) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--kill-at", type=float, default=0.4,
                        help="the share of the run after which the bot is killed")
    parser.add_argument("--think", type=float, default=0.5,
                        help="seconds a person looks at the table before each click")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bench = Bench(args.tables, args.seconds, args.kill_at, args.think)
    print_result(asyncio.run(bench.run()), args.json)


if __name__ == "__main__":
    main()
