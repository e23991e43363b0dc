"""The standing ping of a table (cogs/pings.py): one message, naming everyone
pinged who is still on turn, notifying only those pinged just now; gone once
none of them is on turn; a table message posted anew takes it along without
notifying anyone again."""

from __future__ import annotations

import itertools
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import discord

from cogs.pings import Choices, Pings, TablePings
from data.ping_settings import PingChoice
from engine.rules import TableRules
from tables.clock import FakeClock
from tables.load import LoadGauge
from tables.snapshot import Clock, SeatInfo, Status, TableSnapshot

ANNA, BRAM, CEES = 1001, 1002, 1003


@dataclass
class Sent:
    id: int
    text: str
    notifies: frozenset[int]
    deleted: bool = False


@dataclass
class FakeChannel:
    sent: list[Sent] = field(default_factory=list)
    ids: Any = field(default_factory=lambda: itertools.count(500))

    async def send(self, text: str, allowed_mentions: discord.AllowedMentions) -> Sent:
        users = allowed_mentions.users
        notifies = frozenset(u.id for u in users) if isinstance(users, list) else frozenset()
        message = Sent(next(self.ids), text, notifies)
        self.sent.append(message)
        return message

    def get_partial_message(self, message_id: int) -> Any:
        channel = self

        class Partial:
            async def delete(self) -> None:
                next(m for m in channel.sent if m.id == message_id).deleted = True

        return Partial()


class FakeClient:
    def __init__(self) -> None:
        self.channel = FakeChannel()

    def get_partial_messageable(self, channel_id: int) -> FakeChannel:
        return self.channel


class Host:
    """The presenter's side of the pings, with panels as a test sets them."""

    def __init__(self, choices: dict[int, PingChoice]) -> None:
        self.client: Any = FakeClient()
        self.db: Any = None
        self.clock = FakeClock()
        self.load = LoadGauge()
        self.closing = False
        self.panels: dict[int, tuple[datetime | None, bool]] = {}
        self.saved = 0
        self.woken = 0
        self.choices = choices

    def table_link(self, snap: TableSnapshot) -> str:
        return "https://discord.com/channels/1/2/3"

    async def table_lang(self, guild_id: int) -> str:
        return "en"

    async def save_ping(self, table_id: int) -> None:
        self.saved += 1

    def looked(self, table_id: int, user_id: int, snap: TableSnapshot
               ) -> tuple[datetime | None, bool]:
        return self.panels.get(user_id, (None, False))

    def wake_pings(self, table_id: int) -> None:
        self.woken += 1


class SetChoices(Choices):
    """Choices as a test sets them, not from a database."""

    def __init__(self, chosen: dict[int, PingChoice]) -> None:
        super().__init__(db=None)  # type: ignore[arg-type]
        self.chosen = chosen

    async def of(self, guild_id: int, user_ids: Collection[int]) -> dict[int, PingChoice]:
        return {u: self.chosen[u] for u in user_ids}


def _pings(host: Host) -> Pings:
    pings = Pings(host)  # type: ignore[arg-type]
    pings.choices = SetChoices(host.choices)
    return pings


def _snap(host: Host, on_turn: tuple[int, ...], stamp: str, seconds: int = 20,
          window: bool = False, status: Status = Status.PLAYING) -> TableSnapshot:
    seats = tuple(SeatInfo(i, u, None, f"P{i}") for i, u in enumerate((ANNA, BRAM, CEES)))
    clock = Clock(on_turn, host.clock.now() + timedelta(seconds=seconds), window)
    return TableSnapshot(
        table_id=7, guild_id=1, channel_id=2, host_id=ANNA, public=False, rules=TableRules(),
        status=status, seats=seats, invited=frozenset(), view=None, clock=clock,
        passed=frozenset(), recent=(), stamp=stamp)


async def test_a_second_person_on_turn_is_pinged_without_the_first_being_pinged_again() -> None:
    host = Host({ANNA: PingChoice.ALWAYS, BRAM: PingChoice.IDLE, CEES: PingChoice.IDLE})
    pings, state = _pings(host), TablePings()
    # A dead man's choice: anna and bram decide at once (seats 0 and 1).
    snap = _snap(host, (0, 1), "a")
    await pings.update(state, snap)
    sent = host.client.channel.sent
    assert [(m.notifies, m.deleted) for m in sent] == [(frozenset({ANNA}), False)]
    assert state.timer is not None  # the next look: bram's idle moment

    await host.clock.advance(5)
    await pings.update(state, snap)
    assert sent[0].deleted and sent[1].notifies == {BRAM}
    assert f"<@{ANNA}> <@{BRAM}>" in sent[1].text  # named both, notified bram only

    # anna answers: the ping stands for bram; then bram answers: it goes.
    await pings.update(state, _snap(host, (1,), "a", seconds=15))
    assert not sent[1].deleted and len(sent) == 2
    await pings.update(state, _snap(host, (), "b"))
    assert sent[1].deleted and state.ping_id is None and host.saved >= 4


async def test_a_table_message_posted_anew_takes_the_ping_along_notifying_nobody() -> None:
    host = Host({ANNA: PingChoice.ALWAYS, BRAM: PingChoice.ALWAYS, CEES: PingChoice.ALWAYS})
    pings, state = _pings(host), TablePings()
    snap = _snap(host, (0,), "a")
    await pings.update(state, snap)
    state.relink = True
    await pings.update(state, snap)
    sent = host.client.channel.sent
    assert sent[0].deleted and not sent[1].deleted and sent[1].notifies == frozenset()
    assert f"<@{ANNA}>" in sent[1].text


async def test_an_open_panel_that_shows_the_decision_keeps_it_quiet_until_the_last_call() -> None:
    host = Host({ANNA: PingChoice.IDLE, BRAM: PingChoice.IDLE, CEES: PingChoice.IDLE})
    pings, state = _pings(host), TablePings()
    host.panels[BRAM] = (host.clock.now() - timedelta(minutes=1), True)
    snap = _snap(host, (1,), "c")
    await pings.update(state, snap)
    await host.clock.advance(11)
    await pings.update(state, snap)
    assert host.client.channel.sent == []
    await host.clock.advance(1)  # 8 seconds left
    await pings.update(state, snap)
    [last] = host.client.channel.sent
    assert last.notifies == {BRAM} and "your time runs out" in last.text


async def test_windows_and_finished_games_ping_nobody() -> None:
    host = Host({ANNA: PingChoice.ALWAYS, BRAM: PingChoice.ALWAYS, CEES: PingChoice.ALWAYS})
    pings, state = _pings(host), TablePings()
    await pings.update(state, _snap(host, (0, 1), "w", window=True))
    await pings.update(state, _snap(host, (0,), "x", status=Status.FINISHED))
    assert host.client.channel.sent == [] and state.timer is None
