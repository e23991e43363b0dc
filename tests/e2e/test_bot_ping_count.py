"""Count what a player hears (issue 26): a whole game through the fake
Discord between a fast player, who keeps the hand panel open and answers
within a second, an idle one, who looks only once pinged, and a computer.
With the default ("when idle"), the fast player gets no ping at all; the
idle one one a turn at most (the first when idle; later, as the panel it
left open shows each decision, the last call before its clock runs out),
and nobody forfeits."""

from __future__ import annotations

from pathlib import Path

from cogs.i18n import t
from tables.snapshot import Status
from tables.table import Table
from tests.e2e.fake_discord.models import Message
from tests.e2e.toep_world import (
    World,
    careful,
    open_private_table,
    open_world,
    panel_button,
    start,
)

NAMES = ("fast", "idle")
CLOCK = 20
STEP = 3  # seconds the idle player lets pass between looks at their phone


def _is_ping(message: Message) -> bool:
    """A turn ping links the table message (an invitation does not)."""
    return not message.ephemeral and "/channels/" in message.content


def heard(world: World, who: str) -> int:
    """Turn pings that notified `who` (deleted ones too: the push came)."""
    user = str(world.people[who].id)
    return sum(1 for m in world.fake.store.messages.values()
               if _is_ping(m) and user in m.notified)


def _on_turn(world: World, table: Table) -> str | None:
    """The person whose turn it is (not a window), if any."""
    game = table.game
    if game is None or game.over or not table.open:
        return None
    waiting = game.waiting()
    if waiting.window:
        return None
    for seat in waiting.seats:
        who = world.name_of(table.seats[seat].user_id)
        if who is not None:
            return who
    return None


async def _answer(world: World, who: str, panel: Message, table: Table) -> Message:
    """Click what `careful` would on `panel` (a fresh one if it has no such
    button); the panel that now follows the game."""
    game = table.game
    assert game is not None
    seat = world.seat(who)
    choice = careful(game, seat)
    assert choice is not None, f"{who} has nothing to do in {game.phase}"
    verb, card = choice
    if panel_button(panel, verb, card) is None:
        fresh = await world.panel(who)
        assert fresh is not None
        panel = fresh
    custom_id = panel_button(panel, verb, card)
    assert custom_id is not None, f"{who}'s panel lacks {verb} {card}: {panel.text}"
    await world.click(who, panel, custom_id)
    return panel


async def test_a_fast_player_hears_no_pings_and_an_idle_one_about_one_a_turn(
        tmp_path: Path) -> None:
    async with open_world(tmp_path, NAMES, seed=2026) as world:
        table = await open_private_table(world, guests=("idle",), bots=("easy",), clock=CLOCK,
                                         rounds=1, dead_man=False, two_left="normal")
        fast_panel: Message | None = None
        await start(world)
        clock = world.fake_clock
        turns = {"fast": 0, "idle": 0}
        for _ in range(600):
            await world.bot_settled()
            game = table.game
            if game is None or game.over or not table.open:
                break
            who = _on_turn(world, table)
            if who is None:
                # A window (vuile was, check, super toep): silence answers it.
                await clock.advance(table.rules.window)
                continue
            turns[who] += 1
            if who == "fast":
                if fast_panel is None:
                    fast_panel = await world.panel("fast")
                    assert fast_panel is not None
                await clock.advance(0.5)  # answers within a second, panel open
                fast_panel = await _answer(world, "fast", fast_panel, table)
                continue
            before = heard(world, "idle")
            for _step in range(CLOCK // STEP):  # looks only once pinged
                if heard(world, "idle") > before:
                    break
                await clock.advance(STEP)
                await world.bot_settled()
            assert heard(world, "idle") > before, "the idle player was never pinged"
            panel = await world.panel("idle")
            assert panel is not None
            await _answer(world, "idle", panel, table)
        await world.bot_settled()
        assert table.status is Status.FINISHED, table.status
        assert table.game is not None and not any(table.game.forfeited)
        pings = {who: heard(world, who) for who in NAMES}
        said = [m.content for m in world.fake.store.messages.values() if _is_ping(m)]
        mention = world.people["idle"].mention
        last_calls = sum(1 for c in said if c.startswith(f"{mention}, your time runs out"))
        # The count the issue asks for (pytest -s shows it).
        print(f"turns {turns}; pings heard {pings}, of them {last_calls} last calls")
        assert turns["fast"] >= 2 and turns["idle"] >= 2
        assert pings["fast"] == 0
        # One ping a turn: the first when idle; then, as the panel it left open
        # shows each decision, the last call (a turn right after their own
        # move may find the ping they read still standing: none).
        assert 1 <= pings["idle"] <= turns["idle"] and pings["idle"] == len(said)
        assert said[0].startswith(t("en", "ping.turn", mention=mention, link=""))
        assert all(c.startswith(f"{mention}, ") for c in said)  # nobody else, ever
        assert not [m for m in world.fake.channel_messages(world.channel) if _is_ping(m)]
