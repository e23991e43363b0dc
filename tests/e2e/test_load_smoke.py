"""bench/e2e_load.py in small: two tables of one-round games through the fake Discord.

Figures are not asserted (docs/design.md: no timed assertions in tests); only that the
bench runs, reports every key, and saw no error and no unacknowledged interaction.
"""

from __future__ import annotations

from bench.e2e_load import Options, run

KEYS = ("tables", "games_finished", "clicks", "ack_p50_ms", "ack_p99_ms", "unacknowledged",
        "edits_per_table_per_s", "errors")


async def test_two_tables_play_through_the_fake_discord() -> None:
    result = await run(Options(tables=2, rounds=1, think=(0.0, 0.0), bot_pause=0.0,
                               max_seconds=60.0))
    assert all(key in result for key in KEYS), result
    assert result["tables"] == 2
    assert result["errors"] == 0, result["error_samples"]
    assert result["unacknowledged"] == 0
    assert result["clicks"] > 0
    assert result["games_finished"] == 2, result
