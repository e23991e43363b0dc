"""The review's work in a worker process (cogs/review_pool.py starts them):
one seat of one finished game reviewed, and its picture drawn.

Pure but for the progress queue the pool hands each worker at its start:
a record in, plain JSON out, so a review crosses the process border and is
kept in the database as it is (data/reviews.py). What goes in it is what the
seat's view export shows (engine/seat_view_record.py): the seat's own
decisions, each judged from its SeatView alone (docs/review.md), and the
marks every seat took per round, which the table showed to all.
"""

from __future__ import annotations

import contextlib
import logging
import os
from multiprocessing.queues import Queue
from typing import Any

from engine.record import ReplayError, replay_json
from engine.review import FORMAT, judgement_json, review_record
from engine.review_judge import SAMPLES
from engine.review_moments import decisions

log = logging.getLogger(__name__)

WORKER_NICE = 10  # added to a worker's niceness
# The seed of every review: the same game gives the same review.
SEED = 0
# The last part of a kept review's version: raise it when the body changes.
BODY = "discord/1"


def version(samples: int = SAMPLES) -> str:
    """The key of a kept review: the analysis's format and worlds, and the
    shape of the body below."""
    return f"{FORMAT};samples={samples};seed={SEED};{BODY}"

class ReviewFailed(Exception):
    """A record that did not replay. One plain text, so it crosses the
    process border (ReplayError's two arguments do not unpickle)."""


_progress: Queue[tuple[str, int, int]] | None = None


def start_worker(progress: Queue[tuple[str, int, int]] | None) -> None:
    """A worker's initializer: where it tells how far each review is. It
    runs at a lower priority: on a busy machine the bot's own process (its
    tables' clicks) goes first."""
    global _progress
    _progress = progress
    with contextlib.suppress(OSError, AttributeError):  # not everywhere
        os.nice(WORKER_NICE)


def review_seat(key: str, record: dict[str, Any], seat: int,
                samples: int = SAMPLES) -> dict[str, Any]:
    """The review body of `seat`: its judged decisions (engine/review.py's
    JSON, and the stake then), its marks per round and the game's limit.
    `key` tags the progress it sends."""
    def tell(done: int, total: int) -> None:
        if _progress is not None:
            _progress.put((key, done, total))

    try:
        judged = review_record(record, [seat], SEED, samples, tell)
        game = replay_json(record)
        # The stake each decision was made at, as the seat saw it then.
        stakes = {d.index: d.view.public.stake for d in decisions(record, [seat])}
    except ReplayError as err:
        raise ReviewFailed(err.line()) from None
    return {
        "format": FORMAT,
        "version": version(samples),
        "seat": seat,
        "limit": game.rules.limit,
        "rounds": [summary.marks[seat] for summary in game.rounds],
        "decisions": [judgement_json(j) | {"stake": stakes[j.index]} for j in judged],
    }
