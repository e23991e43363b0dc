"""Slate pictures: the chalk slates ("leitjes") at the end of a round, and the
final standings at the end of a game, as PNG pictures with the same
information as text for screen readers.

Pure: plain data in, bytes and text out; no Discord, no I/O but reading a
font once. The presenter runs the rendering off the event loop, in a
thread of its own (cogs/presenter.py). A slate shows each player's marks
as chalk strokes in groups of five, four upright and the fifth struck through them, the marks of
this round in another colour, the total against the limit, and who is out,
on the edge or forfeited.

    picture = round_picture(public_view(game), names, "nl")
    picture.png   # PNG bytes, 800 x (120 + 90 per player)
    picture.text  # "Leitjes na ronde 3 (uit bij 15)\nAnna: 7 van 15 strepen (+2 ...)"

Names are plain text here: the cog escapes them for markdown if it puts
`text` in a message.
"""

from __future__ import annotations

import io
import logging
import math
import random
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from engine.state import RoundSummary
from engine.views import PublicView

from .i18n import t
from .standings import ended_in, placed

log = logging.getLogger(__name__)

WIDTH = 800
HEADER = 104  # the title band
ROW = 90  # one player
FOOTER = 16  # HEADER + ROW * players + FOOTER = 120 + 90 * players
FRAME = 10  # the wooden frame around the slate

# Colours: chalk on a dark green-grey slate in a wooden frame.
WOOD = (122, 78, 45)
WOOD_DARK = (84, 53, 30)
SLATE = (46, 58, 54)
SLATE_LINE = (70, 84, 78)
CHALK = (236, 235, 228)
CHALK_DIM = (160, 168, 160)
CHALK_FAINT = (104, 118, 111)
CHALK_NEW = (244, 211, 94)  # this round's marks
CHALK_EDGE = (255, 165, 82)
CHALK_OUT = (255, 128, 116)
CHALK_WIN = (255, 215, 0)

NAME_X = 28
STROKES_X = 290
STROKES_W = 360  # up to the total column
TOTAL_X = WIDTH - 28  # right edge of the total column
STROKE_H = 44
NAME_MAX = 32  # characters of a name kept before measuring

_SYSTEM_FONTS = {False: ("DejaVuSans.ttf",), True: ("DejaVuSans-Bold.ttf", "DejaVuSans.ttf")}

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@dataclass(frozen=True)
class SlateLine:
    """One player's slate: `marks` in all, of which `new` this round."""

    name: str
    marks: int
    new: int = 0
    out: bool = False
    forfeited: bool = False
    won_round: bool = False
    winner: bool = False

    @property
    def before(self) -> int:
        return max(0, self.marks - self.new)


@dataclass(frozen=True)
class Standing:
    place: int
    line: SlateLine


@dataclass(frozen=True)
class Picture:
    """A rendered picture and the same information as text."""

    png: bytes
    text: str
    width: int
    height: int


# --- strokes -----------------------------------------------------------------------------


def stroke_groups(marks: int) -> list[int]:
    """Marks as a slate writes them: 7 -> [5, 2] (one struck group of five and
    two strokes), 10 -> [5, 5], 0 -> []."""
    fives, rest = divmod(max(0, marks), 5)
    return [5] * fives + ([rest] if rest else [])


def slate_strokes(before: int, new: int) -> list[list[bool]]:
    """The strokes in groups of five, each True if it is one of this round's
    `new` marks after the `before` ones: (3, 4) -> [[F, F, F, T, T], [T, T]]."""
    flags = [False] * max(0, before) + [True] * max(0, new)
    out: list[list[bool]] = []
    start = 0
    for size in stroke_groups(len(flags)):
        out.append(flags[start:start + size])
        start += size
    return out


def picture_height(players: int) -> int:
    return HEADER + ROW * players + FOOTER


# --- plain data from the engine ----------------------------------------------------------


def round_lines(view: PublicView, names: Sequence[str],
                summary: RoundSummary | None = None) -> list[SlateLine]:
    """The slates after `summary` (default: the last finished round)."""
    if summary is None:
        if not view.rounds:
            raise ValueError("no round has finished yet")
        summary = view.rounds[-1]
    return [
        SlateLine(name=names[s], marks=view.marks[s], new=summary.marks[s],
                  out=view.out[s] and not view.forfeited[s] and view.winner != s
                  and not ended_in(view, s),
                  forfeited=view.forfeited[s], won_round=summary.winner == s,
                  winner=view.winner == s)
        for s in range(view.seats)
    ]


def standings(view: PublicView, names: Sequence[str]) -> list[Standing]:
    """The final standings (cogs.standings): equal marks share a place."""
    return [Standing(place, SlateLine(
        name=names[s], marks=view.marks[s], out=view.out[s] and view.winner != s
        and not view.forfeited[s] and not ended_in(view, s), forfeited=view.forfeited[s],
        winner=view.winner == s)) for place, s in placed(view)]


# --- text -------------------------------------------------------------------------------


def _notes(line: SlateLine, limit: int, lang: str) -> list[str]:
    notes: list[str] = []
    if line.winner:
        notes.append(t(lang, "note.winner"))
    if line.forfeited:
        notes.append(t(lang, "note.forfeited"))
    elif line.out:
        notes.append(t(lang, "note.out"))
    elif not line.winner and line.marks == limit - 1:
        notes.append(t(lang, "note.edge"))
    if line.won_round and not line.winner:
        notes.append(t(lang, "slate.won_round"))
    return notes


def _with_notes(text: str, notes: list[str]) -> str:
    return f"{text}, {', '.join(notes)}" if notes else text


def round_text(lines: Sequence[SlateLine], limit: int, round_number: int, lang: str) -> str:
    """The slates as text: a heading, then one line per player."""
    out = [t(lang, "slate.heading", number=round_number, limit=limit)]
    for line in lines:
        name = clean_name(line.name)
        if line.new:
            text = t(lang, "slate.line_new", name=name, marks=line.marks, limit=limit,
                     new=line.new)
        else:
            text = t(lang, "slate.line", name=name, marks=line.marks, limit=limit)
        out.append(_with_notes(text, _notes(line, limit, lang)))
    return "\n".join(out)


def standings_text(rows: Sequence[Standing], limit: int, lang: str) -> str:
    out = [t(lang, "slate.standings_heading", limit=limit)]
    for row in rows:
        text = t(lang, "slate.standing", place=row.place, name=clean_name(row.line.name),
                 marks=row.line.marks, limit=limit)
        out.append(_with_notes(text, _notes(row.line, limit, lang)))
    return "\n".join(out)


def clean_name(name: str) -> str:
    """A name on one line: control characters become spaces, runs of spaces one."""
    text = "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in name)
    return " ".join(text.split()) or "?"


# --- drawing ------------------------------------------------------------------------------


@cache
def font(size: int, bold: bool = False, system: bool = True) -> Font:
    """DejaVu Sans if the system has it (more scripts), else Pillow's own font."""
    if system:
        for name in _SYSTEM_FONTS[bold]:
            try:
                return ImageFont.truetype(name, size)
            except OSError:
                continue
    return ImageFont.load_default(size=size)


class _Slate:
    """One picture being drawn."""

    def __init__(self, players: int, seed: int, system_fonts: bool) -> None:
        self.height = picture_height(players)
        self.image = Image.new("RGB", (WIDTH, self.height), WOOD)
        self.draw = ImageDraw.Draw(self.image)
        self.rng = random.Random(seed)  # the chalk's wobble, the same every time
        self.system = system_fonts
        d = self.draw
        d.rectangle((0, 0, WIDTH - 1, self.height - 1), outline=WOOD_DARK, width=3)
        d.rectangle((FRAME, FRAME, WIDTH - 1 - FRAME, self.height - 1 - FRAME), fill=SLATE,
                    outline=WOOD_DARK, width=2)

    def font(self, size: int, bold: bool = False) -> Font:
        return font(size, bold, self.system)

    def fit(self, text: str, width: float, f: Font) -> str:
        """`text`, cut with "…" to fit `width` pixels."""
        text = clean_name(text)[:NAME_MAX]
        if self.draw.textlength(text, font=f) <= width:
            return text
        while text and self.draw.textlength(text + "…", font=f) > width:
            text = text[:-1]
        return text.rstrip() + "…"

    def header(self, title: str, right: str) -> None:
        d = self.draw
        d.text((NAME_X, 30), self.fit(title, 520, self.font(32, True)), fill=CHALK,
               font=self.font(32, True))
        d.text((TOTAL_X, 44), right, fill=CHALK_DIM, font=self.font(20), anchor="ra")
        self.chalk_line(NAME_X, HEADER - 8, WIDTH - NAME_X, HEADER - 8, CHALK_FAINT, 2)

    def chalk_line(self, x0: float, y0: float, x1: float, y1: float,
                   colour: tuple[int, int, int], width: int) -> None:
        """A line with a little wobble and a fainter twin beside it, like chalk."""
        j = self.rng.uniform
        a = (x0 + j(-1, 1), y0 + j(-1, 1))
        b = (x1 + j(-1, 1), y1 + j(-1, 1))
        self.draw.line((a, b), fill=colour, width=width)
        twin = tuple((c * 3 + s) // 4 for c, s in zip(colour, SLATE, strict=True))
        self.draw.line(((a[0] + 1.2, a[1] + 0.8), (b[0] + 1.2, b[1] - 0.6)),
                       fill=(twin[0], twin[1], twin[2]), width=max(1, width - 2))

    def strokes(self, top: int, line: SlateLine, limit: int, units: int) -> None:
        """The marks in groups of five, this round's in another colour, and a
        faint dashed line where the limit is."""
        groups = max(1, math.ceil(units / 5))
        pitch = min(76.0, STROKES_W / groups)
        step = pitch * 0.18
        width = max(2, min(4, round(step * 0.34)))
        y0, y1 = top + 22, top + 22 + STROKE_H
        dim = line.out or line.forfeited
        old_colour = CHALK_DIM if dim else CHALK

        def x_of(k: int) -> float:
            return STROKES_X + (k // 5) * pitch + (k % 5) * step

        if limit > 0:
            x = (x_of(limit - 1) + x_of(limit)) / 2 + (step * 0.6 if limit % 5 == 0 else 0)
            for y in range(y0 - 8, y1 + 8, 9):
                self.draw.line(((x, y), (x, y + 4)), fill=CHALK_FAINT, width=2)
        k = 0
        for group in slate_strokes(line.before, line.new):
            for i, new in enumerate(group):
                colour = CHALK_NEW if new else old_colour
                if i < 4:
                    x = x_of(k)
                    self.chalk_line(x, y0, x, y1, colour, width)
                else:  # the fifth strikes the four
                    left, right = x_of(k - 4) - step * 0.7, x_of(k - 1) + step * 0.7
                    self.chalk_line(left, y1 - 4, right, y0 + 4, colour, width)
                k += 1

    def row_text(self, top: int, name_x: int, line: SlateLine, limit: int,
                 notes: list[str]) -> None:
        d = self.draw
        name_font = self.font(26, True)
        colour = CHALK_WIN if line.winner else (CHALK_DIM if line.out or line.forfeited
                                                else CHALK)
        d.text((name_x, top + 16), self.fit(line.name, STROKES_X - name_x - 16, name_font),
               fill=colour, font=name_font)
        if notes:
            note_colour = (CHALK_WIN if line.winner else CHALK_OUT if line.out
                           else CHALK_DIM if line.forfeited
                           else CHALK_EDGE if line.marks == limit - 1 else CHALK_DIM)
            small = self.font(17)
            d.text((name_x, top + 52), self.fit(", ".join(notes), STROKES_X - name_x - 16,
                                                small), fill=note_colour, font=small)
        d.text((TOTAL_X, top + 18), f"{line.marks}/{limit}", fill=colour,
               font=self.font(30, True), anchor="ra")
        if line.new:
            d.text((TOTAL_X, top + 56), f"+{line.new}", fill=CHALK_NEW, font=self.font(18),
                   anchor="ra")

    def separator(self, top: int) -> None:
        self.draw.line(((NAME_X, top), (WIDTH - NAME_X, top)), fill=SLATE_LINE, width=1)

    def highlight(self, top: int) -> None:
        self.draw.rounded_rectangle((NAME_X - 12, top + 4, WIDTH - NAME_X + 12, top + ROW - 4),
                                    radius=10, outline=CHALK_WIN, width=3)

    def png(self) -> bytes:
        """A palette PNG: every colour drawn is chalk blended into the slate,
        so a fixed palette holds them all; it encodes several times faster
        and smaller than RGB."""
        out = io.BytesIO()
        self.image.quantize(palette=_palette(), dither=Image.Dither.NONE).save(
            out, format="PNG", compress_level=3)
        return out.getvalue()


@cache
def _palette() -> Image.Image:
    """Each chalk colour in 16 steps from the slate to full, and the frame."""
    inks = (CHALK, CHALK_DIM, CHALK_FAINT, CHALK_NEW, CHALK_EDGE, CHALK_OUT, CHALK_WIN,
            SLATE_LINE, WOOD_DARK)
    colours = [SLATE, WOOD]
    for ink in inks:
        for k in range(1, 17):
            a = k / 16
            colours.append((round(SLATE[0] * (1 - a) + ink[0] * a),
                            round(SLATE[1] * (1 - a) + ink[1] * a),
                            round(SLATE[2] * (1 - a) + ink[2] * a)))
    flat = [v for colour in colours for v in colour]
    image = Image.new("P", (1, 1))
    image.putpalette(flat + [0] * (768 - len(flat)))
    return image


def _units(lines: Sequence[SlateLine], limit: int) -> int:
    return max([limit, *(line.marks for line in lines)])


def render_round(lines: Sequence[SlateLine], limit: int, round_number: int, lang: str,
                 system_fonts: bool = True) -> Picture:
    """The slates at the end of a round, and their text."""
    slate = _Slate(len(lines), seed=round_number, system_fonts=system_fonts)
    slate.header(t(lang, "slate.title", number=round_number), t(lang, "slate.limit",
                                                                     limit=limit))
    units = _units(lines, limit)
    for i, line in enumerate(lines):
        top = HEADER + i * ROW
        if i:
            slate.separator(top)
        slate.row_text(top, NAME_X, line, limit, _notes(line, limit, lang))
        slate.strokes(top, line, limit, units)
    return Picture(slate.png(), round_text(lines, limit, round_number, lang), WIDTH,
                   slate.height)


def render_standings(rows: Sequence[Standing], limit: int, lang: str,
                     system_fonts: bool = True) -> Picture:
    """The final standings: places, names, marks; the winner in gold."""
    slate = _Slate(len(rows), seed=len(rows), system_fonts=system_fonts)
    slate.header(t(lang, "table.standings"), t(lang, "slate.limit", limit=limit))
    units = _units([r.line for r in rows], limit)
    place_font = slate.font(30, True)
    for i, row in enumerate(rows):
        top = HEADER + i * ROW
        if i and not row.line.winner and not rows[i - 1].line.winner:
            slate.separator(top)
        if row.line.winner:
            slate.highlight(top)
        colour = CHALK_WIN if row.line.winner else CHALK
        slate.draw.text((NAME_X, top + 16), f"{row.place}.", fill=colour, font=place_font)
        slate.row_text(top, NAME_X + 52, row.line, limit, _notes(row.line, limit, lang))
        slate.strokes(top, row.line, limit, units)
    return Picture(slate.png(), standings_text(rows, limit, lang), WIDTH, slate.height)


def round_picture(view: PublicView, names: Sequence[str], lang: str,
                  summary: RoundSummary | None = None) -> Picture:
    """The slates after the last finished round (or `summary`) of a game."""
    summary = summary if summary is not None else (view.rounds[-1] if view.rounds else None)
    if summary is None:
        raise ValueError("no round has finished yet")
    return render_round(round_lines(view, names, summary), view.rules.limit, summary.number,
                        lang)


def standings_picture(view: PublicView, names: Sequence[str], lang: str) -> Picture:
    """The final standings of a game that is over."""
    return render_standings(standings(view, names), view.rules.limit, lang)
