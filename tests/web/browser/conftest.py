"""A real browser for the web table's tests: Playwright driving the system's
Chromium (Debian's chromium-headless-shell; Playwright's own download is not
used). Without one the tests are skipped with a clear reason, except in CI
(CI=true), where they must run: there a missing browser fails them."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

CANDIDATES = ("chromium-headless-shell", "chromium", "chromium-browser")
INSTALL = "apt-get install chromium-headless-shell"


def chromium() -> str | None:
    """The browser to drive: TOEP_CHROMIUM, else the first candidate on PATH."""
    named = os.environ.get("TOEP_CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    for name in CANDIDATES:
        found = shutil.which(name)
        if found is not None:
            return found
    return None


def _missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; in CI the browser tests must run ({INSTALL})")
    pytest.skip(f"browser tests skipped: {reason} ({INSTALL}, or set TOEP_CHROMIUM)")


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    path = chromium()
    if path is None:
        _missing("no Chromium found")
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        _missing("Playwright is not installed (requirements-dev.txt)")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=path)
        yield launched
        await launched.close()
