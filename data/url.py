"""PostgreSQL URLs: telling one from a file name, checking one, showing one.

`postgresql://user:password@host:port/database` (or `postgres://`); a unix
socket folder goes in the query: `postgresql://user@/database?host=/run/postgresql`.
The password never appears in a message or a log line.
"""

from __future__ import annotations

import logging
from urllib.parse import parse_qs, urlsplit, urlunsplit

log = logging.getLogger(__name__)

SCHEMES = ("postgresql", "postgres")


def is_postgres_url(text: str) -> bool:
    return text.split("://", 1)[0].lower() in SCHEMES and "://" in text


def url_problem(text: str) -> str | None:
    """What is wrong with a DATABASE_URL, in words; None if it can be used."""
    if "://" not in text:
        return "is not a URL; it looks like postgresql://user:password@host:5432/toep"
    scheme = text.split("://", 1)[0].lower()
    if scheme not in SCHEMES:
        return (f"uses {scheme}://, but only postgresql:// is supported "
                "(leave DATABASE_URL unset to use SQLite at DATABASE_PATH)")
    try:
        parts = urlsplit(text)
        port = parts.port
        query = parse_qs(parts.query, strict_parsing=bool(parts.query))
    except ValueError as err:
        return f"cannot be read ({err})"
    if port == 0:
        return "names port 0"
    if not parts.hostname and "host" not in query:
        return "names no server: postgresql://user@host/database, or ?host=/socket/folder"
    if not parts.path.strip("/"):
        return "names no database: add it after the server, e.g. .../toep"
    return None


def shown_url(text: str) -> str:
    """The URL without its password, for messages."""
    try:
        parts = urlsplit(text)
        if parts.password is None:
            return text
        user = parts.username or ""
        host = parts.hostname or ""
        if ":" in host:
            host = f"[{host}]"
        netloc = f"{user}:***@{host}" + (f":{parts.port}" if parts.port else "")
    except ValueError:
        return "the DATABASE_URL"  # unreadable: show nothing of it, it may hold a password
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
