"""Toep van de dag's messages, without Discord (cogs/render_daily.py)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from cogs.render_daily import board_panel, choice_text, closing_message, day_panel, days_panel
from data.daily import Day
from engine import events as ev
from engine.board_session import BoardSession
from engine.boards import board
from engine.cards import parse_card
from engine.duplicate import ranking
from engine.telling import Parting
from tables.daily import Closing, Standing

DAY = Day(7, "2026-01-05", "seed-x", "a" * 64, 2, datetime(2026, 1, 6, tzinfo=UTC), None,
          True)


def _closing(names: dict[int, str], parted: Parting | None) -> Closing:
    scores = {1: [3, -1], 2: [-1, -1], 3: [5, 0]}
    rows = ranking({u: [float(x) for x in s] for u, s in scores.items()})
    return Closing(DAY, Standing(rows, names, scores), 0, 3, parted)


def test_the_closing_message_names_the_telling_board_and_the_seed() -> None:
    parted = Parting(4, ev.act(ev.TOEP, 1), ev.play(1, parse_card("7C")), 1, 2)
    for lang, words in (("en", ("Where it was decided", "toeped", "played 7♣")),
                        ("nl", ("Waar het besliste", "toepte", "7♣ speelde"))):
        embed = closing_message(_closing({1: "anna", 2: "bram", 3: "cor"}, parted), lang).embed
        assert embed is not None and embed.description is not None
        text = embed.description
        assert all(w in text for w in words), text
        assert "1. cor" in text and "seed-x" in text
        assert "--seed seed-x --count 2 --commitment " + "a" * 64 in text


def test_names_that_look_like_mentions_stay_text() -> None:
    embed = closing_message(_closing({1: "@everyone", 2: "<@123>", 3: "cor"}, None), "en").embed
    assert embed is not None and embed.description is not None
    # escaped, so Discord shows them as the characters they are
    assert "\\@everyone" in embed.description and "<@123>" not in embed.description


def test_every_choice_has_words_in_both_languages() -> None:
    for do in sorted(ev.SEAT_EVENTS | {ev.CLOSE_WINDOW}):
        event = ev.play(0, parse_card("AH")) if do == ev.PLAY else ev.act(do, 0)
        for lang in ("en", "nl"):
            assert not choice_text(event, lang).startswith("daily."), (do, lang)
    assert choice_text(None, "nl") == "het spel daar beëindigde"


def test_my_days_offers_records_only_for_closed_days() -> None:
    shown = days_panel([("2026-01-06", False, [2, None]), ("2026-01-05", True, [3, -1])],
                       "2026-01-06", 7, "en")
    assert shown.embed is not None and shown.embed.description is not None
    assert "today: 1 finished so far" in shown.embed.description
    assert "+3 -1" in shown.embed.description
    assert shown.view is not None
    assert [b.custom_id for b in shown.view.children] == [  # type: ignore[attr-defined]
        "toepdaily:7:records:2026-01-05"]


def test_a_board_in_play_tells_the_table_once() -> None:
    """The table and the hand share one message: the hand's part does not
    repeat the stake, the trick and the last events (read on a phone)."""
    session = BoardSession.resume(board("seed-x", 0), ("a", "b", "c", "d"), [], "normal")
    embeds, view = board_panel(replace(DAY, closed=False), 0, session, "en")
    text = "\n".join(e.description or "" for e in embeds)
    assert len(embeds) == 2 and view.children
    assert text.count("Stake **") == 1, text
    assert "\n> " not in embeds[1].description  # type: ignore[operator]


def test_the_panel_names_the_seeds_sha_as_such_and_the_last_seed_once() -> None:
    """The board's footer shows the commitment's start: called the seed, a
    member would think the secret out. The last closed day's line gives its
    seed and the command that checks it, not its 64-digit SHA-256 again."""
    session = BoardSession.resume(board("seed-x", 0), ("a", "b", "c", "d"), [], "normal")
    for lang in ("en", "nl"):
        embeds, _ = board_panel(replace(DAY, closed=False), 0, session, lang)
        footer = embeds[0].footer.text or ""
        assert "SHA-256 " + "a" * 16 in footer or "SHA-256 van het zaad " + "a" * 16 in footer
        previous = replace(DAY, commitment="b" * 64)
        shown = day_panel(replace(DAY, day="2026-01-06", closed=False), 0, lang, previous).embed
        assert shown is not None and shown.description is not None
        assert "seed-x" in shown.description and "b" * 64 not in shown.description


def test_a_day_nobody_finished_says_so_once() -> None:
    empty = Closing(DAY, Standing([], {}, {}), None, None, None)
    for lang in ("en", "nl"):
        embed = closing_message(empty, lang).embed
        assert embed is not None and embed.description is not None
        first = embed.description.splitlines()[0]
        assert not first.startswith("0 "), first  # no "0 finished... The ranking:"
        assert "seed-x" in embed.description
