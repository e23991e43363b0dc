"""Fixtures of the web table's tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    """A plain HTTP client: the page's side of the web table."""
    async with aiohttp.ClientSession() as session:
        yield session
