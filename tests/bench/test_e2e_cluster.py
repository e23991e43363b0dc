"""bench/e2e_load.py with clusters (bench/e2e_cluster.py): how the shards are shared,
which options are refused, and a small run in which one cluster is killed and
started again. Figures are not asserted (no timed assertions in tests); only that
the run reports them, that every game finished and that nothing went wrong."""

from __future__ import annotations

import pytest

from bench.e2e_cluster import problem, run, shard_shares
from bench.e2e_load import Options, parse


def test_each_cluster_owns_a_contiguous_share_of_the_shards() -> None:
    assert shard_shares(4, 2) == [(0, 1), (2, 3)]
    assert shard_shares(5, 2) == [(0, 1), (2, 3, 4)]
    assert shard_shares(3, 3) == [(0,), (1,), (2,)]


@pytest.mark.parametrize(("options", "words"), [
    (Options(clusters=0), "--clusters must be at least 1"),
    (Options(clusters=2), "--clusters needs --shard-count"),
    (Options(clusters=3, shard_count=2), "--shard-count must be from --clusters"),
    (Options(clusters=2, shard_count=2, kill_cluster=2), "--kill-cluster must be a cluster"),
    (Options(clusters=2, shard_count=2, kill_after=-1.0), "--kill-after must not be negative"),
])
def test_options_a_cluster_run_cannot_have_are_named(options: Options, words: str) -> None:
    assert (problem(options) or "").startswith(words)


def test_the_command_line_refuses_them_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse(["--clusters", "2", "--kill-cluster", "1"])
    assert "--clusters needs --shard-count" in capsys.readouterr().err


def test_one_process_on_sqlite_is_not_a_cluster_run() -> None:
    assert not parse(["--tables", "3"])[0].clustered
    options, _ = parse(["--clusters", "2", "--shard-count", "4", "--database", "postgres",
                        "--kill-cluster", "1", "--kill-after", "5"])
    assert options.clustered
    assert (options.clusters, options.shard_count, options.backend) == (2, 4, "postgres")
    assert (options.kill_cluster, options.kill_after) == (1, 5.0)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_killed_cluster_s_tables_finish_and_the_run_says_how_it_went(
        backend: str) -> None:
    result = await run(Options(tables=4, rounds=2, think=(0.0, 0.1), bot_pause=0.0,
                               max_seconds=120.0, clusters=2, shard_count=2,
                               kill_cluster=1, kill_after=0.0, backend=backend))
    assert result["errors"] == 0, result["error_samples"]
    assert result["games_finished"] == 4 and result["killed_games_finished"] == 2, result
    assert [c["tables"] for c in result["per_cluster"]] == [2, 2]
    assert [c["shards"] for c in result["per_cluster"]] == [[0], [1]]
    assert all(c["bot_load"]["level_share"] for c in result["per_cluster"])  # each reported
    assert result["world_load"]["level_share"]  # this process's loop was followed
    assert result["restart_to_first_ack_ms"] is not None
    assert result["lease_takeovers"] == 1  # the shard of the killed process, taken back
    assert result["others_acks_over_3s"] == 0
    assert result["others_ack_max_ms_in_outage"] <= result["others_ack_max_ms"]
    assert result["unacknowledged"] == result["unacknowledged_at_kill"]
