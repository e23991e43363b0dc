"""The review as text: a pass in the vuile was moment reads as a pass."""

from __future__ import annotations

from engine import events as ev
from engine.review_judge import Judgement
from engine.review_text import decision_line


def test_a_pass_reads_as_a_pass() -> None:
    call, pass_ = ev.act(ev.VUILE_WAS, 1), ev.act(ev.CLOSE_WINDOW)
    j = Judgement(7, 1, pass_, call, {call: 0.5, pass_: 1.25}, 0.75, 0.1, False, "inaccuracy", 3)
    assert decision_line(j) == ("  event 7, round 3: pass (1.25 marks); best vuile_was (0.50); "
                                "lost 0.75 +- 0.10: inaccuracy")
