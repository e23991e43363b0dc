"""Issue 6 end to end through the fake Discord: the leaderboard and its pages,
stats, history and a seat's-view export, guild settings and bans."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from data import bans, gamelog, games, guilds, stats
from data.chance_log import ChanceLog
from data.db import Database
from data.games import Seat, SeatResult
from engine.bots import make_bot
from engine.bots.runner import play_out
from engine.chance import RandomChance
from engine.game import Game
from engine.record import to_record
from engine.rules import TableRules
from tables.clock import SystemClock
from tables.results import results
from tests.e2e.fake_discord.models import Message
from tests.e2e.toep_world import World, open_world, original

OTHERS = tuple(range(9_000_001, 9_000_011))  # ten more players, ids only


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with open_world(tmp_path, ("anna", "bram", "cora"), clock=SystemClock()) as opened:
        yield opened


def _db(world: World) -> Database:
    assert world.bot is not None
    return world.bot.db


def _id(world: World, name: str) -> int:
    return int(world.people[name].id)


async def store_game(db: Database, guild_id: int, people: Sequence[tuple[int, str]],
                     seed: int, computers: int = 0, status: str = "finished") -> int:
    """A game played by computer players for `people` (and `computers` more
    seats), stored through the data layer as a table stores one."""
    names = [name for _, name in people] + [f"Bot {i + 1}" for i in range(computers)]
    game = Game(TableRules(limit=8), names, RandomChance(random.Random(seed)))
    play_out(game, {s: make_bot("easy", seed + s) for s in range(len(names))})
    now = datetime.now(UTC)
    seats = [Seat(i, name, user_id=user) for i, (user, name) in enumerate(people)]
    seats += [Seat(len(people) + i, f"Bot {i + 1}", computer="easy") for i in range(computers)]
    row = await games.create_game(db, guild_id=guild_id, channel_id=seed, host_id=people[0][0],
                                  public=True, rules=game.rules.to_json(), seed=seed, now=now,
                                  seats=seats)
    await games.start_game(db, row.id, seats=seats, first_leader=game.first_leader, now=now)
    events = [e.to_json() for e in game.events]
    if status == "playing":  # only half of it has been played
        events = events[:len(events) // 2]
    await gamelog.append_events_and_deals(db, row.id, 0, events, 0,
                                          ChanceLog().new_rows(game))
    if status == "playing":
        return row.id
    outcome = results(to_record(game, seed))
    seat_results = [SeatResult(s, outcome.marks[s], outcome.places[s]) for s in range(game.n)]
    deltas = {user: outcome.stats[i] for i, (user, _) in enumerate(people)}
    await stats.finish_game(db, row.id, seat_results, deltas, True, now)
    return row.id


async def _many_games(world: World) -> list[int]:
    """Twelve people, three rated games each (four to a table)."""
    assert world.guild is not None
    people = [(_id(world, "anna"), "anna"), (_id(world, "bram"), "bram")]
    people += [(user, f"p{i}") for i, user in enumerate(OTHERS)]
    ids = []
    for round_ in range(3):
        order = people[round_:] + people[:round_]
        for table in range(3):
            ids.append(await store_game(_db(world), world.guild.id,
                                        order[table * 4:table * 4 + 4], seed=100 * round_ + table))
    return ids


def _select(message: Message, custom_id: str) -> dict[str, Any]:
    def walk(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for item in items:
            out.append(item)
            out += walk(item.get("components", []))
        return out

    for item in walk(message.components):
        if item.get("custom_id") == custom_id:
            return item
    raise LookupError(custom_id)


# --- leaderboard and stats ---------------------------------------------------------------


async def test_leaderboard_pages_after_several_games(world: World) -> None:
    await _many_games(world)
    res = await world.slash("anna", "toep leaderboard")
    assert res.ephemeral
    board = original(res)
    assert "Leaderboard" in board.text and "Page 1 of 2" in board.text
    assert "at least 3 rated games" in board.text
    assert board.text.count("rating **") == 10
    assert "**1.**" in board.text and "games" in board.text and "marks per round" in board.text
    top = (await stats.leaderboard(_db(world), world.guild.id, min_games=3, limit=1))[0]
    assert f"**1.** <@{top.user_id}>" in board.text
    next_button = board.button(label="Next ▶")
    assert next_button["custom_id"].startswith("toepboard:")
    assert board.button(label="◀ Previous").get("disabled")
    await world.fake.click(world.people["anna"], board, next_button["custom_id"])
    await world.fake.wait_for(lambda: "Page 2 of 2" in board.text)
    assert "**11.**" in board.text and "**12.**" in board.text and "**1.**" not in board.text
    assert board.button(label="Next ▶").get("disabled")
    # back, in Dutch
    prev = board.button(label="◀ Previous")["custom_id"]
    await world.fake.click(world.people["anna"], board, prev, locale="nl")
    await world.fake.wait_for(lambda: "Pagina 1 van 2" in board.text)
    assert "strepen per ronde" in board.text


async def test_empty_leaderboard_says_how_to_get_on_it(world: World) -> None:
    res = await world.slash("bram", "toep leaderboard", locale="nl")
    assert "minstens 3 potjes" in original(res).text
    assert original(res).buttons() == []


async def test_stats_of_yourself_and_of_a_member(world: World) -> None:
    await _many_games(world)
    res = await world.slash("anna", "toep stats")
    text = original(res).text
    assert res.ephemeral and "Figures of anna" in text
    for word in ("Rating", "Games", "Rounds", "Toeps", "Folds", "Vuile was", "Checks",
                 "Dead man's rounds", "leaderboard"):
        assert word in text, word
    mine = await stats.player_stats(_db(world), world.guild.id, _id(world, "anna"))
    assert mine is not None
    assert f"{mine.totals.games} played, {mine.totals.wins} won" in text
    res = await world.slash("anna", "toep stats", {"member": world.people["bram"]}, locale="nl")
    assert "Cijfers van bram" in original(res).text and "Toepen" in original(res).text
    res = await world.slash("anna", "toep stats", {"member": world.people["cora"]})
    assert "cora has not finished a game" in original(res).text


# --- history -----------------------------------------------------------------------------


async def test_history_lists_your_games_and_exports_your_seat_only(world: World) -> None:
    anna, bram, cora = (_id(world, n) for n in ("anna", "bram", "cora"))
    db = _db(world)
    guild = world.guild.id
    done = await store_game(db, guild, [(bram, "bram"), (anna, "anna")], seed=7, computers=2)
    running = await store_game(db, guild, [(anna, "anna"), (bram, "bram")], seed=8,
                               status="playing")
    not_mine = await store_game(db, guild, [(bram, "bram"), (cora, "cora")], seed=9)

    res = await world.slash("anna", "toep history")
    assert res.ephemeral and f"**#{done}**" in original(res).text
    assert f"#{not_mine}" not in original(res).text and f"#{running}" not in original(res).text

    res = await world.slash("anna", "toep history", {"game": done})
    message = await _reply(world, res, lambda m: bool(m.attachments))
    assert message.ephemeral
    attachment = message.attachments[0]
    assert attachment.filename == f"toep-game-{done}-seat-1.json"
    export = json.loads(attachment.data)
    assert export["view"] == 1 and "seed" not in export
    _assert_no_hidden_cards(export, seat=1)

    for game_id, words in ((running, "still being played"), (not_mine, "not one of your"),
                           (999_999, "not one of your")):
        res = await world.slash("anna", "toep history", {"game": game_id})
        reply = await _reply(world, res, _says(words))
        assert reply.ephemeral and not reply.attachments
    res = await world.slash("anna", "toep history", {"game": running}, locale="nl")
    await _reply(world, res, lambda m: "wordt nog gespeeld" in m.text)


def _says(words: str) -> Callable[[Message], bool]:
    return lambda m: words in m.text


async def _reply(world: World, res: Any, pred: Callable[[Message], bool]) -> Message:
    """The first message of an interaction (response or followup) that fits."""
    def found() -> Message | None:
        return next((m for m in res.messages if not m.loading and pred(m)), None)

    message: Message = await world.fake.wait_for(found)
    return message


def _assert_no_hidden_cards(export: dict[str, Any], seat: int) -> None:
    """Other seats' cards show only once they were played (or laid open)."""
    played: dict[int, set[str]] = {}
    callers = set()
    for event in export["events"]:
        if event["do"] == "play":
            played.setdefault(event["seat"], set()).add(event["card"])
        if event["do"] == "vuile_was":
            callers.add(event["seat"])
    hidden = 0
    for deal in export["deals"]:
        for owner, hand in enumerate(deal["hands"]):
            if hand is None:
                continue
            if owner == seat:
                assert "??" not in hand
                continue
            hidden += hand.count("??")
            for card in hand:
                assert card == "??" or card in played.get(owner, set()) or owner in callers
        if not callers:
            assert set(deal["stock"]) <= {"??"}
    assert hidden > 0


# --- settings ----------------------------------------------------------------------------


async def test_settings_changed_by_an_admin_refused_to_a_member(world: World) -> None:
    guild = world.guild.id
    # The server opened the command to bram (Discord hides it otherwise).
    world.fake.grant_command(world.guild, "toep-admin", world.people["bram"])
    res = await world.slash("bram", "toep-admin settings")
    assert res.ephemeral and "Only members who may manage the server" in original(res).text
    res = await world.slash("bram", "toep-admin bans", locale="nl")
    assert "Alleen leden die de server mogen beheren" in original(res).text

    res = await world.slash("anna", "toep-admin settings")
    panel = original(res)
    assert res.ephemeral and "House rules of public tables" in panel.text
    assert "V1: out at 15 marks" in panel.text and "20 s" in panel.text
    people = world.people["anna"]
    # the language: Dutch tables from now on
    await world.fake.click(people, panel, f"toepset:{guild}:lang", values=["nl"])
    await world.fake.wait_for(lambda: "Saved" in panel.text)
    assert (await guilds.get_settings(_db(world), guild)).language == "nl"
    assert world.bot is not None and await world.bot.presenter.table_lang(guild) == "nl"
    # a house rule: pick V1, then its value
    await world.fake.click(people, panel, f"toepset:{guild}:pick", values=["limit"])
    values = await world.fake.wait_for(lambda: _maybe_select(panel, f"toepset:{guild}:value:limit"))
    assert {"5", "10", "15", "30"} <= {o["value"] for o in values["options"]}
    await world.fake.click(people, panel, f"toepset:{guild}:value:limit", values=["10"])
    await world.fake.wait_for(lambda: "V1: out at 10 marks" in panel.text)
    assert (await guilds.get_settings(_db(world), guild)).public_rules == {"limit": 10}
    # a value the select did not offer is refused at the gate and changes nothing
    refused = await world.fake.forge_click(people, panel, f"toepset:{guild}:value:limit",
                                           values=["99"], component_type=3)
    assert original(refused).text == "That is not a button of this bot."
    # without the permission (it was taken away): refused
    refused = await world.fake.click(people, panel, f"toepset:{guild}:reset", permissions=0)
    assert "Only members who may manage the server" in original(refused).text
    assert (await guilds.get_settings(_db(world), guild)).public_rules == {"limit": 10}
    # a new public table plays by the house rule, in Dutch
    await world.slash("anna", "toep new")
    await world.wait_table_message("Meedoen")
    assert world.table().rules.limit == 10
    # in Dutch, and back to the standard rules
    res = await world.slash("anna", "toep-admin settings", locale="nl")
    panel = original(res)
    assert "Huisregels van openbare tafels" in panel.text
    await world.fake.click(people, panel, f"toepset:{guild}:reset", locale="nl")
    await world.fake.wait_for(lambda: "standaardregels" in panel.text)
    assert (await guilds.get_settings(_db(world), guild)).public_rules == {}


def _maybe_select(message: Message, custom_id: str) -> dict[str, Any] | None:
    try:
        return _select(message, custom_id)
    except LookupError:
        return None


# --- bans --------------------------------------------------------------------------------


async def test_bans_listed_and_lifted(world: World) -> None:
    db = _db(world)
    guild = world.guild.id
    bram = _id(world, "bram")
    now = datetime.now(UTC)
    for i, game_id in enumerate(await _three_games(world)):
        await bans.record_forfeit(db, game_id=game_id, guild_id=guild, user_id=bram,
                                  kind="walkout", at=now - timedelta(hours=3 - i))
    assert await bans.active_ban(db, guild, bram, now) is not None

    res = await world.slash("anna", "toep-admin bans")
    panel = original(res)
    assert f"<@{bram}>" in panel.text and "until" in panel.text and "R19" in panel.text
    button = panel.button(label="Lift ban 1")
    assert button["custom_id"] == f"toepban:{guild}:{bram}"
    # the ban keeps bram from a public table
    await world.slash("anna", "toep new")
    joined = await world.click_table("bram", "join")
    refused = await joined.wait_followups(1)
    assert "You may not join public tables until" in refused[0].text
    assert world.table().seat_of(bram) is None

    # a member without Manage Server who presses it is refused in words, and nothing changes
    denied = await world.fake.click(world.people["anna"], panel, button["custom_id"],
                                     permissions=0)
    assert "can see and lift bans" in original(denied).text
    denied = await world.fake.click(world.people["anna"], panel, button["custom_id"],
                                     permissions=0, locale="nl")
    assert "schorsingen zien en opheffen" in original(denied).text
    assert await bans.active_ban(db, guild, bram, datetime.now(UTC)) is not None

    await world.fake.click(world.people["anna"], panel, button["custom_id"])
    await world.fake.wait_for(lambda: "is lifted" in panel.text)
    assert "Nobody is banned" in panel.text and panel.buttons() == []
    assert await bans.active_ban(db, guild, bram, datetime.now(UTC)) is None
    res = await world.slash("anna", "toep-admin bans", locale="nl")
    assert "Niemand is geschorst" in original(res).text
    await world.click_table("bram", "join")
    await world.fake.wait_for(lambda: world.table().seat_of(bram) is not None)


async def _three_games(world: World) -> list[int]:
    anna, bram = _id(world, "anna"), _id(world, "bram")
    return [await store_game(_db(world), world.guild.id, [(anna, "anna"), (bram, "bram")],
                             seed=50 + i) for i in range(3)]


# --- commands ----------------------------------------------------------------------------


async def test_commands_sync_in_both_languages(world: World) -> None:
    synced = world.fake.commands()
    subs = {o["name"]: o for c in synced if c["name"] in ("toep", "toep-admin")
            for o in c["options"]}
    for name, dutch in (("leaderboard", "ranglijst"), ("stats", "statistieken"),
                        ("history", "geschiedenis"), ("learn", "leer-toepen"),
                        ("settings", "instellingen"), ("bans", "schorsingen")):
        assert subs[name]["name_localizations"]["nl"] == dutch
    assert "new" in subs and "hand" in subs  # the table's commands are still there
    assert subs["learn"]["description_localizations"]["nl"].startswith("Leer toepen")
