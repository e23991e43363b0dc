"""Logging a failure without its text.

Log lines at INFO and above must never name a card that is not public
(DESIGN.md, "What each player sees"), and the text of an exception can: a
record error quotes a deal, a computer player's bug may print a hand. So at
ERROR a failure is logged with its kind and where it happened (the traceback's
frames show source lines, not values); its text goes to DEBUG only.
"""

from __future__ import annotations

import logging
import sys
import traceback


def failure(err: BaseException) -> str:
    """The kind of `err` and where it was raised, e.g. `RecordError at chance.py:193`."""
    frames = traceback.extract_tb(err.__traceback__)
    if not frames:
        return type(err).__name__
    last = frames[-1]
    return f"{type(err).__name__} at {last.filename.rsplit('/', 1)[-1]}:{last.lineno}"


def log_failure(logger: logging.Logger, level: int, msg: str, *args: object) -> None:
    """Like `logger.exception` (call it in an `except` block), but the
    exception's text and the frames only at DEBUG."""
    err = sys.exc_info()[1]
    if err is None:
        logger.log(level, msg, *args)
        return
    frames = "".join(traceback.format_tb(err.__traceback__)).rstrip()
    logger.log(level, msg + " (%s)\n%s", *args, failure(err), frames)
    logger.debug("the failure above in full", exc_info=True)
