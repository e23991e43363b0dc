"""The policy file: regenerated bit for bit, and the shipped one sound."""

from __future__ import annotations

import json
import math
from pathlib import Path

from engine.bots.policy import solve, table
from engine.bots.policy.abstraction import (
    BUCKETS,
    EDGES,
    PLAYERS,
    contexts,
    histories,
)

TINY = solve.Config(deals=(3, 2, 2), guesses=4, iterations=20, seed=5)


def test_regeneration_is_byte_identical(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    args = ["--deals", "3", "2", "2", "--guesses", "4", "--iterations", "20", "--seed", "5"]
    assert solve.main([*args, "--out", str(first)]) == 0
    assert solve.main([*args, "--out", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()
    assert first.read_text() == solve.dump(solve.solve(TINY))


def test_another_seed_gives_another_policy() -> None:
    other = solve.Config(TINY.deals, TINY.guesses, TINY.iterations, seed=6)
    assert solve.dump(solve.solve(TINY)) != solve.dump(solve.solve(other))


def test_the_shipped_file_matches_its_header() -> None:
    content = json.loads(table.POLICY_FILE.read_text(encoding="utf-8"))
    assert content["format"] == table.FORMAT
    config = content["config"]
    assert solve.Config(tuple(config["deals"]), config["guesses"], config["iterations"],
                        config["seed"], config["min_reach"], config["payoff"]) == solve.Config()
    assert content["buckets"] == list(EDGES)
    names = {c.name for p in PLAYERS for c in contexts(p)}
    assert set(content["policies"]) == names
    for players in PLAYERS:
        assert content["histories"][str(players)] == [list(h) for h in histories(players)]
        gains = content["exploitability"][f"{players}p"]
        assert len(gains["mean"]) == players and all(0 <= g < 0.01 for g in gains["mean"])


def test_the_shipped_policy_gives_probabilities() -> None:
    shipped = table.shipped()
    seen = 0
    for players in PLAYERS:
        for ctx in contexts(players):
            for b in range(BUCKETS):
                values = [shipped.toep_chance(ctx, b)]
                values += [shipped.call_chance(ctx, h, b) for h in histories(players)]
                for value in values:
                    if value is not None:
                        seen += 1
                        assert 0.0 <= value <= 1.0 and not math.isnan(value)
    # Off-path and rare information sets are left to the search (null).
    assert seen > 0.3 * sum(len(contexts(p)) * BUCKETS * (1 << (p - 1)) for p in PLAYERS)


def test_a_bad_file_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "other"}))
    try:
        table.load(bad)
    except table.PolicyError as err:
        assert "other" in str(err)
    else:
        raise AssertionError("a file of another format was read")
