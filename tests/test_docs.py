"""The documentation a clone of this repository carries: every link in the
README and docs/ leads to a file in the repository, nothing points outside
it, and the README names every command, option and setting the bot has."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path

import pytest

from config import Settings

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# [text](target) and ![alt](target); the target ends at a space or ")".
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)[^)]*\)")
SKIPPED_DIRS = {".git", ".venv", ".mypy_cache", ".pytest_cache", ".ruff_cache", "__pycache__",
                ".hypothesis"}
OUTSIDE = "../" + "shared"  # spelled in two parts so this file does not name it


def _links(page: Path) -> list[str]:
    return LINK.findall(page.read_text(encoding="utf-8"))


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_link_leads_to_a_file_in_the_repository(page: Path) -> None:
    assert page.exists()
    for target in _links(page):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        assert resolved.is_relative_to(ROOT), f"{page.name} links outside: {target}"
        assert resolved.exists(), f"{page.name} links to a missing file: {target}"
        if anchor and resolved.suffix == ".md":
            assert anchor in _anchors(resolved), f"{page.name} links to a missing heading: {target}"


def _anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, as the usual markdown viewers make them."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def _repository_files() -> list[Path]:
    found = []
    for path in ROOT.rglob("*"):
        parts = set(path.relative_to(ROOT).parts)
        if path.is_file() and not parts & SKIPPED_DIRS and path.suffix != ".png":
            found.append(path)
    return found


def test_no_file_refers_to_anything_outside_the_repository() -> None:
    named = [str(p.relative_to(ROOT)) for p in _repository_files()
             if OUTSIDE in p.read_text(encoding="utf-8", errors="replace")]
    assert named == []


def _catalog(lang: str) -> dict[str, str]:
    catalog: dict[str, str] = {}
    for path in sorted((ROOT / "locales").glob(f"{lang}*.json")):
        catalog.update(json.loads(path.read_text(encoding="utf-8")))
    return catalog


def _readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_the_readme_documents_every_command_and_option(lang: str) -> None:
    """Command and option names come from the catalogs, where the bot's
    translator finds them: a new command without a line in the README fails
    here (add it to the README's table of commands, with its Dutch name)."""
    readme = _readme()
    catalog = _catalog(lang)
    # Both groups: /toep and /toep-admin (whose commands only admins see).
    commands = re.compile(r"^cmd\.(toep|toep-admin)\.([a-z_-]+)\.name$")
    options = re.compile(r"^cmd\.(toep|toep-admin)\.([a-z_-]+)\.opt\.([a-z_]+)\.name$")
    missing = []
    for key, name in catalog.items():
        if found := commands.match(key):
            group = catalog[f"cmd.{found.group(1)}.name"]
            if f"/{group} {name}" not in readme:
                missing.append(f"/{group} {name}")
        if found := options.match(key):
            group = catalog[f"cmd.{found.group(1)}.name"]
            command = catalog.get(f"cmd.{found.group(1)}.{found.group(2)}.name", found.group(2))
            if f"`{name}`" not in readme and f"/{group} {command} {name}:" not in readme:
                missing.append(f"/{group} {command} option {name}")
    assert missing == [], "the README does not document these"


# A setting read from more than one variable of the environment.
ENVIRONMENT = {"shards": ("SHARD_COUNT", "SHARD_IDS"),
               "web": ("WEB_PORT", "WEB_HOST", "DISCORD_CLIENT_ID", "DISCORD_CLIENT_SECRET",
                       "WEB_DEV_LOGIN", "ACTIVITY", "WEB_TRUSTED_PROXIES")}


def test_the_readme_documents_every_setting() -> None:
    readme = _readme()
    names = [name for f in fields(Settings) for name in ENVIRONMENT.get(f.name, (f.name.upper(),))]
    assert [name for name in names if name not in readme] == []
    for name in ("DISCORD_TOKEN", "DEV_GUILD_ID", "DATABASE_PATH", "LOG_LEVEL", "SHARD_COUNT",
                 "SHARD_IDS"):
        assert name in (ROOT / ".env.example").read_text(encoding="utf-8")


def test_the_readme_keeps_the_two_commands_a_newcomer_needs_up_front() -> None:
    readme = _readme()
    first_commands = readme.index("make run")
    assert first_commands < readme.index("/toep ") and "make test" in readme[:first_commands + 200]
