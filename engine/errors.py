"""The one error a refused event raises, and the error of a bad record."""

from __future__ import annotations

from collections.abc import Mapping

# English texts of the refusal keys. The bot translates the same keys from
# locales/; the engine's own text is for records, logs and the terminal game.
MESSAGES: dict[str, str] = {
    "game_over": "the game is over",
    "no_such_seat": "there is no seat {number}",
    "seat_out": "seat {number} is out of the game",
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
    "not_checker_turn": "it is seat {waiting}'s turn to check or believe",
    "no_choice": "you have no choice: one more mark would put you out, so you play",
    "already_chose": "you already chose",
    "dead_man_plays": "a dead man always plays",
    "already_answered": "you already answered",
    "unknown_event": "unknown event {do!r}",
    "bad_card": "{card!r} is not a card",
    "missing_card": "a play needs a card",
    "missing_seat": "this event needs a seat",
}

MOMENTS: dict[str, str] = {
    "super_question": "the super toep question is open",
    "dead_man_choice": "players are choosing to play or sit out",
    "window": "the vuile was window is open",
    "check": "a vuile was call is being answered",
    "play": "it is time to play a card",
    "toep_answer": "a toep is being answered",
    "over": "the game is over",
}


class IllegalEvent(Exception):
    """A refused event. Nothing changed. `rule` names the rule (R4, V2 ...),
    `key` and `params` the message for the bot's locales."""

    def __init__(self, rule: str, key: str, seat: int | None = None,
                 **params: object) -> None:
        self.rule = rule
        self.key = key
        self.seat = seat
        self.params: Mapping[str, object] = params
        # Its own text names the rule and the key only: a traceback in a log
        # must not show the cards of a refusal (a hand is hidden). The
        # English with its parameters is `message()`.
        super().__init__(f"{rule}: {key}" if rule else key)

    def reason(self) -> str:
        """The English reason, without the rule id."""
        return MESSAGES[self.key].format(**self.params)

    def message(self) -> str:
        """"R4: you must follow suit: play 8H or 9H"."""
        prefix = f"{self.rule}: " if self.rule else ""
        return prefix + self.reason()


class RecordError(ValueError):
    """A game record, or a deal in it, that cannot be played."""
