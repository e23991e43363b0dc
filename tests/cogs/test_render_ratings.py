"""The rating lines at the end of a rated game: a move, a first rating, or
how far a newcomer still is from one; signs and decimals per language."""

from __future__ import annotations

from cogs.i18n import t
from cogs.render_ratings import rating_line, signed
from data.ratings import PROVISIONAL_GAMES, Rating, RatingChange

BEFORE, AFTER = Rating(30.0, 5.0), Rating(29.0, 4.8)  # ordinals 15.0 and 14.6


def test_signed_changes_read_as_moves() -> None:
    assert signed(1.64, "en") == "+1.6"
    assert signed(-0.81, "nl") == "−0,8"
    assert signed(0.04, "en") == "±0.0" and signed(-0.04, "en") == "±0.0"


def test_each_stage_of_a_rating_has_its_line() -> None:
    for lang in ("en", "nl"):
        moved = RatingChange(1, BEFORE, AFTER, PROVISIONAL_GAMES + 4)
        assert rating_line(moved, "anna", lang) == t(
            lang, "rating.change", name="anna", before=signed(15.0, lang)[1:],
            after=signed(14.6, lang)[1:], delta=signed(-0.4, lang))
        first = RatingChange(1, BEFORE, AFTER, PROVISIONAL_GAMES)
        assert rating_line(first, "bram", lang) == t(
            lang, "rating.first", name="bram", after=signed(14.6, lang)[1:],
            games=PROVISIONAL_GAMES)
        new = RatingChange(1, BEFORE, AFTER, 1)
        line = rating_line(new, "cora", lang)
        assert line == t(lang, "rating.unrated", name="cora", games=1, min=PROVISIONAL_GAMES)
        assert "14" not in line  # no number that means nothing yet
