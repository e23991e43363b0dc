"""The soak bench (bench/soak.py) on tiny numbers, on both databases (a
PostgreSQL server of its own, as `--database postgres` starts): it runs,
reports every figure it promises, and finds no errors and no replay
mismatches. Figures themselves are never asserted (the machine is shared)."""

from __future__ import annotations

import pytest

from bench.soak import Options, run

KEYS = {"errors", "games", "games_per_s", "events_per_s", "act_p99_ms", "kb_per_table",
        "restore_s", "replay_mismatches"}


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
async def test_soak_smoke_reports_every_figure_with_no_errors(database: str) -> None:
    result = await run(Options(tables=3, games=3, restore=3, max_seconds=60, database=database))
    assert set(result) >= KEYS
    assert result["errors"] == 0, result["error_samples"]
    assert result["replay_mismatches"] == 0
    assert result["games"] == 3 and not result["stopped_early"]
    assert result["restore_tables"] == 3 and result["restore_min_rounds"] >= 10
    assert result["events"] > 0 and result["kb_per_table"] > 0


@pytest.mark.soak
@pytest.mark.parametrize("database", ["sqlite", "postgres"])
async def test_soak_small(database: str) -> None:
    result = await run(Options(tables=20, games=40, restore=20, max_seconds=600,
                               database=database))
    assert result["errors"] == 0, result["error_samples"]
    assert result["replay_mismatches"] == 0 and result["games"] == 40
    assert result["restore_tables"] == 20


async def test_soak_memory_figures_at_both_points() -> None:
    result = await run(Options(tables=2, games=4, rss_after=2, trace=True, growers=5, restore=1,
                               restore_rounds=1, max_seconds=60))
    assert result["errors"] == 0, result["error_samples"]
    for name in ("rss_mb", "blocks", "traced_mb", "tracemalloc_own_mb"):
        assert result[f"{name}_after"] > 0 and result[f"{name}_end"] > 0
    assert result["rss_growth_pct"] is not None and result["traced_growth_pct"] is not None
    assert 0 < len(result["growers"]) <= 5
    assert all(g["grew_kb"] > 0 and ":" in g["line"] for g in result["growers"])
