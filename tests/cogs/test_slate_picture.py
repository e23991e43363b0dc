"""Slate pictures: real PNGs of sensible size, and the same information as text."""

from __future__ import annotations

import io
import itertools
import random

import pytest
from PIL import Image

from cogs.i18n import t
from cogs.slate_picture import (
    Picture,
    SlateLine,
    Standing,
    clean_name,
    font,
    picture_height,
    render_round,
    render_standings,
    round_lines,
    round_picture,
    slate_strokes,
    standings,
    standings_picture,
    stroke_groups,
)
from engine.chance import RandomChance
from engine.game import Game
from engine.record import play_random_game
from engine.rules import TableRules
from engine.views import public_view

LANGS = ("en", "nl")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_BYTES = 100_000
NAMES = ("Anna", "Bram", "Carlijn", "Daan", "Eline", "Floris", "Gerrit-Jan", "Hanneke")


def _lines(players: int) -> list[SlateLine]:
    slates = ((7, 2), (14, 3), (3, 0), (16, 4), (2, 0), (0, 0), (12, 5), (10, 1))
    return [SlateLine(NAMES[i], marks, new, out=marks >= 15, forfeited=i == 4,
                      won_round=i == 2)
            for i, (marks, new) in enumerate(slates[:players])]


def _colours(picture: Picture) -> list[tuple[int, tuple[int, int, int]]]:
    """(count, (r, g, b)) for every colour of the picture."""
    out = []
    for count, colour in _opened(picture).convert("RGB").getcolors(maxcolors=1 << 16) or []:
        assert isinstance(colour, tuple)
        r, g, b = colour[:3]
        out.append((count, (r, g, b)))
    return out


def _opened(picture: Picture) -> Image.Image:
    assert picture.png.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(picture.png))
    image.load()
    assert image.format == "PNG"
    assert image.size == (picture.width, picture.height)
    return image


# --- strokes -----------------------------------------------------------------------------


@pytest.mark.parametrize(("marks", "groups"), [
    (0, []), (1, [1]), (4, [4]), (5, [5]), (7, [5, 2]), (10, [5, 5]), (14, [5, 5, 4]),
    (15, [5, 5, 5]), (-3, []),
])
def test_stroke_groups(marks: int, groups: list[int]) -> None:
    assert stroke_groups(marks) == groups


def test_slate_strokes_set_this_rounds_marks_apart() -> None:
    f, n = False, True
    assert slate_strokes(3, 4) == [[f, f, f, n, n], [n, n]]
    assert slate_strokes(5, 0) == [[f] * 5]
    assert slate_strokes(0, 2) == [[n, n]]
    assert slate_strokes(0, 0) == []
    assert slate_strokes(12, 3) == [[f] * 5, [f] * 5, [f, f, n, n, n]]


def test_slate_strokes_count_every_mark() -> None:
    for before in range(0, 20):
        for new in range(0, 9):
            groups = slate_strokes(before, new)
            assert [len(g) for g in groups] == stroke_groups(before + new)
            flat = [s for g in groups for s in g]
            assert flat.count(True) == new and flat.count(False) == before


# --- pictures ----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", [2, 4, 8])
def test_round_picture_is_a_real_png_of_sensible_size(lang: str, players: int) -> None:
    picture = render_round(_lines(players), 15, 7, lang)
    image = _opened(picture)
    assert image.size == (800, 120 + 90 * players) == (800, picture_height(players))
    assert 1_000 < len(picture.png) < MAX_BYTES
    # Chalk on a dark slate: the middle is dark, and there is light chalk on it.
    middle = image.convert("RGB").getpixel((400, picture.height // 2))
    assert isinstance(middle, tuple) and max(middle) < 120
    assert any(min(rgb) > 200 for _, rgb in _colours(picture))  # white chalk


def test_pictures_grow_with_the_players() -> None:
    heights = [render_round(_lines(n), 15, 1, "en").height for n in range(2, 9)]
    assert heights == sorted(heights) and len(set(heights)) == len(heights)
    sizes = [render_standings([Standing(i + 1, line) for i, line in enumerate(_lines(n))],
                              15, "en").height for n in (2, 5, 8)]
    assert sizes == sorted(sizes) and len(set(sizes)) == 3


def test_this_rounds_marks_are_drawn_in_another_colour() -> None:
    def yellow(picture: Picture) -> int:
        return sum(count for count, (r, g, b) in _colours(picture)
                   if r > 200 and g > 170 and b < 140)

    assert yellow(render_round([SlateLine("A", 7, 0), SlateLine("B", 3, 0)], 15, 2, "en")) == 0
    assert yellow(render_round([SlateLine("A", 7, 2), SlateLine("B", 3, 0)], 15, 2, "en")) > 50


def test_the_same_slates_give_the_same_picture() -> None:
    one = render_round(_lines(4), 15, 3, "en")
    two = render_round(_lines(4), 15, 3, "en")
    assert one.png == two.png


@pytest.mark.parametrize("lang", LANGS)
def test_standings_picture(lang: str) -> None:
    rows = [Standing(1, SlateLine("Anna", 4, winner=True)),
            Standing(2, SlateLine("Bram", 15, out=True)),
            Standing(2, SlateLine("Carlijn", 15, out=True)),
            Standing(4, SlateLine("Daan", 9, forfeited=True))]
    picture = render_standings(rows, 15, lang)
    assert _opened(picture).size == (800, 120 + 90 * 4)
    assert len(picture.png) < MAX_BYTES
    lines = picture.text.splitlines()
    assert lines[0] == t(lang, "slate.standings_heading", limit=15)
    assert lines[1].startswith("1. Anna: 4 ") and t(lang, "note.winner") in lines[1]
    assert lines[3].startswith("2. Carlijn: 15 ") and t(lang, "note.out") in lines[3]
    assert t(lang, "note.forfeited") in lines[4]
    # The winner is picked out in gold.
    assert any(r > 240 and g > 200 and b < 40 for _, (r, g, b) in _colours(picture))


def test_pillows_own_font_works_without_system_fonts() -> None:
    picture = render_round(_lines(8), 15, 4, "nl", system_fonts=False)
    assert _opened(picture).size == (800, 840)
    assert len(picture.png) < MAX_BYTES
    assert font(20, system=False) is font(20, system=False)  # loaded once


def test_long_odd_names_and_many_marks_fit() -> None:
    lines = [SlateLine("A" * 200, 40, 8), SlateLine("line\nbreak\ttab 🃏 Zoë", 0, 0),
             SlateLine("", 29, 29)]
    picture = render_round(lines, 30, 12, "en")
    assert _opened(picture).size == (800, 120 + 90 * 3)
    assert "line break tab 🃏 Zoë: 0 of 30 marks" in picture.text
    assert clean_name("") == "?"
    assert clean_name(" a\n\x00b ") == "a b"


# --- text --------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_round_text_has_every_name_and_mark(lang: str) -> None:
    lines = _lines(8)
    picture = render_round(lines, 15, 7, lang)
    text = picture.text.splitlines()
    assert text[0] == t(lang, "slate.heading", number=7, limit=15)
    assert len(text) == 1 + len(lines)
    for line, row in zip(lines, text[1:], strict=True):
        assert row.startswith(f"{line.name}: {line.marks} ")
        assert "15" in row
        if line.new:
            assert f"+{line.new}" in row
        else:
            assert "+" not in row
    assert t(lang, "note.edge") in text[2]  # 14 of 15
    assert t(lang, "note.out") in text[4]
    assert t(lang, "note.forfeited") in text[5]
    assert t(lang, "slate.won_round") in text[3]


def test_round_text_reads_well_in_both_languages() -> None:
    lines = [SlateLine("Anna", 7, 2), SlateLine("Bram", 14, 0)]
    assert render_round(lines, 15, 3, "en").text == (
        "Slates after round 3 (out at 15)\n"
        "Anna: 7 of 15 marks (+2 this round)\n"
        "Bram: 14 of 15 marks, on the edge")
    assert render_round(lines, 15, 3, "nl").text == (
        "Leitjes na ronde 3 (uit bij 15)\n"
        "Anna: 7 van 15 strepen (+2 deze ronde)\n"
        "Bram: 14 van 15 strepen, op scherp")


# --- from the engine ---------------------------------------------------------------------


def _game_after_rounds(seed: int, players: int, rounds: int) -> Game:
    rng = random.Random(seed)
    game = Game(TableRules(max_players=8), [f"p{i}" for i in range(players)],
                RandomChance(random.Random(seed)))
    while len(game.rounds) < rounds and not game.over:
        legal = game.legal_events()
        game.apply(legal[rng.randrange(len(legal))])
    return game


@pytest.mark.parametrize("lang", LANGS)
def test_round_picture_from_a_game(lang: str) -> None:
    for seed in range(6):
        players = 2 + seed
        game = _game_after_rounds(seed, players, 2)
        view = public_view(game)
        names = NAMES[:players]
        summary = view.rounds[-1]
        lines = round_lines(view, names)
        assert [line.marks for line in lines] == list(view.marks)
        assert [line.new for line in lines] == list(summary.marks)
        assert sum(line.won_round for line in lines) == (summary.winner is not None)
        picture = round_picture(view, names, lang)
        assert _opened(picture).size == (800, 120 + 90 * players)
        for name, marks in zip(names, view.marks, strict=True):
            assert f"{name}: {marks} " in picture.text


def test_round_picture_needs_a_finished_round() -> None:
    game = _game_after_rounds(1, 3, 0)
    with pytest.raises(ValueError, match="no round"):
        round_picture(public_view(game), NAMES[:3], "en")


@pytest.mark.parametrize("lang", LANGS)
def test_standings_from_a_finished_game(lang: str) -> None:
    for seed in range(6):
        players = 2 + seed
        game = play_random_game(NAMES[:players], TableRules(max_players=8, limit=8), seed)
        view = public_view(game)
        rows = standings(view, NAMES[:players])
        assert rows[0].place == 1 and rows[0].line.winner
        assert rows[0].line.name == NAMES[view.winner or 0]
        assert sorted(r.line.name for r in rows) == sorted(NAMES[:players])
        assert all(a.place <= b.place for a, b in itertools.pairwise(rows))
        picture = standings_picture(view, NAMES[:players], lang)
        assert _opened(picture).size == (800, 120 + 90 * players)
        for row in rows:
            assert f"{row.place}. {row.line.name}: {row.line.marks} " in picture.text
