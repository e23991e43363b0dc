"""Table options V1-V14 (docs/rules.md, "House rules"): names, defaults, ranges, validation."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

log = logging.getLogger(__name__)


class NextLeader(Enum):
    """V5: who leads the first trick from round 2."""

    AFTER_LEADER = "after_leader"
    AFTER_WINNER = "after_winner"
    WINNER = "winner"


class TwoLeft(Enum):
    """V11: what happens when two players are left."""

    NORMAL = "normal"
    SUPER_TOEP = "super_toep"
    ASK = "ask"


class RulesError(ValueError):
    """An unknown option, a value of the wrong type, or one out of range."""


@dataclass(frozen=True)
class OptionSpec:
    vid: str
    kind: type
    low: int | None = None
    high: int | None = None
    nullable: bool = False
    choices: tuple[str, ...] = ()

    def describe(self) -> str:
        if self.kind is bool:
            return "true or false"
        if self.choices:
            return " or ".join(f'"{c}"' for c in self.choices)
        text = f"{self.low}-{self.high}"
        return f"null or {text}" if self.nullable else text


SPECS: dict[str, OptionSpec] = {
    "limit": OptionSpec("V1", int, 5, 30),
    "max_stake": OptionSpec("V2", int, 2, 10, nullable=True),
    "folded_card_wins": OptionSpec("V3", bool),
    "no_toep_past_limit": OptionSpec("V4", bool),
    "next_leader": OptionSpec("V5", NextLeader, choices=tuple(m.value for m in NextLeader)),
    "rounds": OptionSpec("V6", int, 1, 100, nullable=True),
    "seven_counts": OptionSpec("V7", bool),
    "redeal_after": OptionSpec("V8", int, 2, 5),
    "dead_man": OptionSpec("V9", bool),
    "small_players": OptionSpec("V10", int, 1, 5, nullable=True),
    "two_left": OptionSpec("V11", TwoLeft, choices=tuple(m.value for m in TwoLeft)),
    "max_players": OptionSpec("V12", int, 2, 8),
    "clock": OptionSpec("V13", int, 10, 60),
    "window": OptionSpec("V14", int, 5, 30),
}


@dataclass(frozen=True)
class TableRules:
    """The options of one table. The defaults give the R-rules."""

    limit: int = 15
    max_stake: int | None = None
    folded_card_wins: bool = True
    no_toep_past_limit: bool = False
    next_leader: NextLeader = NextLeader.AFTER_LEADER
    rounds: int | None = None
    seven_counts: bool = False
    redeal_after: int = 5
    dead_man: bool = True
    small_players: int | None = 2
    two_left: TwoLeft = TwoLeft.ASK
    max_players: int = 6
    clock: int = 20
    window: int = 10

    def __post_init__(self) -> None:
        for f in fields(self):
            _check(f.name, getattr(self, f.name))

    @property
    def edge(self) -> int:
        """One mark below the limit ("op scherp")."""
        return self.limit - 1

    @classmethod
    def from_json(cls, data: object) -> TableRules:
        """Options by name as in a record; anything left out takes its default."""
        if not isinstance(data, Mapping):
            raise RulesError("rules must be an object of option names to values")
        values: dict[str, Any] = {}
        for name, value in data.items():
            spec = SPECS.get(name)
            if spec is None:
                raise RulesError(f"unknown option {name!r}; options are {', '.join(SPECS)}")
            values[name] = _from_json_value(name, spec, value)
        return cls(**values)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.value if isinstance(value, Enum) else value
        return out

    def changed(self, **values: object) -> TableRules:
        return replace(self, **values)  # type: ignore[arg-type]


def _shown(value: object) -> str:
    """A value as the record wrote it (null, true, "text")."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _from_json_value(name: str, spec: OptionSpec, value: object) -> object:
    if value is None and spec.nullable:
        return None
    if spec.choices:
        if not isinstance(value, str) or value not in spec.choices:
            raise RulesError(f"{spec.vid} {name} must be {spec.describe()}, "
                             f"got {_shown(value)}")
        return spec.kind(value)
    if spec.kind is bool:
        if not isinstance(value, bool):
            raise RulesError(f"{spec.vid} {name} must be true or false, got {_shown(value)}")
        return value
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(f"{spec.vid} {name} must be a whole number {spec.describe()}, "
                         f"got {_shown(value)}")
    return value


def _check(name: str, value: object) -> None:
    spec = SPECS[name]
    if value is None:
        if not spec.nullable:
            raise RulesError(f"{spec.vid} {name} must be {spec.describe()}, got null")
        return
    if spec.choices:
        if not isinstance(value, spec.kind):
            raise RulesError(f"{spec.vid} {name} must be {spec.describe()}, got {value!r}")
        return
    if spec.kind is bool:
        if not isinstance(value, bool):
            raise RulesError(f"{spec.vid} {name} must be true or false, got {value!r}")
        return
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(f"{spec.vid} {name} must be a whole number, got {value!r}")
    assert spec.low is not None and spec.high is not None
    if not spec.low <= value <= spec.high:
        raise RulesError(f"{spec.vid} {name} must be {spec.describe()}, got {value}")
