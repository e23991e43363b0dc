"""The one rule for places: equal keys share a place, the next takes its own."""

from __future__ import annotations

from data.places import shared_places


def test_ties_share_a_place_and_the_next_takes_its_own_position() -> None:
    assert shared_places([]) == []
    assert shared_places(["a", "b", "c"]) == [1, 2, 3]
    assert shared_places([(0, 5), (1, 7), (1, 7), (1, 9)]) == [1, 2, 2, 4]
    assert shared_places([3.5, 3.5, 3.5]) == [1, 1, 1]


def test_a_page_goes_on_from_the_rows_before_it() -> None:
    assert shared_places([9.0, 8.0, 8.0], before=10) == [11, 12, 12]
    # its first row ties with the last rows of the page before
    assert shared_places([9.0, 9.0, 8.0], before=10, first_place=9) == [9, 9, 13]
