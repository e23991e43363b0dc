"""A finished game's record as one seat saw it (docs/records.md, "A seat's view")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.events import VuileWasOutcome
from engine.game import Game
from engine.record import ReplayError, parse_event, play_random_game, replay_json, to_record
from engine.rules import TableRules
from engine.seat_view_record import HIDDEN, seat_view_record
from tests.engine.helpers import deal, new_game, run

ROOT = Path(__file__).resolve().parents[2]

# Seat 1 holds four low cards (a genuine vuile was); seat 0 does not.
HANDS = deal("7D 8D 9D 10D", "JC QC KC AC", "7H 8H 9H 10H")


def _finished(game: Game, *steps: str) -> dict[str, Any]:
    run(game, *steps)
    assert game.over
    return to_record(game, seed=1)


def _seen(record: dict[str, Any], seat: int) -> dict[str, Any]:
    out = seat_view_record(record, seat)
    assert out["view"] == seat
    return out


def _visible(cards: list[str] | None) -> set[str]:
    return {c for c in cards or [] if c != HIDDEN}


# --- random games ------------------------------------------------------------------------


def _what_seat_may_see(record: dict[str, Any], seat: int) -> tuple[
        list[set[str]], list[set[str]]]:
    """Per deal: the cards the seat saw in others' hands (played, open, laid
    down to it), and the cards it drew itself. A superset, by card name."""
    game = replay_json({k: v for k, v in record.items() if k != "view"} | {"events": []})
    public: list[set[str]] = [set()]
    drawn: list[set[str]] = [set()]
    for raw in record["events"]:
        event = parse_event(raw, game.n)
        index = len(game.deal_log) - 1
        before = [list(h) for h in game.hands]
        if event.card is not None:
            public[index].add(event.card.text)
        happenings = game.apply(event)
        for h in happenings:
            if isinstance(h, VuileWasOutcome) and (
                    h.outcome == "caught" or (h.genuine and seat in h.checkers)):
                public[index].update(c.text for c in before[h.caller])
        if len(game.deal_log) - 1 == index and game.hands[seat] and \
                set(game.hands[seat]) - set(before[seat]):
            drawn[index].update(c.text for c in game.hands[seat])
        while len(public) < len(game.deal_log):
            public.append(set())
            drawn.append(set())
    return public, drawn


def _random_records(count: int) -> list[dict[str, Any]]:
    out = []
    for seed in range(count):
        n = 2 + seed % 7
        rules = TableRules(max_players=8, limit=[5, 10, 15][seed % 3],
                           redeal_after=2 + seed % 4)
        game = play_random_game([f"p{i}" for i in range(n)], rules, seed)
        assert game.over
        out.append(to_record(game, seed))
    return out


RECORDS = _random_records(40)


@pytest.mark.parametrize("index", range(len(RECORDS)))
def test_random_games_show_only_what_the_seat_saw(index: int) -> None:
    record = RECORDS[index]
    shown_elsewhere = 0
    for seat in range(len(record["players"])):
        out = _seen(record, seat)
        assert out["events"] == record["events"]
        assert out["players"] == record["players"]
        assert "seed" not in out
        assert len(out["deals"]) == len(record["deals"])
        public, drawn = _what_seat_may_see(record, seat)
        for d, (original, masked) in enumerate(zip(record["deals"], out["deals"], strict=True)):
            # Never a wrong card: each place holds the original card or "??".
            for h0, h1 in zip(original["hands"], masked["hands"], strict=True):
                assert (h0 is None) == (h1 is None)
                if h0 is not None:
                    assert all(b in (a, HIDDEN) for a, b in zip(h0, h1, strict=True))
            assert all(b in (a, HIDDEN)
                       for a, b in zip(original["stock"], masked["stock"], strict=True))
            for r0, r1 in zip(original.get("reshuffles", []), masked.get("reshuffles", []),
                              strict=True):
                assert all(b in (a, HIDDEN) for a, b in zip(r0, r1, strict=True))
            assert masked.get("leader") == original.get("leader")
            # Its own hand in full.
            assert masked["hands"][seat] == original["hands"][seat]
            # Of other hands only what was played, open or laid down to it.
            for other, hand in enumerate(masked["hands"]):
                if other != seat:
                    assert _visible(hand) <= public[d], (d, other)
                    shown_elsewhere += len(_visible(hand))
            # Of the stock and reshuffles only what it drew, or saw played.
            pile = masked["stock"] + [c for r in masked.get("reshuffles", []) for c in r]
            assert _visible(pile) <= drawn[d] | public[d], d
            if not drawn[d]:
                assert _visible(masked["stock"]) <= public[d]
        with pytest.raises(ReplayError) as caught:
            replay_json(out)
        assert caught.value.line().startswith("record:")
    if any(e["do"] == "play" for e in record["events"]):
        assert shown_elsewhere > 0  # played cards of other hands are shown


def test_random_games_hide_most_of_the_stock() -> None:
    hidden = total = 0
    for record in RECORDS:
        out = _seen(record, 0)
        for masked in out["deals"]:
            total += len(masked["stock"])
            hidden += masked["stock"].count(HIDDEN)
    assert total and hidden / total > 0.8


# --- the cases one by one --------------------------------------------------------------


def test_a_played_card_is_shown_the_rest_of_that_hand_is_not() -> None:
    game = new_game(HANDS, first_leader=0)
    record = _finished(game, "close", "0 7D", "1 forfeit", "2 forfeit")
    for seat in (1, 2):
        out = _seen(record, seat)
        assert out["deals"][0]["hands"][0] == ["7D", HIDDEN, HIDDEN, HIDDEN]
        assert out["deals"][0]["stock"] == [HIDDEN] * 20
    other = _seen(record, 1)["deals"][0]["hands"][2]
    assert other == [HIDDEN] * 4


def test_a_caught_bluffers_open_hand_is_shown_to_all() -> None:
    game = new_game(HANDS, first_leader=0)
    record = _finished(game, "0 vuile_was", "1 check", "2 believe", "1 forfeit", "2 forfeit")
    for seat in (1, 2):
        out = _seen(record, seat)
        assert out["deals"][0]["hands"][0] == ["7D", "8D", "9D", "10D"]
        assert out["deals"][0]["stock"] == [HIDDEN] * 20
    assert _seen(record, 1)["deals"][0]["hands"][2] == [HIDDEN] * 4
    assert _seen(record, 2)["deals"][0]["hands"][1] == [HIDDEN] * 4


def test_a_checked_genuine_vuile_was_is_shown_to_the_checkers_alone() -> None:
    game = new_game(HANDS, first_leader=0)
    record = _finished(game, "1 vuile_was", "2 check", "0 believe", "0 forfeit", "2 forfeit")
    caller = _seen(record, 1)["deals"][0]
    checker = _seen(record, 2)["deals"][0]
    believer = _seen(record, 0)["deals"][0]
    assert checker["hands"][1] == ["JC", "QC", "KC", "AC"]
    assert believer["hands"][1] == [HIDDEN] * 4
    # The caller sees its old hand and the four new cards it drew, nothing more.
    assert caller["hands"][1] == ["JC", "QC", "KC", "AC"]
    stock = record["deals"][0]["stock"]
    assert caller["stock"] == stock[:4] + [HIDDEN] * 16
    assert checker["stock"] == [HIDDEN] * 20
    assert believer["stock"] == [HIDDEN] * 20


def test_an_unchecked_vuile_was_stays_secret() -> None:
    game = new_game(HANDS, first_leader=0)
    record = _finished(game, "1 vuile_was", "2 believe", "0 believe", "close", "0 7D",
                       "0 forfeit", "2 forfeit")
    for seat in (0, 2):
        out = _seen(record, seat)["deals"][0]
        assert out["hands"][1] == [HIDDEN] * 4
        assert out["stock"] == [HIDDEN] * 20


def test_a_card_drawn_and_played_is_shown_where_it_was_drawn() -> None:
    game = new_game(HANDS, first_leader=1)
    stock = to_record(game, 1)["deals"][0]["stock"]
    record = _finished(game, "1 vuile_was", "2 believe", "0 believe", "close",
                       f"1 {stock[0]}", "0 forfeit", "2 forfeit")
    out = _seen(record, 0)["deals"][0]
    assert out["hands"][1] == [HIDDEN] * 4  # the hand it laid away stays secret
    assert out["stock"] == [stock[0]] + [HIDDEN] * 19


STOCK24 = ("JC QC KC AC JH QH KH AH 7D 8D 9D 10D JS QS KS AS 7H 8H 9H 10H "
           "7S 8S 9S 10S")


def _two_seats() -> Game:
    return new_game(deal("JD QD KD AD", "7C 8C 9C 10C", stock=STOCK24), first_leader=0,
                    redeal_after=5)


def test_the_pile_shows_what_the_seat_drew_and_saw_open() -> None:
    game = _two_seats()
    # Seat 0 draws three times (JC.., JH.., 7D..), then bluffs with 7D.. and
    # is caught: those four lie open. Seat 1 then draws three times (JS..,
    # 7H.., 7S..): the stock is empty, and its next call shuffles the
    # discards under the stock.
    run(game, "0 vuile_was", "1 believe", "0 vuile_was", "1 believe",
        "0 vuile_was", "1 believe", "0 vuile_was", "1 check")
    assert game.barred[0] and game.row == 0
    run(game, "1 vuile_was", "0 believe", "1 vuile_was", "0 believe",
        "1 vuile_was", "0 believe")
    assert game.stock == []
    run(game, "1 vuile_was", "0 believe")
    record = _finished(game, "1 forfeit")
    original = record["deals"][0]
    assert len(original["reshuffles"]) == 1 and len(original["reshuffles"][0]) == 24
    stock = original["stock"]
    seat0 = _seen(record, 0)["deals"][0]
    seat1 = _seen(record, 1)["deals"][0]
    # Seat 0: what it drew; not seat 1's draws; nothing of the reshuffle,
    # though its own laid-away cards are in it (where they went is secret).
    assert seat0["stock"] == stock[:12] + [HIDDEN] * 12
    assert seat0["reshuffles"] == [[HIDDEN] * 24]
    assert seat0["hands"][1] == [HIDDEN] * 4
    # Seat 1: seat 0's caught bluff (7D..10D) where it was drawn, its own
    # draws, and the first four of the reshuffle (its last new hand).
    assert seat1["stock"] == [HIDDEN] * 8 + stock[8:]
    assert seat1["reshuffles"] == [original["reshuffles"][0][:4] + [HIDDEN] * 20]
    assert seat1["hands"][0] == [HIDDEN] * 4


def test_a_redeal_starts_a_new_deal_with_its_own_hands() -> None:
    game = _two_seats()
    # Five calls in a row that bring new cards: the fifth brings a redeal.
    run(game, "0 vuile_was", "1 believe", "0 vuile_was", "1 believe",
        "1 vuile_was", "0 believe", "1 vuile_was", "0 believe")
    assert game.row == 4
    run(game, "0 vuile_was", "1 believe")
    assert len(game.deal_log) == 2
    record = _finished(game, "1 forfeit")
    for seat in (0, 1):
        out = _seen(record, seat)["deals"]
        assert out[1]["hands"][seat] == record["deals"][1]["hands"][seat]
        assert out[1]["hands"][1 - seat] == [HIDDEN] * 4
        assert out[0]["hands"][1 - seat] == [HIDDEN] * 4
        assert set(out[1]["stock"]) == {HIDDEN}


# --- refusals -------------------------------------------------------------------------


def test_a_game_in_progress_is_refused() -> None:
    game = new_game(HANDS, first_leader=0)
    run(game, "close", "0 7D")
    with pytest.raises(ReplayError, match="not finished") as caught:
        seat_view_record(to_record(game, 1), 0)
    assert caught.value.event is None


def test_a_view_and_a_bad_seat_are_refused() -> None:
    record = RECORDS[0]
    view = seat_view_record(record, 0)
    with pytest.raises(ReplayError, match="seat's view"):
        seat_view_record(view, 0)
    for seat in (-1, len(record["players"]), "0"):
        with pytest.raises(ReplayError, match="no seat"):
            seat_view_record(record, seat)  # type: ignore[arg-type]


def test_the_replay_command_refuses_a_view(tmp_path: Path) -> None:
    path = tmp_path / "view.json"
    path.write_text(json.dumps(seat_view_record(RECORDS[1], 1)), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "engine.replay", str(path)], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("record:")


def test_the_input_is_not_changed() -> None:
    record = json.loads(json.dumps(RECORDS[2]))
    seat_view_record(record, 0)
    assert record == RECORDS[2]
