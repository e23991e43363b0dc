"""The Review button's id, `toepreview:<game>`, read strictly by the gate."""

from __future__ import annotations

import pytest

from cogs.community_ids import ReviewId
from cogs.gate import _edits_message, parse
from cogs.ids import ForgedId
from cogs.render_manage import again_view, review_id


def test_the_review_id_reads_back() -> None:
    assert parse(review_id(12)) == ReviewId(12)
    assert parse("toepreview:0") == ReviewId(0)
    # it answers with a message of its own: clickable on the public table message
    assert not _edits_message(ReviewId(12))


@pytest.mark.parametrize("forged", ["toepreview:", "toepreview:012", "toepreview:1:2",
                                    "toepreview:-1", "toepreview:²", "toepreview:1 ",
                                    "toepreview:" + "9" * 20])
def test_anything_else_is_forged(forged: str) -> None:
    with pytest.raises(ForgedId):
        parse(forged)


def test_the_finished_table_offers_play_again_and_review() -> None:
    ids = [getattr(item, "custom_id", None) for item in again_view(5, "nl").children]
    assert ids == ["toep:5:again", "toepreview:5"]
