"""The texts of forfeits and bans a player gets: which forfeit, until when."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cogs.i18n import t
from cogs.render_bans import barred_text, forfeit_warning, notices_text, nth
from cogs.render_text import timestamp
from data.bans import Ban, Notice, Standing

NOW = datetime(2025, 5, 1, 12, 0, tzinfo=UTC)
BAN = Ban(1, 10, 20, NOW - timedelta(days=1), NOW + timedelta(days=6), None, None)


def test_ordinals_in_both_languages() -> None:
    assert [nth(n, "en") for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]
    assert [nth(n, "nl") for n in (1, 3)] == ["1e", "3e"]


def test_the_warning_names_the_forfeit_and_the_ban_it_would_start() -> None:
    for lang in ("en", "nl"):
        first = forfeit_warning(Standing(0, None), NOW, lang)
        assert first == t(lang, "ban.warn.count", nth=nth(1, lang), days=7)
        third = forfeit_warning(Standing(2, None), NOW, lang)
        until = timestamp(NOW + timedelta(days=7), "f")
        assert third == t(lang, "ban.warn.last", nth=nth(3, lang), days=7, until=until)
        assert until in (third or "") and "<t:" in until
        assert forfeit_warning(Standing(0, BAN), NOW, lang) is None  # banned: nothing to add


def test_a_ban_that_is_over_is_not_told_as_begun() -> None:
    lifted = Ban(1, 10, 20, BAN.since, BAN.until, 5, NOW)
    assert notices_text([Notice(lifted, "start"), Notice(lifted, "lift")], NOW, "en") == \
        t("en", "ban.notice.lifted")
    ran_out = notices_text([Notice(BAN, "start")], NOW + timedelta(days=7), "en")
    assert ran_out == ""
    told = notices_text([Notice(BAN, "start")], NOW, "nl")
    assert told.startswith("⛔") and timestamp(BAN.until, "f") in told


def test_a_barred_player_is_told_until_when_how_long_and_why() -> None:
    english = barred_text(BAN, "en")
    assert english.startswith(
        f"⛔ You may not join public tables until {timestamp(BAN.until, 'f')} "
        f"({timestamp(BAN.until, 'R')}): you forfeited 3 games within 7 days")
    assert "Private tables are open to you" in english and "R19" in english
    dutch = barred_text(BAN, "nl")
    assert dutch.startswith(f"⛔ Je mag tot {timestamp(BAN.until, 'f')} "
                            f"({timestamp(BAN.until, 'R')}) niet aan openbare tafels meedoen")
    assert "binnen 7 dagen 3 keer op" in dutch and "R19" in dutch
