"""The human seat of the terminal game, as a player the bot runner can ask.

`HumanPlayer.decide` shows the table as the seat sees it and a numbered menu
of the seat's legal events, and reads answers until one is good. In a window
an empty line is silence (R17). A card or word that is not on the menu is put
to the engine, so a refusal names its rule ("R4: you must follow suit ...").
End of input or "quit" raises `WalkOut`: the game treats it as walking out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TextIO

from cli.refusal_words import refusal_text
from cli.terminal_render import event_label, question, render_status, silence_label
from engine import events as ev
from engine.cards import CardError, parse_card
from engine.errors import IllegalEvent
from engine.events import Event
from engine.views import SeatView

QUIT_WORDS = frozenset({"q", "quit", "exit"})
HELP_WORDS = frozenset({"?", "h", "help"})
EVENT_WORDS = {
    "toep": ev.TOEP, "call": ev.CALL, "fold": ev.FOLD, "vuile was": ev.VUILE_WAS,
    "vuile_was": ev.VUILE_WAS, "vw": ev.VUILE_WAS, "check": ev.CHECK, "believe": ev.BELIEVE,
    "play in": ev.PLAY_IN, "play_in": ev.PLAY_IN, "sit out": ev.SIT_OUT,
    "sit_out": ev.SIT_OUT, "yes": ev.SUPER_YES, "no": ev.SUPER_NO,
}
HELP_TEXT = ("Type the number of a choice; or a card (10H) or a word (toep, call, fold, "
             "vuile was, check, believe, play in, sit out, yes, no). In a window, enter "
             "passes. 'quit' (or end of input) walks out of the game: a forfeit (R16).")

NOTHING_TO_CALL = "You cannot call vuile was now: you stay silent."


class LineSource(Protocol):
    def readline(self) -> str: ...


class WalkOut(Exception):
    """The human left: end of input or 'quit'."""


@dataclass(frozen=True)
class Retry:
    """An answer that is no choice: say why and ask again."""

    message: str


Answer = Event | None | Retry


class HumanPlayer:
    level = "human"

    def __init__(self, names: Sequence[str], stdin: LineSource, out: TextIO,
                 verify: Callable[[Event], None]) -> None:
        self.names = names
        self.stdin = stdin
        self.out = out
        self.verify = verify

    def decide(self, view: SeatView) -> Event | None:
        self._say(*render_status(view, self.names))
        options = menu(view)
        if view.public.window and not options:
            # R12 waits for everyone in the window; with no call to make there
            # is nothing to ask (the computers learn nothing from it here).
            self._say(NOTHING_TO_CALL)
            return None
        while True:
            self._say(question(view, self.names), menu_line(options, view))
            self.out.write("> ")
            self.out.flush()
            line = self.stdin.readline()
            if not line:
                self._say("")
                raise WalkOut("end of input")
            answer = self.interpret(line.strip(), options, view)
            if not isinstance(answer, Retry):
                return answer
            self._say(answer.message)

    def interpret(self, text: str, options: Sequence[Event], view: SeatView) -> Answer:
        word = " ".join(text.lower().split())
        if word in QUIT_WORDS:
            raise WalkOut("quit")
        if word in HELP_WORDS:
            return Retry(HELP_TEXT)
        window = view.public.window
        if not word or (window and word == silence_label(view.public)):
            return None if window else Retry(_pick_hint(options, window))
        if word.isdigit():
            pick = int(word)
            if 1 <= pick <= len(options):
                return options[pick - 1]
            return Retry(f"{pick} is not on the menu. {_pick_hint(options, window)}")
        candidate = _event_of(word, view.seat)
        if candidate is None:
            hint = _pick_hint(options, window)
            return Retry(f"{text!r} is not a choice. {hint} ('help' explains)")
        if candidate in options:
            return candidate
        return self._engine_says(candidate, options, window)

    def _engine_says(self, candidate: Event, options: Sequence[Event],
                     window: bool) -> Answer:
        """A move off the menu: the engine refuses it with its rule."""
        try:
            self.verify(candidate)
        except IllegalEvent as refusal:
            return Retry(f"Not allowed: {refusal_text(refusal, self.names)}. "
                         f"{_pick_hint(options, window)}")
        return candidate

    def _say(self, *lines: str) -> None:
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()


def menu(view: SeatView) -> list[Event]:
    """The seat's legal events: its cards in order, then the rest."""
    plays = sorted((e for e in view.legal if e.card is not None),
                   key=lambda e: e.card.index if e.card else 0)
    return plays + [e for e in view.legal if e.card is None]


def menu_line(options: Sequence[Event], view: SeatView) -> str:
    items = [f"{i}) {event_label(e, view.public)}" for i, e in enumerate(options, 1)]
    if view.public.window:
        items.append(f"enter) {silence_label(view.public)}")
    return "   ".join(items)


def _pick_hint(options: Sequence[Event], window: bool) -> str:
    pick = "Type 1" if len(options) == 1 else f"Type a number from 1 to {len(options)}"
    return pick + (", or press enter to stay silent." if window else ".")


def _event_of(word: str, seat: int) -> Event | None:
    do = EVENT_WORDS.get(word)
    if do is not None:
        return ev.act(do, seat)
    text = word.removeprefix("play ").strip()
    try:
        return ev.play(seat, parse_card(text))
    except CardError:
        return None
