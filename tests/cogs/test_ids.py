"""custom_ids: encode/decode round trips; anything else is ForgedId."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cogs import ids
from cogs.ids import ForgedId, decode, encode
from engine.cards import DECK

GOOD = [
    (0, "join", None, None),
    (ids.MAX_TABLE_ID, "start", None, None),
    (42, "addbot", "hard", None),
    (42, "removebot", "7", None),
    (42, "hand", None, None),
    (42, "play", "10H", "zz9"),
    (42, "pass", None, "0"),
    *[(9, verb, None, "a1") for verb in sorted(ids.GAME_VERBS - {"play"})],
    *[(9, verb, None, None) for verb in sorted(ids.LOBBY_VERBS - ids.ARG_VERBS)],
]


@pytest.mark.parametrize(("table", "verb", "arg", "stamp"), GOOD)
def test_round_trip(table: int, verb: str, arg: str | None, stamp: str | None) -> None:
    text = encode(table, verb, arg, stamp)
    assert len(text) <= 100
    assert decode(text) == ids.ButtonId(table, verb, arg, stamp)


def test_every_card_round_trips() -> None:
    for card in DECK:
        button = decode(encode(5, "play", card.text, "k3"))
        assert button.card is card and button.stamp == "k3" and button.is_game


def test_typed_args() -> None:
    assert decode("toep:1:addbot:easy").level == "easy"
    assert decode("toep:1:removebot:3").seat == 3
    assert decode("toep:1:join").card is None


FORGED = [
    "", "toep", "toep:", "toep:1", "tOep:1:join", "xtoep:1:join", "toep:1:join:",
    "toep:01:join", "toep:-1:join", "toep:1.5:join", "toep:a:join", "toep::join",
    "toep:9223372036854775808:join", "toep:99999999999999999999:join",
    "toep:1:dance", "toep:1:JOIN", "toep:1:join:extra", "toep:1:hand:1",
    "toep:1:play:11H:a", "toep:1:play:10h:a", "toep:1:play:10H", "toep:1:play:a",
    "toep:1:addbot", "toep:1:addbot:expert", "toep:1:removebot:8", "toep:1:removebot:07",
    "toep:1:removebot:-1", "toep:1:removebot", "toep:1:toep", "toep:1:toep:",
    "toep:1:toep:a-b", "toep:1:toep:a b", "toep:1:call:x:y", "toep:1:fold:é",
    "toep:1:toep:" + "a" * 17, "toep:1:toep:a\n", "toep:١:join",
    "toep:1:join" + " " * 100,
]


@pytest.mark.parametrize("text", FORGED)
def test_forged(text: str) -> None:
    with pytest.raises(ForgedId) as info:
        decode(text)
    assert info.value.reason


def test_encode_refuses_what_decode_refuses() -> None:
    with pytest.raises(ValueError):
        encode(1, "play", "1H", "a")
    with pytest.raises(ValueError):
        encode(1, "toep")


@given(st.text(max_size=120))
def test_decode_never_raises_anything_else(text: str) -> None:
    with contextlib.suppress(ForgedId):
        decode(text)


@given(st.lists(st.sampled_from(["toep", "1", "play", "10H", "a", "", "hand", "addbot",
                                 "easy", "7", "removebot", "x" * 30, "9" * 20]),
                max_size=6))
def test_decode_near_misses(parts: list[str]) -> None:
    text = ":".join(parts)
    try:
        button = decode(text)
    except ForgedId:
        return
    assert button.encode() == text

