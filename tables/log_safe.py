"""Logging a failure without its text.

Log lines at INFO and above must never name a card that is not public
(DESIGN.md, "What each player sees"), and the text of an exception can: a
record error quotes a deal, a computer player's bug may print a hand. So at
ERROR a failure is logged with its kind and its traceback (frames show source
lines, not values); its text goes to DEBUG only. The troubles of the outside
world (the database, the disk, the network) keep their text: it is theirs.
"""

from __future__ import annotations

import logging
import sys
import traceback

from data.sql import DRIVER_ERRORS

# Failures whose text never holds a card: what the database or the system says.
OUTSIDE = (*DRIVER_ERRORS, OSError)


def failure(err: BaseException) -> str:
    """The kind of `err` and where it was raised, e.g. `RecordError at chance.py:193`."""
    frames = traceback.extract_tb(err.__traceback__)
    if not frames:
        return type(err).__name__
    last = frames[-1]
    return f"{type(err).__name__} at {last.filename.rsplit('/', 1)[-1]}:{last.lineno}"


def log_failure(logger: logging.Logger, level: int, msg: str, *args: object,
                error: BaseException | None = None) -> None:
    """Like `logger.exception` (call it in an `except` block, or pass the
    `error`), but the exception's text only at DEBUG."""
    err = error if error is not None else sys.exc_info()[1]
    if err is None:
        logger.log(level, msg, *args)
        return
    if isinstance(err, OUTSIDE):
        logger.log(level, msg, *args, exc_info=err)
        return
    frames = "".join(traceback.format_tb(err.__traceback__))
    logger.log(level, msg + " (%s)\nTraceback (most recent call last):\n%s%s: (text at DEBUG)",
               *args, failure(err), frames, type(err).__name__)
    logger.debug("the failure above in full", exc_info=err)
