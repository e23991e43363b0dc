from __future__ import annotations

from pathlib import Path

import pytest

from data.errors import MigrationError
from data.migrate import MIGRATIONS_DIR, discover, split_statements


def test_split_keeps_trigger_bodies_whole() -> None:
    sql = (
        "-- a comment\nCREATE TABLE t (x INTEGER);\n"
        "CREATE TRIGGER t_no BEFORE UPDATE ON t\nBEGIN\n"
        "    SELECT RAISE(ABORT, 'no; never');\nEND;\n-- trailing comment\n"
    )
    statements = split_statements(sql)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")


def test_split_refuses_an_unfinished_statement() -> None:
    with pytest.raises(MigrationError, match="incomplete"):
        split_statements("CREATE TABLE t (x INTEGER)")


def test_shipped_migrations_are_numbered_from_one() -> None:
    migrations = discover(MIGRATIONS_DIR)
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))


def test_gap_in_numbers_is_refused(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("SELECT 1;\n")
    (tmp_path / "0003_c.sql").write_text("SELECT 1;\n")
    with pytest.raises(MigrationError, match="expected migration 0002"):
        discover(tmp_path)


def test_badly_named_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "1_a.sql").write_text("SELECT 1;\n")
    with pytest.raises(MigrationError, match=r"0001_name\.sql"):
        discover(tmp_path)
