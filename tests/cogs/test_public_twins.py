"""Public means public (DESIGN.md, "What each player sees"): twin games with
the same public history but other hidden cards look the same to everyone who
does not hold those cards. Compared at every step: the public view, whom the
game waits for, each seat's own view where its own cards are the same, the
table's snapshot with its clock and deadline, and the channel message (en
and nl) with its buttons."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, cast

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cogs.render_table import table_message
from data.db import Database
from data.gamevalues import Game as GameRow
from engine import events as ev
from engine.game import Game
from engine.views import SeatView, public_view, seat_view
from tables.clock import FakeClock
from tables.snapshot import SeatInfo, Status, TableSnapshot
from tables.table import Table, TableConfig, TableDeps
from tests.engine.twins import Twins, hidden_differs, make_twins

NOW = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


class _Deaf:
    async def table_changed(self, *args: object) -> None:
        return None


def _table(twins: Twins, game: Game, humans: frozenset[int]) -> Table:
    """A live table holding `game` (never saved: only its snapshot and clocks are used)."""
    row = GameRow(id=7, guild_id=1, channel_id=2, message_id=None, host_id=100, public=True,
                  rules=twins.rules.to_json(), seed=0, status="playing", rated=True,
                  first_leader=twins.first_leader, created_at=NOW, started_at=NOW,
                  finished_at=None)
    seats = [SeatInfo(s, 100 + s if s in humans else None, None if s in humans else "normal",
                      name) for s, name in enumerate(twins.players)]
    deps = TableDeps(cast(Database, None), FakeClock(NOW), _Deaf(), None, TableConfig())
    table = Table(row, seats, set(), deps)
    table.game, table.status = game, Status.PLAYING
    return table


def _texts(snap: TableSnapshot) -> list[Any]:
    """The channel message as everyone sees it, in both languages."""
    out: list[Any] = []
    for lang in ("en", "nl"):
        shown = table_message(snap, lang, NOW)
        out.append(json.dumps(shown.embed.to_dict() if shown.embed else None, sort_keys=True))
        out.append(shown.content)
        out.append([item.to_component_dict() for item in shown.view.children]
                   if shown.view else None)
    return out


def _own_cards_same(a: Game, b: Game, seat: int) -> bool:
    """The seat holds the same cards in both, and was shown the same laid-down cards."""
    return (sorted(a.hands[seat]) == sorted(b.hands[seat])
            and [ld for ld in a.laid_down if seat in ld.checkers]
            == [ld for ld in b.laid_down if seat in ld.checkers])


def _own_view(game: Game, seat: int) -> SeatView:
    """The seat's view, its legal events in card order (not the order dealt)."""
    view = seat_view(game, seat)
    return replace(view, legal=tuple(sorted(view.legal, key=str)))


def compare_twins(twins: Twins, humans: frozenset[int]) -> Counter[str]:
    """Assert the twins look alike at every step; count where hidden cards differed."""
    reached: Counter[str] = Counter()
    tables: tuple[Table, Table] | None = None
    for a, b, passed, happened in twins.steps():
        if tables is None:
            tables = (_table(twins, a, humans), _table(twins, b, humans))
        for table, happenings in zip(tables, (happened, happened), strict=True):
            table.recent.extend(happenings)
            table.passed = set(passed)
            table.rearm()
        where = f"event {len(a.events)}, {a.kind} {a.phase.value}"
        assert public_view(a) == public_view(b), where
        assert a.waiting() == b.waiting(), where
        for seat in range(a.n):
            if _own_cards_same(a, b, seat):
                assert _own_view(a, seat) == _own_view(b, seat), f"{where}, seat {seat}"
        snap_a, snap_b = tables[0].snapshot(), tables[1].snapshot()
        assert snap_a == snap_b, where
        assert _texts(snap_a) == _texts(snap_b), where
        if hidden_differs(a, b) and not a.over:
            reached[f"{a.kind} {a.phase.value}"] += 1
            if any(a.legal_events(s) != b.legal_events(s) for s in range(a.n)):
                reached[f"{a.kind} {a.phase.value}: who may act differs"] += 1
        for h in happened:
            if isinstance(h, ev.VuileWasOutcome):
                reached[f"call {h.outcome} {h.genuine}"] += 1
            elif isinstance(h, ev.Redealt):
                reached[f"redeal in {a.kind}"] += 1
    return reached


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), humans=st.sets(st.integers(0, 3)))
def test_twin_deals_look_the_same_to_everyone_else(seed: int, humans: set[int]) -> None:
    compare_twins(make_twins(seed), frozenset(humans))


def test_twin_deals_reach_every_phase_where_hidden_cards_could_show() -> None:
    """The twins differ in hidden cards in the moments that matter, so the
    test above would see a leak there (it caught the dead man's window)."""
    reached: Counter[str] = Counter()
    rng = random.Random(5)
    for seed in range(30):
        reached += compare_twins(make_twins(seed), frozenset(rng.sample(range(3), 2)))
    for where in ("dead_man dead_man_choice", "dead_man window", "dead_man play",
                  "super_toep window", "super_toep play", "normal window", "normal check",
                  "normal toep_answer", "normal super_question",
                  "dead_man window: who may act differs"):
        assert reached[where] > 0, (where, reached)
    for what in ("call caught False", "call new_cards True", "call new_cards None",
                 "redeal in dead_man", "redeal in normal"):
        assert reached[what] > 0, (what, reached)
