"""A person's game at a board (engine/board_session.py)."""

from __future__ import annotations

import pytest

from engine.board_session import BoardSession, NothingToPass
from engine.boards import board
from engine.bots import make_bot
from engine.errors import IllegalEvent
from engine.events import act
from engine.state import Phase

NAMES = ("anna", "c1", "c2", "c3")


def _play(session: BoardSession, chooser_seed: int) -> None:
    """The person's choices from a normal computer of its own, passes included."""
    chooser = make_bot("normal", chooser_seed)
    for _ in range(200):
        if session.over:
            return
        assert session.asked()
        session.act(chooser.decide(session.view()))
    raise AssertionError("the board did not end")


def test_the_same_choices_give_the_same_board_and_a_resume_is_the_same() -> None:
    b = board("session", 2)
    one, two = BoardSession(b, NAMES, "normal"), BoardSession(b, NAMES, "normal")
    one.advance()
    two.advance()
    _play(one, 5)
    _play(two, 5)
    assert one.game.events == two.game.events and one.score == two.score
    assert one.score is not None
    again = BoardSession.resume(b, NAMES, one.events(), "normal")
    assert again.game.events == one.game.events and again.over


def test_a_resume_halfway_goes_on_as_if_never_stopped() -> None:
    b = board("session", 3)
    whole = BoardSession(b, NAMES, "normal")
    whole.advance()
    chooser = make_bot("normal", 9)
    halfway: list[dict[str, object]] | None = None
    for step in range(200):
        if whole.over:
            break
        if step == 2:
            halfway = whole.events()
        whole.act(chooser.decide(whole.view()))
    assert halfway is not None
    resumed = BoardSession.resume(b, NAMES, halfway, "normal")
    chooser = make_bot("normal", 9)
    while not resumed.over:
        resumed.act(chooser.decide(resumed.view()))
    assert resumed.game.events == whole.game.events


def test_the_person_is_asked_in_the_window_and_a_wrong_move_changes_nothing() -> None:
    b = board("session", 0)
    session = BoardSession(b, NAMES, "normal")
    session.advance()
    assert session.game.phase is Phase.WINDOW and session.asked()
    before = list(session.game.events)
    with pytest.raises(IllegalEvent):
        session.act(act("toep", b.seat))
    assert session.game.events == before
    session.act(None)  # pass: the computers answer, and the window closes or goes on
    assert session.game.events != before
    while session.game.phase is Phase.WINDOW and session.asked():
        session.act(None)
    if session.asked() and session.game.phase is not Phase.WINDOW:
        with pytest.raises(NothingToPass):
            session.act(None)


def test_silence_when_asked_to_check_is_believing() -> None:
    for number in range(40):
        b = board("check", number)
        session = BoardSession(b, NAMES, "normal")
        caller = (b.seat - 1) % 4  # the person is the first after the caller
        session.game.apply(act("vuile_was", caller))
        if session.game.phase is not Phase.CHECK or session.game.call_turn != b.seat:
            continue
        session.act(None)
        assert act("believe", b.seat) in session.game.events
        return
    raise AssertionError("no board put the person first to check")
