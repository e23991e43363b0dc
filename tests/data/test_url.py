"""DATABASE_URL: told from a file name, checked, shown without its password."""

from __future__ import annotations

from data.url import is_postgres_url, shown_url, url_problem


def test_urls_and_file_names() -> None:
    assert is_postgres_url("postgresql://u@h/db") and is_postgres_url("postgres://u@h/db")
    assert not is_postgres_url("data/toep.sqlite3")
    assert not is_postgres_url("postgresql.sqlite3")


def test_usable_urls_have_no_problem() -> None:
    assert url_problem("postgresql://toep:pw@localhost:5432/toep") is None
    assert url_problem("postgresql://toep@/toep?host=/run/postgresql") is None


def test_the_password_is_never_shown() -> None:
    assert shown_url("postgresql://toep:s3cret@db:5432/toep?sslmode=require") == (
        "postgresql://toep:***@db:5432/toep?sslmode=require")
    assert shown_url("postgresql://toep@/toep?host=/tmp/x") == "postgresql://toep@/toep?host=/tmp/x"
    assert "s3cret" not in shown_url("postgresql://toep:s3cret@db:99999999/toep")
