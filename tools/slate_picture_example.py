"""Draw the slate picture of a game record with the bot's own renderer.

    python -m tools.slate_picture_example [RECORD.json] [--out docs/slate-picture.png]
                                          [--lang en|nl]

Replays the record (default: docs/examples/two-rounds.json), renders the
slates after its last finished round exactly as the bot attaches them to the
table message (cogs/slate_picture.py), writes the PNG and prints the picture's
alt text. The README shows the picture this made.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from cogs.slate_picture import Picture, round_picture
from engine.record import ReplayError, replay_json
from engine.views import public_view

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "docs" / "examples" / "two-rounds.json"
OUT = ROOT / "docs" / "slate-picture.png"


def picture_of(record: object, lang: str) -> Picture:
    """The slates after the record's last finished round."""
    game = replay_json(record)
    view = public_view(game)
    if not view.rounds:
        raise ValueError("the record has no finished round to draw")
    return round_picture(view, view.players, lang)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.slate_picture_example",
                                     description="Draw the slates after a record's last round.")
    parser.add_argument("record", nargs="?", default=str(RECORD), metavar="RECORD.json")
    parser.add_argument("--out", default=str(OUT), help=f"the PNG to write (default {OUT})")
    parser.add_argument("--lang", choices=("en", "nl"), default="en")
    args = parser.parse_args(argv)
    try:
        record = json.loads(Path(args.record).read_text(encoding="utf-8"))
        picture = picture_of(record, args.lang)
    except (OSError, ValueError, ReplayError) as err:
        print(f"slate picture: {err}", file=sys.stderr)
        return 2
    Path(args.out).write_bytes(picture.png)
    print(picture.text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
