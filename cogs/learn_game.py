"""A practice game (`/toep learn`): one person at seat 0 against computer
players, driven straight through the engine. No table, no clock, no database:
it lives in memory and is gone after a restart.

`Lesson.advance()` lets the computer players act until the person is asked
something (a turn, a check, a super toep question, or an open vuile was
window they have not passed) or the game is over. Windows work as at a live
table: the person is asked in every window, also when they cannot call (R12),
and may call vuile was or pass; once they passed, the computer players are
asked in turn and silence from all closes the window (R17).
"""

from __future__ import annotations

import logging
import random
from collections import deque
from dataclasses import dataclass, field

from engine import events as ev
from engine.bots import Bot, make_bot
from engine.bots.hints import Hint, hint
from engine.bots.runner import computer_event
from engine.cards import Card
from engine.chance import RandomChance
from engine.events import Event, Happening
from engine.game import Game
from engine.rules import TableRules
from engine.state import Phase
from engine.views import SeatView, seat_view
from tables.snapshot import decision_stamp

log = logging.getLogger(__name__)

ME = 0  # the person's seat
COMPUTERS = 3
LEVEL = "normal"
RULES = TableRules(limit=10)  # a shorter game than the standard 15
RECENT = 8
MAX_STEPS = 10_000

# Rules explained the first time they come up, in this order.
TOPICS = ("tricks", "toep", "toep_answer", "vuile_was", "check", "marks", "jack_finish",
          "dead_man", "super_toep", "out")


class LessonRefusal(Exception):
    """A click that does not fit the moment (its stamp, or a pass out of a window)."""


@dataclass
class Lesson:
    user_id: int
    number: int  # which practice game of this cog, so an old panel is recognised
    game: Game
    bots: dict[int, Bot]
    passed: bool = False  # the person passed in the open vuile was window
    recent: deque[Happening] = field(default_factory=lambda: deque(maxlen=RECENT))
    explained: set[str] = field(default_factory=set)
    fresh: list[str] = field(default_factory=list)  # topics to explain on the next panel

    @classmethod
    def new(cls, user_id: int, number: int, name: str, computer_names: list[str],
            seed: int | None = None) -> Lesson:
        rng = random.Random(seed)
        players = [name, *computer_names[:COMPUTERS]]
        game = Game(RULES, players, RandomChance(random.Random(rng.getrandbits(64))))
        bots = {s: make_bot(LEVEL, rng.getrandbits(32)) for s in range(1, len(players))}
        lesson = cls(user_id, number, game, bots)
        lesson._note(game.opening)
        lesson.advance()
        return lesson

    # --- state -------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def stamp(self) -> str:
        return decision_stamp(self.game)

    def view(self) -> SeatView:
        return seat_view(self.game, ME)

    def asked(self) -> bool:
        """Whether the game waits for the person now."""
        game = self.game
        if game.over:
            return False
        waiting = game.waiting()
        if ME not in waiting.seats:
            return False
        return not (game.phase is Phase.WINDOW and self.passed)

    def hint(self) -> Hint | None:
        if not self.asked():
            return None
        found = hint(self.view())
        if found.key == "wait" and self.game.phase is Phase.WINDOW:
            # Asked in the window without a call to make (R12: everyone in the
            # round is asked): the advice is to stay silent.
            return Hint(None, "no_vuile_was")
        return None if found.key == "wait" else found

    # --- moves -------------------------------------------------------------------------

    def act(self, verb: str, card: Card | None, stamp: str) -> None:
        """The person's click; IllegalEvent (from the engine) or LessonRefusal."""
        if stamp != self.stamp or not self.asked():
            raise LessonRefusal("moment_passed")
        if verb == "pass":
            if self.game.phase is not Phase.WINDOW:
                raise LessonRefusal("nothing_to_pass")
            self.passed = True
        else:
            event = ev.play(ME, card) if verb == ev.PLAY and card is not None \
                else ev.act(verb, ME)
            self.game.verify(event)
            self._apply(event)
        self.advance()

    def advance(self) -> None:
        """Computer players act until the person is asked or the game is over."""
        game = self.game
        for _ in range(MAX_STEPS):
            if game.over or self.asked():
                self._topics_now()
                return
            self._apply(self._computer_event())
        raise RuntimeError("the practice game did not come back to the person")

    def _computer_event(self) -> Event:
        return computer_event(self.game, self.bots, ME)

    def _apply(self, event: Event) -> None:
        happenings = self.game.apply(event)
        self.passed = False
        self._note(happenings)

    # --- rules the first time ------------------------------------------------------------

    def _note(self, happenings: tuple[Happening, ...]) -> None:
        self.recent.extend(happenings)
        for h in happenings:
            if isinstance(h, ev.Toeped):
                self._topic("toep")
            elif isinstance(h, ev.VuileWasCalled):
                self._topic("vuile_was")
            elif isinstance(h, ev.MarksTaken):
                self._topic("marks")
            elif isinstance(h, ev.RoundWon) and h.jack_finish:
                self._topic("jack_finish")
            elif isinstance(h, ev.DeadMansRound):
                self._topic("dead_man")
            elif isinstance(h, ev.SuperToepAsked):
                self._topic("super_toep")
            elif isinstance(h, ev.PlayerOut):
                self._topic("out")

    def _topics_now(self) -> None:
        if not self.asked():
            return
        view = self.view()
        legal = {e.do for e in view.legal}
        phase = self.game.phase
        if phase is Phase.PLAY:
            self._topic("tricks")
            if ev.TOEP in legal:
                self._topic("toep")
        elif phase is Phase.TOEP_ANSWER:
            self._topic("toep_answer")
        elif phase is Phase.WINDOW and ev.VUILE_WAS in legal:
            self._topic("vuile_was")
        elif phase is Phase.CHECK:
            self._topic("check")
        elif phase is Phase.DEAD_MAN_CHOICE:
            self._topic("dead_man")
        elif phase is Phase.SUPER_QUESTION:
            self._topic("super_toep")

    def _topic(self, topic: str) -> None:
        if topic not in self.explained:
            self.explained.add(topic)
            self.fresh.append(topic)

    def take_fresh(self) -> list[str]:
        """The topics to explain now (each once per game)."""
        fresh, self.fresh = self.fresh, []
        return sorted(fresh, key=TOPICS.index)



