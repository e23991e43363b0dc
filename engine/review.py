"""`python -m engine.review RECORD.json [--seat N] [--seed S] [--samples K] --json`.

Reviews the decisions of a finished game's seats (docs/records.md,
"Reviewing a game"): for each decision with more than one legal choice, the
marks each choice costs on average over the worlds that seat could be in
then, the best choice, the marks lost and a verdict. With `--json` it
prints one `toep-review/1` JSON object, else a summary as text; or it exits
2 with nothing on stdout and one line on stderr, `event N: ...` or
`record: ...`, as the replay command does.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from engine import events as ev
from engine.events import Event
from engine.record import ReplayError
from engine.replay import answer
from engine.review_judge import SAMPLES, Judgement, judge
from engine.review_moments import decisions, replayed
from engine.review_text import review_text
from engine.review_verdict import Bluffs

FORMAT = "toep-review/1"

def choice_key(event: Event) -> str:
    """A choice's key in `marks`: the card for a play, else the event's name."""
    return event.card.text if event.do == ev.PLAY and event.card is not None else event.do


def review_record(record: object, seats: Sequence[int] | None = None, seed: int = 0,
                  samples: int = SAMPLES,
                  progress: Callable[[int, int], None] | None = None) -> list[Judgement]:
    """The judged decisions of `seats` (all when None), in the record's order;
    `progress(done, all)` is called before the first decision and after each."""
    game, _ = replayed(record)
    if seats is None:
        seats = range(game.n)
    for seat in seats:
        if type(seat) is not int or not 0 <= seat < game.n:
            raise ReplayError(None, f"there is no seat {seat!r} at this table")
    bluffs = {seat: Bluffs() for seat in seats}
    todo = list(decisions(record, frozenset(seats)))
    judged: list[Judgement] = []
    for decision in todo:
        if progress is not None:
            progress(len(judged), len(todo))
        judged.append(judge(decision, seed, samples, bluffs[decision.view.seat]))
    if progress is not None:
        progress(len(judged), len(todo))
    return judged


def judgement_json(j: Judgement) -> dict[str, Any]:
    return {
        "event": j.index,
        "seat": j.seat,
        "round": j.round,
        "chosen": j.chosen.to_json(),
        "best": j.best.to_json(),
        "marks": {choice_key(e): round(m, 4) for e, m in j.marks.items()},
        "marks_lost": round(j.lost, 4),
        "se": round(j.se, 4),
        "exact": j.exact,
        "verdict": j.verdict,
    }


def review_json(judged: Sequence[Judgement]) -> dict[str, Any]:
    return {"format": FORMAT, "decisions": [judgement_json(j) for j in judged]}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        print(f"record: {message}", file=sys.stderr)
        sys.exit(2)


def _parser() -> _Parser:
    p = _Parser(prog="python -m engine.review",
                description="Review a finished game's decisions (toep-review/1 JSON).")
    p.add_argument("record", help="a toep-replay/1 record of a finished game, or - for stdin")
    p.add_argument("--seat", type=int, default=None, help="review this seat only (default: all)")
    p.add_argument("--seed", type=int, default=0, help="the review's own seed (default 0)")
    p.add_argument("--samples", type=int, default=SAMPLES,
                   help=f"worlds per decision when sampled (default {SAMPLES})")
    p.add_argument("--json", action="store_true",
                   help="print the toep-review/1 JSON (else a summary per seat and the "
                        "decisions that were not ok, as text)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    if args.samples < 1:
        print("record: --samples must be at least 1", file=sys.stderr)
        return 2
    seats = None if args.seat is None else [args.seat]
    show = (lambda j: json.dumps(review_json(j))) if args.json else review_text
    return answer(args.record, lambda data: review_record(data, seats, args.seed, args.samples),
                  show)


if __name__ == "__main__":
    sys.exit(main())
