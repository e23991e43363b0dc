"""Errors raised by the persistence layer.

Every error a caller may want to catch derives from DataError, so the tables
layer can tell a storage problem from a rule refusal of the engine.
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


class DataError(Exception):
    """Base of every error raised by the data package."""


class DatabaseOpenError(DataError):
    """The database cannot be opened: a file that is not a usable SQLite file,
    a PostgreSQL server that cannot be reached or refuses us."""


class DatabaseCorruptError(DatabaseOpenError):
    """The file exists but is not a database, or fails SQLite's integrity check.

    The file is left exactly as it was: nothing is repaired or overwritten.
    """


class MigrationError(DataError):
    """A migration could not be applied; its transaction was rolled back."""


class ConstraintError(DataError):
    """A write broke a rule of the schema (a unique index, a check, an
    append-only log); the same error on SQLite and PostgreSQL. Its text names
    the constraint as the database did."""


class NotFoundError(DataError):
    """The game (or other row) named does not exist."""


class ChannelBusyError(DataError):
    """The channel already has an open table (lobby or game in play)."""


class GameStateError(DataError):
    """The game is not in a status that allows the operation."""


class LogOrderError(DataError):
    """An append to the event or deal log does not continue the log exactly.

    The log is write-ahead: a gap or a duplicate means the caller's idea of the
    game and the stored record have diverged, which must never pass silently.
    """


class TransactionError(DataError):
    """Misuse of transactions, such as nesting them in one task."""

