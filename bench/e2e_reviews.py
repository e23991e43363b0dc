"""`--reviews N` of bench/e2e_load.py: reviews asked while the tables play.

Before the bot starts, N reviewers each get REVIEW_GAMES finished games in
the bench's database (the reviewer and three `easy` computer players, to 8
marks, stored through the data layer as a table stores one, as the e2e
tests store theirs). Once the bot is ready, each reviewer asks `/toep review game:` for
their games one after another, in a channel of their own, and waits for the
answer (the picture attached); each ask is a game not reviewed yet, so each
is worked out in the bot's review workers at the full number of worlds.

Figures, added to e2e_load's: `reviews_asked`, `reviews_done`,
`review_s_p50` and `review_s_max` (from the ask to the answer with its
picture), `review_progress_edits` (progress lines seen), `reviewing_s` (from
the first ask to the last answer), and the tables' clicks in that time:
`clicks_while_reviewing`, `ack_p50_ms_while_reviewing`,
`ack_p99_ms_while_reviewing`, `ack_max_ms_while_reviewing` (as e2e_load's
`ack_*`, which cover the whole run).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from data.db import connect
from tests.e2e.fake_discord import Channel, FakeDiscord, Message, User
from tests.e2e.test_community_board import store_game

REVIEW_GAMES = 3  # games each reviewer has reviewed, one after another
REVIEW_WAIT = 900.0  # seconds an answer may take
COMPONENT = 3  # an interaction's type: a click


@dataclass
class Reviewer:
    user: User
    channel: Channel
    games: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    progress: int = 0


class ReviewLoad:
    def __init__(self, fake: FakeDiscord, guild: Any, count: int) -> None:
        self.fake = fake
        self.reviewers = [
            Reviewer(fake.add_user(f"reviewer{i}", guild=guild),
                     fake.add_channel(guild, f"reviews-{i}")) for i in range(count)]
        self.guild_id = int(guild.id)
        self.asked = 0
        self.span = (0.0, 0.0)  # monotonic: the first ask, the last answer
        self._task: asyncio.Task[Any] | None = None

    async def seed(self, path: Path) -> None:
        db = await connect(path)
        try:
            for i, reviewer in enumerate(self.reviewers):
                for k in range(REVIEW_GAMES):
                    reviewer.games.append(await store_game(
                        db, self.guild_id, [(reviewer.user.id, reviewer.user.name)],
                        seed=1000 + i * REVIEW_GAMES + k, computers=3))
        finally:
            await db.close()

    def start(self) -> None:
        self.span = (time.monotonic(), 0.0)
        self._task = asyncio.create_task(self._all())

    async def _all(self) -> None:
        try:
            await asyncio.gather(*(self._one(r) for r in self.reviewers))
        finally:
            self.span = (self.span[0], time.monotonic())

    async def _one(self, reviewer: Reviewer) -> None:
        for game_id in reviewer.games:
            await self._ask(reviewer, game_id)

    async def _ask(self, reviewer: Reviewer, game_id: int) -> None:
        """One review asked and waited for; its time and progress lines kept."""
        started = time.monotonic()
        self.asked += 1
        res = await self.fake.slash(reviewer.user, reviewer.channel, "toep review",
                                    {"game": game_id})
        message = res.message
        seen: set[str] = set()

        def answered() -> Message | None:
            if message is None:
                return None
            seen.add(message.text)
            return message if message.attachments else None

        await self.fake.wait_for(answered, REVIEW_WAIT)
        reviewer.times.append(time.monotonic() - started)
        reviewer.progress += len(seen) - 1

    async def finish(self) -> dict[str, Any]:
        """The reviews' figures, once every reviewer is done (or failed)."""
        problem = None
        if self._task is not None:
            try:
                await self._task
            except Exception as err:  # reported as a figure, as e2e_load reports problems
                problem = repr(err)[:300]
        times = sorted(t for r in self.reviewers for t in r.times)
        during = sorted(r.ack_delay * 1000 for r in self.fake.store.interactions.values()
                        if r.type == COMPONENT and r.ack_delay is not None
                        and self.span[0] <= r.asked <= self.span[1])
        return {
            "reviews_asked": self.asked,
            "reviews_done": len(times),
            "review_s_p50": round(times[len(times) // 2], 1) if times else None,
            "review_s_max": round(times[-1], 1) if times else None,
            "review_progress_edits": sum(r.progress for r in self.reviewers),
            "review_problem": problem,
            "reviewing_s": round(self.span[1] - self.span[0], 1),
            "clicks_while_reviewing": len(during),
            "ack_p50_ms_while_reviewing": _at(during, 0.50),
            "ack_p99_ms_while_reviewing": _at(during, 0.99),
            "ack_max_ms_while_reviewing": _at(during, 1.0),
        }


def _at(values: list[float], q: float) -> float | None:
    """The q-quantile of sorted `values` (rounded), None for none."""
    if not values:
        return None
    return round(values[min(len(values) - 1, int(q * len(values)))], 1)
