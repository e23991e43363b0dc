"""The lobby, refusals and one line per happening, in both languages."""

from __future__ import annotations

import logging
import random

import discord
import pytest

from cogs import ids
from cogs.i18n import t
from cogs.render import lobby_message, refusal, table_message
from cogs.render_text import happening_line
from engine import events as ev
from engine.cards import parse_card
from engine.chance import RandomChance
from engine.errors import IllegalEvent
from engine.game import Game
from engine.rules import TableRules, TwoLeft
from tables.snapshot import SeatInfo, Status, TableSnapshot
from tests.cogs.helpers import NOW
from tests.cogs.limits import check_limits

LANGS = ("en", "nl")


def _lobby(seats: tuple[SeatInfo, ...], rules: TableRules | None = None,
           status: Status = Status.LOBBY) -> TableSnapshot:
    return TableSnapshot(table_id=77, guild_id=1, channel_id=2, host_id=5, public=False,
                         rules=rules or TableRules(), status=status, seats=seats,
                         invited=frozenset(),
                         view=None, clock=None, passed=frozenset(), recent=(), stamp="0")


@pytest.mark.parametrize("lang", LANGS)
def test_lobby(lang: str) -> None:
    seats = (SeatInfo(0, 5, None, "Anna"),
             *(SeatInfo(i, None, "hard", f"Bot{i}") for i in range(1, 8)))
    rules = TableRules(limit=10, max_players=8, two_left=TwoLeft.NORMAL, max_stake=5)
    r = lobby_message(_lobby(seats, rules), lang)
    check_limits(r)
    assert r.view is not None and r.embed is not None
    verbs = [ids.decode(str(getattr(b, "custom_id", ""))) for b in r.view.children]
    assert {(v.verb, v.arg) for v in verbs} >= {("join", None), ("start", None),
                                                ("addbot", "easy"), ("remove", None)}
    menu = next(i for i in r.view.children if isinstance(i, discord.ui.Select))
    # everyone but the host, each named with who sat there
    assert [o.value for o in menu.options] == [f"{i}:bot" for i in range(1, 8)]
    assert menu.options[6].label == "Bot7" and t(lang, "level.hard") in str(
        menu.options[6].description)
    text = str(r.embed.to_dict())
    assert "V1" in text and "V2" in text and "V11" in text and "V3" not in text
    assert "Bot7" in text and "<@5>" in text
    assert table_message(_lobby(seats), lang, NOW).embed is not None


def test_closed_lobby_has_no_buttons() -> None:
    assert lobby_message(_lobby((), status=Status.CANCELLED), "nl").view is None


@pytest.mark.parametrize("lang", LANGS)
def test_refusals(lang: str) -> None:
    game = Game(TableRules(), ["Anna", "Bob"], RandomChance(random.Random(1)))
    game.apply(ev.act(ev.CLOSE_WINDOW))
    turn = game.waiting().seats[0]
    with pytest.raises(IllegalEvent) as info:
        game.apply(ev.act(ev.CHECK, turn))
    text = refusal(info.value, lang, ["Anna", "Bob"])
    assert "(R12; " in text and "{" not in text
    with pytest.raises(IllegalEvent) as info:
        game.apply(ev.play(1 - turn, game.hands[1 - turn][0]))
    text = refusal(info.value, lang, ["Anna", "Bob"])
    assert ["Anna", "Bob"][turn] in text and "seat" not in text
    follow = IllegalEvent("R4", "must_follow_suit", 0, cards=(parse_card("8H"), parse_card("9H")))
    assert "8♥" in refusal(follow, lang) and "9♥" in refusal(follow, lang)
    assert refusal(IllegalEvent("", "missing_seat"), lang)[-1] != ")"


SAMPLES: list[ev.Happening] = [
    ev.RoundStarted(2, "normal", 0, 1), ev.RoundStarted(3, "dead_man", 1, 2),
    ev.RoundStarted(4, "super_toep", 1, 1), ev.Dealt(1, False), ev.Dealt(1, True),
    ev.Reshuffled(9), ev.DeadMansRound((0, 1), 1), ev.PlayedIn(2, True),
    ev.PlayedIn(2, False), ev.SatOut(1), ev.SuperToepAsked((0, 1)),
    ev.SuperToepAnswered(0, True), ev.SuperToepAnswered(1, False),
    ev.SuperToepDecided(True), ev.SuperToepDecided(False), ev.VuileWasCalled(0),
    ev.Checked(1), ev.Believed(2),
    *[ev.VuileWasOutcome(0, o, g, c) for o, g, c in [
        ("new_cards", None, ()), ("new_cards", True, (1, 2)), ("caught", False, (1,)),
        ("lapsed", None, ()), ("redeal", None, ())]],
    ev.Redealt(5), ev.WindowClosed(), ev.CardPlayed(0, parse_card("JS")),
    ev.Toeped(1, 3), ev.Called(2, False), ev.Called(2, True), ev.Folded(0),
    *[ev.MarksTaken(0, m, 7, r) for m, r in [(1, "fold"), (1, "check"), (1, "bluff"),
                                            (1, "sit_out"), (2, "round"), (4, "jack_finish")]],
    ev.TrickWon(4, 1, parse_card("10H"), 1), ev.TrickWon(2, 1, parse_card("10H"), 2),
    ev.RoundWon(3, 1, 2, False), ev.RoundWon(3, 1, 2, True), ev.RoundWon(3, None, 1, False),
    *[ev.PlayerOut(2, r) for r in ("limit", "forfeit", "super_toep")],
    ev.Forfeited(2), ev.GameWon(1),
]


@pytest.mark.parametrize("lang", LANGS)
def test_every_happening_renders(lang: str, caplog: pytest.LogCaptureFixture) -> None:
    names = ("Anna", "Bob", "Carl")
    with caplog.at_level(logging.WARNING):
        lines = [happening_line(h, names, lang) for h in SAMPLES]
    assert not caplog.records, caplog.text
    assert len(set(lines)) == len(lines)
    assert all("{" not in line for line in lines)
    assert happening_line(ev.Toeped(0, 3), names, "nl") == "Anna toept: de inzet is nu 3."
