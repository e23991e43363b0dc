"""The normal computer player: rules of thumb (see `thumb`).

It keeps its strongest card for the last trick, wins a trick with the lowest
card that wins or throws its lowest card away, toeps with a strong last card
(and bluffs now and then), calls or folds by the stake and its hand, calls a
genuine vuile was (rarely a bluff), checks callers by their record (see `doubt`),
and chooses the dead man's round and the super toep by its hand and slate.
Every choice comes with a hint key, so the hints can explain it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from random import Random

from engine import events as ev
from engine.bots import doubt, reading, thumb
from engine.bots.base import decision_rng
from engine.bots.cardints import to_card
from engine.bots.habits import habits, loose_toeper
from engine.events import Event
from engine.state import Phase
from engine.views import SeatView

log = logging.getLogger(__name__)

BLUFF_VUILE_WAS = 0.03  # of weak hands


@dataclass(frozen=True)
class Choice:
    event: Event | None
    key: str
    params: dict[str, str] = field(default_factory=dict)


def _yes(p: float, rng: Random | None) -> bool:
    """Draw with chance p; without a generator (hints), the likelier answer."""
    return p >= 0.5 if rng is None else rng.random() < p


def choose_play(view: SeatView, rng: Random | None) -> Choice:
    seen = reading.seen_of(view)
    toep = reading.legal_of(view, ev.TOEP)
    if toep is not None:
        chance = thumb.win_chance(seen)
        p = thumb.toep_probability(chance, seen.tricks_left, seen.stake)
        if seen.tricks_left > 1 and thumb.keeper(seen.hand) & 7 < 5:
            p = 0.005
        if _yes(p, rng):
            return Choice(toep, "toep_strong_last",
                          {"card": to_card(thumb.keeper(seen.hand)).text})
    card = thumb.choose_card(seen.hand, seen.table, seen.tricks_left)
    key = thumb.card_reason(seen.hand, seen.table, card)
    params = {"card": to_card(card).text}
    if key == "keep_high_for_last":
        params["keep"] = to_card(thumb.keeper(seen.hand)).text
    return Choice(ev.play(view.seat, to_card(card)), key, params)


def choose_answer(view: SeatView, rng: Random | None) -> Choice:
    seen = reading.seen_of(view)
    chance = thumb.win_chance(seen)
    stake = view.public.stake
    params = {"stake": str(stake), "old": str(stake - 1)}
    if _yes(thumb.call_probability(chance, stake, toeper_looseness(view)), rng):
        return Choice(ev.act(ev.CALL, view.seat), "call_good_odds", params)
    return Choice(ev.act(ev.FOLD, view.seat), "fold_bad_odds", params)


def toeper_looseness(view: SeatView) -> float:
    """How much of the present toeper's toeping its cards do not explain."""
    toeper = view.public.last_toeper
    return 0.0 if toeper is None else loose_toeper(habits(view)[toeper])


def choose_vuile_was(view: SeatView, rng: Random | None) -> Choice:
    call = reading.legal_of(view, ev.VUILE_WAS)
    if call is None:
        return Choice(None, "no_vuile_was")
    if reading.genuine(view):
        return Choice(call, "vuile_was_genuine")
    if reading.weak_hand(view) and rng is not None and rng.random() < BLUFF_VUILE_WAS:
        return Choice(call, "vuile_was_bluff")
    return Choice(None, "no_vuile_was")


def choose_check(view: SeatView, rng: Random | None, with_record: bool = True) -> Choice:
    """Check at the table's deterrent rate, and at once a call that is more
    likely a bluff than not (see `doubt`)."""
    caller = view.public.caller
    params = {"seat": str(caller)}
    if view.public.checkers:
        return Choice(None, "believe_already_checked", params)  # one check is enough
    if not _yes(doubt.check_chance(view, with_record), rng):
        return Choice(None, "believe", params)
    event = reading.legal_of(view, ev.CHECK)
    if with_record and doubt.call_bluff_chance(view, False) < doubt.SURE <= \
            doubt.call_bluff_chance(view, True):
        return Choice(event, "check_frequent_caller", params)
    return Choice(event, "check_suspicious", params)


def choose_dead_man(view: SeatView, rng: Random | None) -> Choice:
    chance = reading.dead_man_strength(view)
    # Playing costs 2 on a loss, sitting out 1: play when a win is about as likely.
    if chance >= 0.45:
        return Choice(ev.act(ev.PLAY_IN, view.seat), "play_in")
    return Choice(ev.act(ev.SIT_OUT, view.seat), "sit_out")


def choose_super(view: SeatView, rng: Random | None) -> Choice:
    public = view.public
    me = public.marks[view.seat]
    other = max((public.marks[s] for s in range(public.seats)
                 if s != view.seat and not public.out[s]), default=me)
    # Behind on marks, a coin flip for the game is better than playing on.
    if me > other:
        return Choice(ev.act(ev.SUPER_YES, view.seat), "super_yes")
    return Choice(None, "super_no")


def normal_choice(view: SeatView, rng: Random | None) -> Choice:
    phase = view.public.phase
    if phase is Phase.PLAY:
        return choose_play(view, rng)
    if phase is Phase.TOEP_ANSWER:
        return choose_answer(view, rng)
    if phase is Phase.WINDOW:
        return choose_vuile_was(view, rng)
    if phase is Phase.CHECK:
        return choose_check(view, rng)
    if phase is Phase.DEAD_MAN_CHOICE:
        return choose_dead_man(view, rng)
    return choose_super(view, rng)


class NormalBot:
    level = "normal"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def decide(self, view: SeatView) -> Event | None:
        if not view.legal:
            return None
        return normal_choice(view, decision_rng(self.seed, view)).event
