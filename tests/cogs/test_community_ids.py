"""The community components' ids: what the renderers write reads back the
same; anything else, "²" and "١" among it, is ForgedId and nothing else."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cogs.community_ids import (
    MAX_OFFSET,
    SETTING_OPTIONS,
    BanId,
    BoardId,
    DailyId,
    LearnId,
    RulesId,
    SettingsId,
    read,
)
from cogs.gate import parse
from cogs.ids import GAME_VERBS, ForgedId
from cogs.render_community import SETTING_OPTIONS as SHOWN_OPTIONS
from cogs.render_community import ban_id, board_id, settings_id
from cogs.render_learn import learn_id
from cogs.render_limits import LIMIT_OPTIONS
from engine.cards import DECK

GUILD = 1457705189376000002
SNOWFLAKES = st.integers(1, 2**64 - 1)


@given(guild=SNOWFLAKES, offset=st.integers(0, MAX_OFFSET))
def test_a_leaderboard_page_reads_back(guild: int, offset: int) -> None:
    assert parse(board_id(guild, offset)) == BoardId(guild, offset)


@given(guild=SNOWFLAKES, user=SNOWFLAKES)
def test_a_ban_reads_back(guild: int, user: int) -> None:
    assert parse(ban_id(guild, user)) == BanId(guild, user)


def test_every_settings_component_reads_back() -> None:
    for what in ("lang", "pick", "reset"):
        assert parse(settings_id(GUILD, what)) == SettingsId(GUILD, what)
    for option in SETTING_OPTIONS:
        assert parse(settings_id(GUILD, f"value:{option}")) == SettingsId(GUILD, "value", option)


@given(game=st.integers(0, 2**62), verb=st.sampled_from(sorted(GAME_VERBS - {"play"})),
       stamp=st.text("0123456789abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=16))
def test_a_practice_move_reads_back(game: int, verb: str, stamp: str) -> None:
    assert parse(learn_id(game, verb, None, stamp)) == LearnId(game, verb, None, stamp)
    card = DECK[game % len(DECK)].text
    assert parse(learn_id(game, "play", card, stamp)) == LearnId(game, "play", card, stamp)
    assert parse(learn_id(game, "quit")) == LearnId(game, "quit", None, None)


FORGED = [
    "toepboard:²:0", f"toepboard:{GUILD}:¹²", f"toepboard:{GUILD}:١", f"toepboard:{GUILD}:01",
    f"toepboard:{GUILD}:{MAX_OFFSET + 1}", f"toepboard:{GUILD}", f"toepboard:{GUILD}:0:0",
    "toepboard:0:0", f"toepboard:0{GUILD}:0", f"toepboard:{2**64}:0",
    f"toepban:{GUILD}:²", f"toepban:{GUILD}:0", f"toepban:{GUILD}:{2**64}", f"toepban:{GUILD}:",
    f"toepset:{GUILD}:value:clock", f"toepset:{GUILD}:value:", f"toepset:{GUILD}:value:²",
    f"toepset:{GUILD}:dance", f"toepset:{GUILD}:lang:x", f"toepset:{GUILD}",
    "toeplearn:¹²:new:-:-", "toeplearn:1:new:-:a", "toeplearn:1:pass:-:-",
    "toeplearn:1:play:-:a", "toeplearn:1:play:1H:a", "toeplearn:1:toep:10H:a",
    "toeplearn:1:dance:-:a", "toeplearn:1:quit:-:-:-", "toeplearn:1:pass:-:" + "a" * 17,
    "toepx:1:2", "poker:1", "", ":", "toep", "toepboard",
]


@pytest.mark.parametrize("text", FORGED)
def test_forged(text: str) -> None:
    with pytest.raises(ForgedId):
        parse(text)


@given(st.text(max_size=120))
def test_parse_refuses_with_forged_id_and_nothing_else(text: str) -> None:
    with contextlib.suppress(ForgedId):
        parse(text)


@given(kind=st.sampled_from(["toepboard", "toepset", "toepban", "toeplearn", "toeprules"]),
       parts=st.lists(st.one_of(st.sampled_from(
           ["1", "0", "²", "-", "value", "limit", "new", "pass", "a", str(GUILD), "10H"]),
           st.text(max_size=8)), max_size=5))
def test_near_misses_read_as_what_they_say_or_not_at_all(kind: str, parts: list[str]) -> None:
    try:
        parsed = read(kind, ":".join(parts))
    except ForgedId:
        return
    assert isinstance(parsed, BoardId | SettingsId | BanId | LearnId | RulesId)
    assert all(part.isascii() for part in parts)


def test_the_settings_message_offers_the_options_the_ids_take() -> None:
    assert set(SHOWN_OPTIONS) | set(LIMIT_OPTIONS) == SETTING_OPTIONS


def test_the_rules_menu_reads_as_one_id_and_nothing_else() -> None:
    assert read("toeprules", "pick") == RulesId()
    for rest in ("", "pick:1", "Pick", "pick "):
        with pytest.raises(ForgedId):
            read("toeprules", rest)


def test_a_daily_id_reads_only_as_its_panel_writes_it() -> None:
    guild = str(GUILD)
    assert read("toepdaily", f"{guild}:days") == DailyId(GUILD, ("days",))
    assert read("toepdaily", f"{guild}:open:2026-12-04") == DailyId(
        GUILD, ("open", "2026-12-04"))
    assert read("toepdaily", f"{guild}:records:tournament-20261204-183000") == DailyId(
        GUILD, ("records", "tournament-20261204-183000"))
    assert read("toepdaily", f"{guild}:act:2026-12-04:3:play:10H:a1") == DailyId(
        GUILD, ("act", "2026-12-04", "3", "play", "10H", "a1"))
    for rest in (f"{guild}:open", f"{guild}:open:today", f"{guild}:act:2026-12-04:²:play:10H:a1",
                 f"{guild}:act:2026-12-04:3:play:1H:a1", f"{guild}:act:2026-12-04:3:toep:10H:a1",
                 f"{guild}:act:2026-12-04:999:pass:-:a1", f"{guild}:days:1", "0:days"):
        with pytest.raises(ForgedId):
            read("toepdaily", rest)
