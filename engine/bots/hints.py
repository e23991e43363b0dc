"""Hints for a human player: what the computer would do, and why.

`hint(view)` answers with a `Hint`: the event it suggests (None: stay silent
in a window), a reason key and the parameters of its text. The English texts
are in `HINT_TEXTS`; the Discord bot translates the same keys to Dutch.
Cards come from the normal rules of thumb, answers to a toep from the hard
player's search (a small budget, so a hint is quick), the rest from the
normal player's reasoning.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from engine import events as ev
from engine.bots import hard, normal
from engine.bots.base import decision_rng
from engine.bots.hard import HardBot
from engine.events import Event
from engine.state import Phase
from engine.views import SeatView

log = logging.getLogger(__name__)

HINT_SAMPLES = 24

HINT_TEXTS: dict[str, str] = {
    "only_card": "play {card}: it is the only card you may play",
    "keep_high_for_last": "play {card} and keep your {keep} for the last trick",
    "win_cheaply": "win this trick cheaply with {card}",
    "dump_lowest": "you cannot win this trick: throw away your lowest card, {card}",
    "toep_strong_last": "toep: your {card} is strong for the last trick",
    "call_good_odds": "call: your chance of winning is worth the stake of {stake}",
    "call_serial_toeper": "call: seat {seat} toeps before their first card, which cards "
                          "seldom justify; folding hands them the round",
    "fold_bad_odds": "fold: calling risks {stake} marks at poor odds; folding costs {old}",
    "vuile_was_genuine": "call vuile was: your hand is genuine, so nobody can catch you",
    "vuile_was_bluff": "call vuile was: a bluff, but this hand will hardly win a round",
    "no_vuile_was": "keep your cards: no vuile was",
    "believe": "believe seat {seat}: a genuine vuile was is likely, and a wrong check "
               "costs you a mark",
    "believe_already_checked": "believe seat {seat}: someone has checked already",
    "check_suspicious": "check seat {seat}: a genuine vuile was is unlikely with the cards "
                        "you hold",
    "check_frequent_caller": "check seat {seat}: they call vuile was far more often than "
                             "genuine hands come",
    "play_in": "play this dead man's round: your hand is strong enough",
    "sit_out": "sit out: 1 mark now is cheaper than likely losing 2",
    "super_yes": "say yes to the super toep: you are behind on marks",
    "super_no": "say no to the super toep: you are not behind on marks",
    "wait": "nothing to do: it is not your turn",
}


@dataclass(frozen=True)
class Hint:
    event: Event | None
    key: str
    params: dict[str, str] = field(default_factory=dict)

    def text(self) -> str:
        return HINT_TEXTS[self.key].format(**self.params)


def hint(view: SeatView) -> Hint:
    """The suggested move for this seat now, with its reason."""
    if not view.legal:
        return Hint(None, "wait")
    phase = view.public.phase
    if phase is Phase.TOEP_ANSWER:
        return _answer_hint(view)
    choice = normal.normal_choice(view, None)
    return Hint(choice.event, choice.key, dict(choice.params))


def _answer_hint(view: SeatView) -> Hint:
    stake = view.public.stake
    params = {"stake": str(stake), "old": str(stake - 1)}
    rng = decision_rng(0, view)
    gain = HardBot(0, HINT_SAMPLES).call_gain(view, rng)
    call = ev.act(ev.CALL, view.seat)
    if gain > 0:
        return Hint(call, "call_good_odds", params)
    if hard.calls_serial(gain, view):
        return Hint(call, "call_serial_toeper", {"seat": str(view.public.last_toeper)})
    return Hint(ev.act(ev.FOLD, view.seat), "fold_bad_odds", params)
