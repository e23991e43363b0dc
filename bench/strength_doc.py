"""The strength table's words: docs/strength.md and the printed report,
both made from `bench.strength.measure`'s figures alone (no hand editing)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.bots.sampling import HARD, Evidence

# The sizes that give intervals of about +-0.05 marks per round and +-0.05 of
# the games: bench/strength.py's defaults.
FULL_ROUNDS = 2400
FULL_GAMES = 400

Figures = Mapping[str, Any]
Triple = Sequence[float | None] | None  # [value, low, high] as the duel's JSON has it


def _show(t: Triple, scale: float, spec: str, unit: str = "") -> str:
    """A duel's [value, low, high] as "value [low, high]", each times `scale`."""
    if t is None:
        return "-"
    value, low, high = t
    assert value is not None
    text = f"{scale * value:{spec}}{unit}"
    if low is None or high is None:
        return text
    lo, hi = sorted((scale * low, scale * high))
    return f"{text} [{lo:{spec}}, {hi:{spec}}]"


def marks(t: Triple) -> str:
    return _show(t, 1.0, ".2f")


def percent(t: Triple) -> str:
    return _show(t, 100.0, ".0f", "%")


def saved(t: Triple) -> str:
    """B minus A in marks turned round: what the habit saves (above 0: it pays)."""
    return _show(t, -1.0, "+.2f")


def points(t: Triple) -> str:
    """A change in a share, in points of percent."""
    return _show(t, 100.0, "+.0f")


def _duel_of(runs: Sequence[Mapping[str, Any]], seats: Sequence[str]) -> Mapping[str, Any]:
    for run in runs:
        if list(run["seats"]) == list(seats):
            return run
    raise KeyError(f"no duel with seats {seats}")


def _level(run: Mapping[str, Any], player: str) -> Mapping[str, Any]:
    level: Mapping[str, Any] = run["levels"][player]
    return level


def heads_up_cell(f: Figures, row: str, col: str, key: str) -> Triple:
    """`row`'s figure `key` at a table of two with `col`."""
    runs = f["heads_up"]
    for seats in ((row, col), (col, row)):
        try:
            run = _duel_of(runs, seats)
        except KeyError:
            continue
        value: Triple = _level(run, row)[key]
        return value
    return None


def lone_cell(f: Figures, lone: str, other: str, key: str) -> Triple:
    """`lone`'s figure `key` alone at a table of four against three `other`."""
    value: Triple = _level(_duel_of(f["one_vs_three"], (lone, other, other, other)), lone)[key]
    return value


def exploit_cell(f: Figures, level: str, habit: str, key: str) -> Triple:
    for block in f["exploiters"]:
        if block["level"] != level:
            continue
        for c in block["comparisons"]:
            if c["b"]["player"] == habit:
                value: Triple = c["b_minus_a"][key]
                return value
    return None


def habits_of(f: Figures) -> list[str]:
    names: dict[str, None] = {}
    for block in f["exploiters"]:
        for c in block["comparisons"]:
            names[c["b"]["player"]] = None
    return list(names)


def _matrix(rows: Sequence[str], cols: Sequence[str],
            cell: Callable[[str, str], str], corner: str) -> list[str]:
    out = ["| " + " | ".join((corner, *cols)) + " |",
           "|" + "---|" * (len(cols) + 1)]
    for r in rows:
        cells = ["—" if r == c else cell(r, c) for c in cols]
        out.append("| " + " | ".join((f"**{r}**", *cells)) + " |")
    return out


Cell = Callable[[str, str], str]


def tables(f: Figures) -> list[str]:
    """The seven tables, as markdown lines with their headings and captions."""
    habits = habits_of(f)
    players: list[str] = f["players"]
    levels: list[str] = f["levels"]

    def two(show: Callable[[Triple], str], key: str) -> Cell:
        return lambda r, c: show(heads_up_cell(f, r, c, key))

    def lone(show: Callable[[Triple], str], key: str) -> Cell:
        return lambda r, c: show(lone_cell(f, r, c, key))

    def habit(show: Callable[[Triple], str], key: str) -> Cell:
        return lambda h, lv: show(exploit_cell(f, lv, h, key))

    parts: list[tuple[str, str, Sequence[str], Sequence[str], Cell, str]] = [
        ("## Heads-up: two players", "Marks per round taken by the row's player against "
         "the column's (fewer is better):", players, players,
         two(marks, "marks_per_round"), "player"),
        ("", "Games won by the row's player against the column's (a fair share is 50%):",
         players, players, two(percent, "games_won"), "player"),
        ("## One against three: four players", "Marks per round taken by the row's player "
         "alone against three of the column's:", players, players,
         lone(marks, "marks_per_round"), "alone"),
        ("", "Games won by the row's player alone against three of the column's (a fair "
         "share is 25%):", players, players, lone(percent, "games_won"), "alone"),
        ("## Exploiters", "Marks per round a scripted habit saves its player against three "
         "of the column's level, over playing that level itself in the same seat on the "
         "same cards (above 0: the habit pays). First rounds of fresh games, where nobody "
         "has a record yet:", habits, levels, habit(saved, "marks_per_round"), "habit"),
        ("", "The same over whole games, where the others see the habit (per game, the "
         "rounds the player was in):", habits, levels,
         habit(saved, "game_marks_per_round"), "habit"),
        ("", "Games won by the habit's player less those won by the level itself in that "
         "seat, in points of percent (above 0: the habit pays):", habits, levels,
         habit(points, "games_won"), "habit"),
    ]
    lines: list[str] = []
    for heading, caption, rows, cols, cell, corner in parts:
        if heading:
            lines += [heading, ""]
        lines += [caption, "", *_matrix(rows, cols, cell, corner), ""]
    return lines


def evidence_words(e: Evidence) -> str:
    parts = []
    if e.signals:
        parts.append("toeps, calls and cards played")
    if e.folds:
        parts.append("folds")
    if e.passes:
        parts.append("toep chances passed late in a round")
    if e.window:
        parts.append("the vuile was window (a believed caller most likely threw a genuine "
                     "hand away, a quiet player most likely kept none)")
    return ", ".join(parts) if parts else "nothing"


def weighing_lines(f: Figures) -> list[str]:
    """What weighing the guesses buys `hard`, and each part of it, if measured."""
    runs: list[Mapping[str, Any]] = f.get("weighing", [])
    if not runs:
        return []
    lines = ["## The hard player's guesses", "",
             "`hard` plays every option out on guesses of the hidden hands. Its guesses "
             "are weighed by how likely each makes what the others did this round under "
             f"the rules of thumb: {evidence_words(HARD)}. `hard-uniform` is the same player "
             "on plain deals (voids respected, nothing weighed). Marks per round `hard` "
             "saves over it in the same seat on the same cards (above 0: weighing pays):",
             "", "| against | first rounds | whole games | games won, points |",
             "|---|---|---|---|"]
    for run in runs:
        if run["seats"][0] != "hard-uniform":
            continue
        gain = run["comparisons"][0]["b_minus_a"]
        lines.append(f"| {_against(run)} | {saved(gain['marks_per_round'])} | "
                     f"{saved(gain['game_marks_per_round'])} | {points(gain['games_won'])} |")
    parts = [run for run in runs if run["seats"][0] == "hard-signals"]
    if parts:
        lines += ["", "Each further part of the evidence, on top of toeps, calls and cards "
                  "(`hard-signals`): marks per round it saves on first rounds (above 0: it "
                  "pays; `hard` keeps a part only where it does):", "",
                  "| part | " + " | ".join(_against(run) for run in parts) + " |",
                  "|" + "---|" * (len(parts) + 1)]
        for i, c in enumerate(parts[0]["comparisons"]):
            cells = [saved(run["comparisons"][i]["b_minus_a"]["marks_per_round"])
                     for run in parts]
            lines.append(f"| `{c['b']['player']}` | " + " | ".join(cells) + " |")
    return [*lines, ""]


def _against(run: Mapping[str, Any]) -> str:
    others = run["seats"][1:]
    return f"{len(others)} x {others[0]}"


def verdicts(f: Figures) -> list[str]:
    """Per level, which habits gain marks with 95% confidence."""
    out = []
    for lv in f["levels"]:
        paying = []
        for habit in habits_of(f):
            for key, where in (("marks_per_round", "first rounds"),
                               ("game_marks_per_round", "whole games")):
                t = exploit_cell(f, lv, habit, key)
                if t is not None and t[2] is not None and t[2] < 0:
                    paying.append(f"`{habit}` ({where})")
        if paying:
            out.append(f"- Against `{lv}`, a habit gains marks beyond its interval: "
                       + ", ".join(paying) + ".")
        else:
            out.append(f"- Against `{lv}`, no habit gains marks beyond its interval.")
    return out


def command(f: Figures) -> str:
    return (f".venv/bin/python -m bench.strength --rounds {f['rounds']} --games {f['games']} "
            f"--seed {f['seed']} --workers {f['workers']} --write docs/strength.md")


INTRO = """\
# How strong the computer players are

Every computer level (`easy`, `normal`, `hard`) against every other and
against `yardstick`, at two players and at four, and what each scripted
exploiter gains against each level. The figures are made by one command and
written here by it, unedited; run it again after a change to the players.
"""

MEANING = """\
## What the figures mean

- **Marks per round**: the marks a player takes in a round, on average
  (fewer is better; a fold costs the stake before the toep, a lost round the
  stake, a jack finish twice that). The rounds are duplicate deals: the
  first round of a fresh game, dealt once per rotation of the seats, so every
  player gets every seat's cards and the luck of the cards cancels out. The
  95% interval is taken over deals (a deal with all its rotations is one
  sample).
- **Games won**: whole games to the end (limit 15, the default house rules),
  the seating rotated from game to game; the share won with its 95% Wilson
  interval.
- **Exploiters** (`python -m engine.duel --compare LEVEL:HABIT --seats
  LEVEL,LEVEL,LEVEL`): seat 0 plays as the level and again as the habit on the
  same deals and the same games, so each deal (or game) gives one paired
  difference. The habits: `vw-always` calls vuile was on every hand,
  `vw-strong` until it holds two 9s or 10s, `toep-always` toeps whenever it
  may, `never-fold` calls every toep, `check-all` checks every vuile was;
  otherwise each plays as `normal`.
- An interval that holds 0 does not tell the two apart at this size.
"""

LIMITS = """\
## Limits

- **The yardstick is our own.** `yardstick` is a solid rule-of-thumb player
  written in this project (`cli/yardstick.py`) apart from `normal`, so that
  `hard` is not measured only against its own model of the others; it is
  not a person, nor anybody else's program. No figure here is a rating
  against people.
- `hard` guesses the others' hands by how `normal`'s rules of thumb would
  have played them; `normal` plays exactly so, the yardstick nearly so. A
  person who plays otherwise is read less well than these tables suggest.
- The exploiters are scripted: each pushes one habit and never changes. A
  person who sees the others answer a habit changes it. The first rounds show
  a habit before anyone can know it; the whole games show it once it is seen.
- Default house rules only; other options (a lower limit, no dead man's round,
  V7) change the figures.
- Rounds and games come from one base seed; another seed gives other figures
  within about their intervals.
"""


def document(f: Figures) -> str:
    head = [INTRO,
            f"Measured on {f['date']} at commit `{f['commit']}`, seed {f['seed']}: "
            f"{f['rounds']} rounds (duplicate deals x seats) and {f['games']} whole games "
            f"per table, in {f['seconds']:.0f} s with {_workers(f)}.", "",
            "```sh", command(f), "```", "", *_small_run(f)]
    body = tables(f)
    return "\n".join([*head, *body, "In short:", "", *verdicts(f), "",
                      *weighing_lines(f), MEANING, LIMITS])


def _small_run(f: Figures) -> list[str]:
    if f["rounds"] >= FULL_ROUNDS and f["games"] >= FULL_GAMES:
        return []
    return [f"This was a small run: its intervals are wide, and a difference inside "
            f"them is not one. The full table takes `--rounds {FULL_ROUNDS} --games "
            f"{FULL_GAMES}` (hours on one core; give it `--workers`).", ""]


def text_report(f: Figures) -> str:
    """The figures as printed: the document's tables and the time taken."""
    return "\n".join([*tables(f), *verdicts(f), "", *weighing_lines(f),
                      f"{f['rounds']} rounds and {f['games']} games per table, seed "
                      f"{f['seed']}, {_workers(f)}: {f['seconds']} s"])


def _workers(f: Figures) -> str:
    n = int(f["workers"])
    return f"{n} worker process" + ("" if n == 1 else "es")
