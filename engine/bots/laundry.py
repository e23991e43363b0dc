"""What this round's vuile was window says of the hidden hands (R12).

- A player who did not call kept its hand: most likely not a genuine vuile
  was, since every computer level calls a genuine hand. A guess that gives a
  quiet seat a genuine hand (its cards now and the ones it played) is kept
  `QUIET_GENUINE` as often.
- A believed caller threw its old hand away: most likely a genuine one, so
  four low cards (V7: or three and a 7) went to the discards, and the hands
  still in play hold fewer of them. A guess is weighed by the chance that
  the cards it leaves out of every hand (the stock and the discards) held
  such a hand: genuine or, at the caller's bluff rate, not. A call checked
  and shown genuine counts as surely genuine (unless this seat checked it:
  then it saw the cards, which are placed already).
- A caught bluffer's cards lie open and are known already.

Calls before a redeal (V8) are left out: their old hands went back into the
deck. So are this seat's own calls (it knows its old hands, though the view
does not keep them).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from math import comb

from engine import events as ev
from engine.bots.cardints import SEVEN
from engine.bots.habits import bluff_rate, habits
from engine.events import Event
from engine.views import SeatView

log = logging.getLogger(__name__)

Hands = dict[int, list[int]]

QUIET_GENUINE = 0.1  # a computer player always calls a genuine hand; a person may not
SURE = 0.001  # the least weight of a guess under a call shown genuine


@dataclass(frozen=True)
class Window:
    quiet: tuple[int, ...]  # seats whose hands are guessed: they kept them
    old_hands: tuple[float, ...]  # per believed call: the caller's bluff rate (0: shown genuine)
    seven_counts: bool

    def __bool__(self) -> bool:
        return bool(self.quiet or self.old_hands)


def window_events(view: SeatView) -> list[Event]:
    """This round's events up to its window's close (the choices of a dead
    man's round, the calls and their answers), if the window has closed."""
    history = view.public.history
    end = max((i for i, e in enumerate(history) if e.do == ev.CLOSE_WINDOW), default=-1)
    if end < 0:
        return []
    start = end
    window = (ev.VUILE_WAS, ev.CHECK, ev.BELIEVE, ev.PLAY_IN, ev.SIT_OUT, ev.FORFEIT)
    while start > 0 and history[start - 1].do in window:
        start -= 1
    return list(history[start:end])


def _calls(view: SeatView) -> list[tuple[int, bool, bool]]:
    """Per call since the last redeal: caller, checked, checked by this seat."""
    calls: list[tuple[int, bool, bool]] = []
    for event in window_events(view):
        if event.do == ev.VUILE_WAS and event.seat is not None:
            calls.append((event.seat, False, False))
        elif event.do == ev.CHECK and calls:
            caller, _, mine = calls[-1]
            calls[-1] = (caller, True, mine or event.seat == view.seat)
    public = view.public
    last = {caller: i for i, (caller, _, _) in enumerate(calls)}
    out: list[tuple[int, bool, bool]] = []
    row = 0  # calls in a row that brought new cards (R12, V8)
    for i, call in enumerate(calls):
        caller, checked, _ = call
        # A caught bluffer is barred for the rest of the round: its last call.
        if checked and public.barred[caller] and last[caller] == i:
            row = 0
        else:
            row += 1
            if row >= public.rules.redeal_after:
                out, row = [], 0  # the round was dealt again
                continue
        out.append(call)
    return out


def read_window(view: SeatView, hidden: dict[int, int]) -> Window:
    """The quiet seats among `hidden` and the old hands of the believed calls."""
    public = view.public
    records = habits(view)
    old: list[float] = []
    for caller, checked, mine in _calls(view):
        if caller == view.seat or mine:
            continue
        if checked and public.barred[caller]:
            continue  # caught: its cards are open
        old.append(0.0 if checked else bluff_rate(records[caller]))
    quiet = tuple(s for s in hidden if not public.barred[s])
    return Window(quiet, tuple(old), public.rules.seven_counts)


def genuine_ints(cards: list[int], seven_counts: bool) -> bool:
    """R12 on card ints: all low (V7: but one 7); eight cards: all but one."""
    need = len(cards) if len(cards) <= 4 else len(cards) - 1
    lows = sum(1 for c in cards if c & 7 < SEVEN)
    seven = any(c & 7 == SEVEN for c in cards)
    return lows >= need or (seven_counts and seven and lows >= need - 1)


def genuine_share(rest: list[int], seven_counts: bool) -> float:
    """The share of 4-card hands from `rest` that are a genuine vuile was."""
    if len(rest) < 4:
        return 0.0
    lows = sum(1 for c in rest if c & 7 < SEVEN)
    good = comb(lows, 4)
    if seven_counts:
        good += comb(lows, 3) * sum(1 for c in rest if c & 7 == SEVEN)
    return good / comb(len(rest), 4)


def window_likelihood(window: Window, hands: Hands, played: dict[int, list[int]],
                      rest: list[int]) -> float:
    """The chance (up to a constant) of the window's calls and silences under
    `hands`; `played`: each seat's cards played this round; `rest`: the
    pool's cards in no guessed hand."""
    weight = 1.0
    for s in window.quiet:
        if genuine_ints([*hands.get(s, []), *played.get(s, [])], window.seven_counts):
            weight *= QUIET_GENUINE
    if window.old_hands:
        g = genuine_share(rest, window.seven_counts)
        for bluff in window.old_hands:
            weight *= max(SURE, g + (1.0 - g) * bluff)
    return weight
