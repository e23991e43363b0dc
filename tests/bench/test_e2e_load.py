"""bench/e2e_load.py's own bookkeeping: what an unacknowledged or refused
interaction asked, as its figures count it."""

from __future__ import annotations

from bench.e2e_load import _asked_for


def test_a_slash_command_is_counted_by_its_command_and_subcommand() -> None:
    payload = {"data": {"name": "toep", "options": [
        {"name": "new", "type": 1, "options": [{"name": "private", "type": 5, "value": True}]}]}}
    assert _asked_for(payload) == "/toep new"
    assert _asked_for({"data": {"name": "leaderboard"}}) == "/leaderboard"


def test_a_button_is_counted_by_its_verb_never_its_card() -> None:
    assert _asked_for({"data": {"custom_id": "toep:12:play:10H:3f"}}) == "play"
    assert _asked_for({"data": {"custom_id": "toep:12:hand"}}) == "hand"
    assert _asked_for({"data": {"custom_id": "forged"}}) == "forged"
