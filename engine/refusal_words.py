"""The replay tool's words for a refusal: one English line, as REPLAY.md
shows it (`seat 1 must follow suit (R4): play 8H or 9H`).

The engine's refusals carry no words (engine/errors.py); the bot and the
terminal game say them in words of their own. The phrases for moments,
actions and round kinds are shared English vocabulary.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engine.cards import Card
from engine.errors import IllegalEvent, Param, SeatRef
from engine.state import Phase

MOMENTS: Mapping[Phase, str] = {
    Phase.SUPER_QUESTION: "the super toep question is open",
    Phase.DEAD_MAN_CHOICE: "players are choosing to play or sit out",
    Phase.WINDOW: "the vuile was window is open",
    Phase.CHECK: "a vuile was call is being answered",
    Phase.PLAY: "it is time to play a card",
    Phase.TOEP_ANSWER: "a toep is being answered",
    Phase.OVER: "the game is over",
}

ACTIONS: Mapping[str, str] = {
    "play": "play a card", "toep": "toep", "call": "call", "fold": "fold",
    "vuile_was": "call vuile was", "check": "check", "believe": "believe",
    "play_in": "play in", "sit_out": "sit out", "super_yes": "say yes", "super_no": "say no",
    "close_window": "close the window", "forfeit": "forfeit",
}

KINDS: Mapping[str, str] = {"dead_man": "dead man's round", "super_toep": "super toep",
                            "normal": "round"}

# key -> (what is wrong, with {seat} for the seat that tried; the detail or "").
LINES: Mapping[str, tuple[str, str]] = {
    "game_over": ("the game is over", ""),
    "no_such_seat": ("there is no seat {number}", ""),
    "seat_out": ("{who} is out of the game", ""),
    "not_in_round": ("{seat} is not in this round", ""),
    "not_your_turn": ("{seat} is not on turn", "waiting for {waiting}"),
    "wrong_moment": ("{seat} cannot {do} now", "{moment}"),
    "must_follow_suit": ("{seat} must follow suit", "play {cards}"),
    "not_in_hand": ("{seat} does not hold {card}", ""),
    "answer_toep_first": ("{seat} must answer the toep first", "call or fold"),
    "last_toeper": ("{seat} made the last toep", "someone else must toep first"),
    "no_toep_dead_man": ("nobody may toep in a dead man's round", ""),
    "no_toep_super": ("nobody may toep in a super toep", ""),
    "max_stake": ("the stake may not go above {max_stake}", ""),
    "toep_past_limit": ("{seat} may not toep past the limit", "{marks} + {stake} > {limit}"),
    "forced_call": ("{seat} must call this toep", "the call is made for it"),
    "vuile_was_barred": ("{seat} was caught bluffing", "no more vuile was this round"),
    "vuile_was_no_cards": ("the stock and the discard pile hold too few cards for a new hand",
                           ""),
    "vuile_was_genuine_only": ("only a genuine vuile was may be called in a {kind}", ""),
    "vuile_was_pending": ("a vuile was call is being answered", "wait for it"),
    "not_checker_turn": ("{seat} is not on turn to check or believe", "waiting for {waiting}"),
    "no_choice": ("{seat} has no choice", "one more mark would put it out, so it plays"),
    "already_chose": ("{seat} already chose", ""),
    "dead_man_plays": ("a dead man always plays", ""),
    "already_answered": ("{seat} already answered", ""),
    "unknown_event": ("unknown event {do}", ""),
    "missing_card": ("a play needs a card", ""),
    "missing_seat": ("this event needs a seat", ""),
}


def replay_line(err: IllegalEvent) -> str:
    """`seat 1 must follow suit (R4): play 8H or 9H`."""
    what, detail = LINES[err.key]
    words = english_params(err)
    words["seat"] = "a player" if err.seat is None else f"seat {err.seat}"
    text = what.format(**words)
    if err.seat is not None and "{seat}" not in what:
        text = f"seat {err.seat}: {text}"
    if err.rule:
        text += f" ({err.rule})"
    return text + (": " + detail.format(**words) if detail else "")


def english_params(err: IllegalEvent, seat_name: Callable[[int], str] | None = None,
                   card_name: Callable[[Card], str] | None = None) -> dict[str, str]:
    """The parameters in English words: seats as "seat N" (or `seat_name`),
    cards as "8H" (or `card_name`), several cards joined with "or"."""
    name = seat_name or (lambda seat: f"seat {seat}")
    card = card_name or (lambda c: c.text)
    return {key: _word(key, err.key, value, name, card) for key, value in err.params.items()}


def _word(name: str, key: str, value: Param, seat_name: Callable[[int], str],
          card_name: Callable[[Card], str]) -> str:
    if isinstance(value, SeatRef):
        return seat_name(value.seat)
    if isinstance(value, Phase):
        return MOMENTS[value]
    if isinstance(value, Card):
        return card_name(value)
    if isinstance(value, tuple):
        return " or ".join(card_name(c) for c in value)
    if name == "do":  # an action, or the unknown word of a record
        known = key == "wrong_moment" and str(value) in ACTIONS
        return ACTIONS[str(value)] if known else repr(value)
    if name == "kind":
        return KINDS.get(str(value), str(value))
    return str(value)
