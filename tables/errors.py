"""Refusals a table gives: a message key for the locales, and nothing changed."""

from __future__ import annotations

from engine.errors import IllegalEvent

# The rules a refusal of the table (not of the engine) can cite: R19, bans.
TABLE_RULES = frozenset({"R17", "R19"})


class Refusal(Exception):
    """A click or command the table refuses. `key` and `params` name the
    message in locales/; `rule` names a rule (R4, R19 ...) where one applies."""

    def __init__(self, key: str, rule: str = "", engine: IllegalEvent | None = None,
                 **params: object) -> None:
        if rule and engine is None and rule not in TABLE_RULES:
            raise ValueError(f"a table refusal cites {rule!r}, which is not in TABLE_RULES")
        self.key = key
        self.rule = rule
        self.engine = engine  # the engine's refusal, when it was one
        self.params = params
        # Key and rule only: its parameters may name a hidden card (see IllegalEvent).
        super().__init__(f"{rule + ': ' if rule else ''}{key}")

    @classmethod
    def from_engine(cls, err: IllegalEvent) -> Refusal:
        return cls(err.key, err.rule, err, **err.params)


class TableFailure(Exception):
    """Something went wrong that is not the player's doing (a disk error): the
    table was put back to its last saved state; the player gets an apology.
    `storage`: the database refused the save (full, locked, gone), so trying
    again later may work; otherwise a bug of ours. `caught_up`: the database
    held more of the game than the table (a save reported failed had been
    made), and the table now holds the game as the database does."""

    def __init__(self, message: str, *, storage: bool = False, caught_up: bool = False) -> None:
        super().__init__(message)
        self.storage = storage
        self.caught_up = caught_up
