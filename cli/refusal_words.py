"""The terminal game's words for a refusal: to the person, by name
("you must follow suit: play 8H or 9H (R4)")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.errors import IllegalEvent
from engine.refusal_words import english_params

YOU: Mapping[str, str] = {
    "game_over": "the game is over",
    "no_such_seat": "there is no seat {number}",
    "seat_out": "{who} is out of the game",
    "not_in_round": "you are not in this round",
    "not_your_turn": "it is not your turn: waiting for {waiting}",
    "wrong_moment": "you cannot {do} now: {moment}",
    "must_follow_suit": "you must follow suit: play {cards}",
    "not_in_hand": "{card} is not in your hand",
    "answer_toep_first": "answer the toep first: call or fold",
    "last_toeper": "you made the last toep; someone else must toep first",
    "no_toep_dead_man": "nobody may toep in a dead man's round",
    "no_toep_super": "nobody may toep in a super toep",
    "max_stake": "the stake may not go above {max_stake}",
    "toep_past_limit": "this toep could put you past the limit ({marks} + {stake} > {limit})",
    "forced_call": "you must call this toep; your call is made for you",
    "vuile_was_barred": "you were caught bluffing and may not call vuile was again this round",
    "vuile_was_no_cards": "the stock and the discard pile hold too few cards for a new hand",
    "vuile_was_genuine_only": "only a genuine vuile was may be called in a {kind}",
    "vuile_was_pending": "a vuile was call is being answered: wait for it",
    "not_checker_turn": "it is {waiting}'s turn to check or believe",
    "no_choice": "you have no choice: one more mark would put you out, so you play",
    "already_chose": "you already chose",
    "dead_man_plays": "a dead man always plays",
    "already_answered": "you already answered",
    "unknown_event": "unknown action {do}",
    "missing_card": "a play needs a card",
    "missing_seat": "this action needs a seat",
}


def refusal_text(err: IllegalEvent, names: Sequence[str]) -> str:
    """The refusal said to the person, other seats by their names, with the rule."""
    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    text = YOU[err.key].format(**english_params(err, seat_name=name))
    return f"{text} ({err.rule})" if err.rule else text
