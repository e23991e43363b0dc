"""Views as sent (cogs/buttons.py): stopped, whole, and freed without the cycle collector."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import discord
import pytest

from cogs.buttons import unlistened
from cogs.render import hand_panel
from engine.views import seat_view
from tests.cogs.helpers import NOW, random_moments


def _panel_view() -> discord.ui.View:
    """A hand panel's view with cards and an answer button or two."""
    for moment in random_moments(1, every=1.0):
        public = moment.snap.view
        if public is None or not public.waiting:
            continue
        seat = public.waiting[0]
        view = hand_panel(moment.snap, seat_view(moment.game, seat, public), "en", NOW).view
        if view is not None and len(view.children) > 1:
            return view
    raise AssertionError("no moment with a panel of buttons")


@pytest.fixture
def no_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def test_a_sent_panel_view_is_freed_at_once_and_still_sends_whole(
        no_collector: None) -> None:
    view = _panel_view()
    before = view.to_components()
    sent = unlistened(view)
    assert sent is view and view.is_finished()
    # Sent twice (a message posted anew after its edit failed): the same.
    assert unlistened(view).to_components() == before
    gone = weakref.ref(view)
    del view, sent
    assert gone() is None  # freed by its last reference, no collection needed
    assert gc.collect() == 0


async def test_a_view_not_sent_is_a_cycle_for_the_collector(no_collector: None) -> None:
    # What the test above guards against: the item's pointer back at its View.
    view = _panel_view()
    gone = weakref.ref(view)
    del view
    assert gone() is not None
    gc.collect()
    assert gone() is None


def test_no_view_is_none() -> None:
    assert unlistened(None) is None
