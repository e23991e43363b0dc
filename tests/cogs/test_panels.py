"""The hand panel key (cogs/panels.py): a hand panel is edited when
its key changes, so the key must change exactly when what it shows does."""

from __future__ import annotations

import dataclasses

from cogs.panels import panel_key
from cogs.render import hand_panel
from engine.game import Phase
from engine.views import seat_view
from tables.snapshot import SeatUpdate, TableSnapshot
from tests.cogs.helpers import NOW, random_moments

SEEDS = range(40)


def _shown(snap: TableSnapshot, update: SeatUpdate) -> tuple[object, ...]:
    rendered = hand_panel(snap, update.view, "en", NOW)
    assert rendered.embed is not None
    view = rendered.view.to_components() if rendered.view is not None else None
    return rendered.content, rendered.embed.to_dict(), view


def test_in_the_window_a_panel_changes_with_its_own_pass_only() -> None:
    checked = 0
    for seed in SEEDS:
        for moment in random_moments(seed, every=1.0):
            public = moment.snap.view
            if public is None or public.phase is not Phase.WINDOW or len(public.waiting) < 2:
                continue
            seat, other = public.waiting[0], public.waiting[1]
            update = SeatUpdate(seat, 1, seat_view(moment.game, seat, public), False)
            alone = dataclasses.replace(moment.snap, passed=frozenset())
            other_passed = dataclasses.replace(moment.snap, passed=frozenset({other}))
            own_passed = dataclasses.replace(moment.snap, passed=frozenset({other, seat}))
            # Another seat's pass: the same panel, the same key (no edit).
            assert _shown(other_passed, update) == _shown(alone, update)
            assert panel_key(other_passed, update) == panel_key(alone, update)
            # Its own pass: a different panel, a different key (edited).
            assert _shown(own_passed, update) != _shown(other_passed, update)
            assert panel_key(own_passed, update) != panel_key(other_passed, update)
            checked += 1
    assert checked > 0
