"""The host's menu to take someone off a lobby, and how the lobby tells of it."""

from __future__ import annotations

import discord
import pytest

from cogs.i18n import t
from cogs.lobby_remove import parse_seat_value, remove_menu, seat_value
from cogs.render import lobby_message
from cogs.render_text import plain
from engine.rules import TableRules
from tables.snapshot import SeatInfo, Status, TableSnapshot
from tests.cogs.limits import check_limits

HOST = 5


def _lobby(seats: tuple[SeatInfo, ...], removed: tuple[str, ...] = ()) -> TableSnapshot:
    return TableSnapshot(table_id=77, guild_id=1, channel_id=2, host_id=HOST, public=True,
                         rules=TableRules(), status=Status.LOBBY, seats=seats,
                         invited=frozenset(), view=None, clock=None, passed=frozenset(),
                         recent=(), stamp="0", removed=removed)


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_the_menu_lists_everyone_but_the_host(lang: str) -> None:
    seats = (SeatInfo(0, 9, None, "bram"), SeatInfo(1, HOST, None, "anna"),
             SeatInfo(2, None, "easy", "Bot 1"), SeatInfo(3, 12, None, "x" * 120))
    menu = remove_menu(_lobby(seats), lang)
    assert menu is not None and menu.custom_id == "toep:77:remove"
    assert [o.value for o in menu.options] == ["0:9", "2:bot", "3:12"]
    assert [o.label for o in menu.options][:2] == ["bram", "Bot 1"]
    assert len(menu.options[2].label) == 100  # a long name is clipped to Discord's limit
    assert menu.options[0].description is None
    assert menu.options[1].description == t(lang, "lobby.remove_bot",
                                            level=t(lang, "level.easy"))
    check_limits(lobby_message(_lobby(seats), lang))


def test_no_menu_while_the_host_sits_alone() -> None:
    snap = _lobby((SeatInfo(0, HOST, None, "anna"),))
    assert remove_menu(snap, "en") is None
    view = lobby_message(snap, "en").view
    assert view is not None and not any(isinstance(i, discord.ui.Select) for i in view.children)


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_the_lobby_names_who_was_taken_off(lang: str) -> None:
    snap = _lobby((SeatInfo(0, HOST, None, "anna"),), removed=("<@1> *bram*",))
    embed = lobby_message(snap, lang).embed
    assert embed is not None and embed.description is not None
    line = embed.description.splitlines()[-1]
    assert line == t(lang, "lobby.removed", names=plain("<@1> *bram*"))  # never a mention
    assert "<@1>" not in line
    untouched = lobby_message(_lobby((SeatInfo(0, HOST, None, "anna"),)), lang).embed
    assert untouched is not None
    assert t(lang, "lobby.removed", names="")[:10] not in str(untouched.description)


def test_values_round_trip_and_anything_else_is_refused() -> None:
    for seat, user in ((0, 9), (7, None), (3, 10**19)):
        assert parse_seat_value([seat_value(seat, user)]) == (seat, user)
    for values in ([], ["0:9", "1:9"], ["8:9"], ["0:"], ["0:09"], ["0:0"], ["0:bots"],
                   ["-1:bot"], ["0:9 "], ["0:" + "9" * 21]):
        assert parse_seat_value(values) is None, values
