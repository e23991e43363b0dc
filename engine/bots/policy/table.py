"""The shipped betting policy: read once, looked up per decision.

`toep_chance(context, bucket)` and `call_chance(context, before, bucket)`
give the policy's probability of the bold action (toep; call), or None
where the policy has nothing to say (a situation the abstraction leaves out,
or an information set the solver never reached): the caller decides
otherwise then.
"""

from __future__ import annotations

import json
import logging
from functools import cache
from pathlib import Path
from typing import Any

from engine.bots.policy.abstraction import BUCKETS, Context, history_index

log = logging.getLogger(__name__)

FORMAT = "toep-betting-policy/1"
POLICY_FILE = Path(__file__).with_name("policy.json")


class PolicyError(ValueError):
    """The policy file is missing pieces or is not this format."""


class PolicyTable:
    def __init__(self, content: dict[str, Any]) -> None:
        if content.get("format") != FORMAT:
            raise PolicyError(f"not a {FORMAT} file: {content.get('format')!r}")
        self.content = content
        self.policies: dict[str, Any] = content["policies"]

    def _row(self, context: Context) -> dict[str, Any] | None:
        row: dict[str, Any] | None = self.policies.get(context.name)
        return row

    def toep_chance(self, context: Context, bucket: int) -> float | None:
        row = self._row(context)
        if row is None or not 0 <= bucket < BUCKETS:
            return None
        value: float | None = row["toep"][bucket]
        return value

    def call_chance(self, context: Context, before: tuple[bool, ...],
                    bucket: int) -> float | None:
        """`before`: the answers to this toep before this seat's, in order (True: called)."""
        row = self._row(context)
        if row is None or not 0 <= bucket < BUCKETS or len(before) >= context.players - 1:
            return None
        value: float | None = row["answer"][history_index(context.players, before)][bucket]
        return value


def load(path: Path = POLICY_FILE) -> PolicyTable:
    return PolicyTable(json.loads(path.read_text(encoding="utf-8")))


@cache
def shipped() -> PolicyTable:
    """The policy in the repository, read once per process."""
    return load()
