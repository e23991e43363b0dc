"""`python -m cli.play`: a game of Toepen in the terminal against the computer.

    python -m cli.play                             # you and 3 computer players, level normal
    python -m cli.play --players 5 --level hard --limit 10 --name Sanne
    python -m cli.play --levels easy,hard --rules '{"dead_man": false}' --seed 7

You sit at seat 0. Every move goes through the engine; the computer players
are asked the way engine/bots/runner.py asks them (you are asked the same way,
windows included). Pick moves by number; in a window (vuile was, check or
believe, super toep) an empty line is silence. "quit", end of input or Ctrl-C
is walking out of the game: it is applied as a forfeit (R16) and the program
ends with status 0. Bad arguments: one line on stderr, exit status 2.
House rules: --rules JSON and/or one flag per option (`--help` lists them).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NoReturn, TextIO

from cli.cli_args import UsageError, add_rule_flags, check_level, flag_values, table_rules
from cli.play_human import HumanPlayer, LineSource, WalkOut
from cli.terminal_render import cards_text, describe, render_slates
from engine import events as ev
from engine.bots import Bot, make_bot
from engine.bots.runner import next_event
from engine.chance import RandomChance
from engine.events import Happening
from engine.game import Game
from engine.record import to_record
from engine.rules import TableRules
from engine.views import public_view, seat_view

HUMAN = 0
DEFAULT_LEVEL = "normal"
DEFAULT_PLAYERS = 4
DEFAULT_PAUSE = 0.6
COMPUTER_NAMES = ("Anna", "Bram", "Cor", "Daan", "Eva", "Floor", "Gijs")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


@dataclass(frozen=True)
class PlayArgs:
    levels: tuple[str, ...]  # the computer players' levels, seats 1, 2, ...
    rules: TableRules
    seed: int
    name: str
    pause: float
    record: str | None

    @property
    def players(self) -> int:
        return len(self.levels) + 1


def _parser() -> _Parser:
    p = _Parser(prog="python -m cli.play", description="Toepen against the computer.")
    p.add_argument("--players", type=int, help=f"players, you included, 2-8 "
                   f"(default {DEFAULT_PLAYERS}, or one more than --levels)")
    p.add_argument("--level", default=DEFAULT_LEVEL,
                   help=f"level of every computer player (default {DEFAULT_LEVEL})")
    p.add_argument("--levels", help="comma-separated level per computer seat, e.g. easy,hard")
    p.add_argument("--seed", type=int, help="seed for the cards (default: a fresh one)")
    p.add_argument("--name", default="Player", help="your name (default Player)")
    p.add_argument("--pause", type=float, default=DEFAULT_PAUSE,
                   help=f"seconds between computer moves (default {DEFAULT_PAUSE})")
    p.add_argument("--record", help="write the game record (toep-replay/1) to this file")
    add_rule_flags(p)
    return p


def _levels(ns: argparse.Namespace) -> tuple[str, ...]:
    if ns.levels is not None:
        levels = tuple(part.strip() for part in ns.levels.split(","))
        if ns.players is not None and ns.players != len(levels) + 1:
            raise UsageError(f"--players {ns.players} needs {ns.players - 1} --levels, "
                             f"got {len(levels)}")
    else:
        players = DEFAULT_PLAYERS if ns.players is None else ns.players
        levels = (ns.level,) * (players - 1)
    if not 2 <= len(levels) + 1 <= 8:
        raise UsageError(f"a table seats 2 to 8 players, not {len(levels) + 1}")
    for level in dict.fromkeys(levels):
        check_level(level)
    return levels


def parse_args(argv: Sequence[str]) -> PlayArgs:
    ns = _parser().parse_args(list(argv))
    levels = _levels(ns)
    rules = table_rules(ns.rules, flag_values(ns), len(levels) + 1)
    if ns.pause < 0:
        raise UsageError("--pause may not be negative")
    name = " ".join(ns.name.split())
    if not name:
        raise UsageError("--name may not be empty")
    seed = random.SystemRandom().randrange(1 << 31) if ns.seed is None else ns.seed
    return PlayArgs(levels, rules, seed, name, ns.pause, ns.record)


class TerminalGame:
    """One game: the engine, the computer players and you, talking to `out`."""

    def __init__(self, args: PlayArgs, stdin: LineSource, out: TextIO) -> None:
        self.args = args
        self.out = out
        self.names = (args.name, *COMPUTER_NAMES[:len(args.levels)])
        self.game = Game(args.rules, self.names, RandomChance(random.Random(args.seed)))
        self.human = HumanPlayer(self.names, stdin, out, self.game.verify)
        self.players: dict[int, Bot] = {HUMAN: self.human}
        for seat, level in enumerate(args.levels, 1):
            self.players[seat] = make_bot(level, args.seed * 16 + seat)

    def say(self, *lines: str) -> None:
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()

    def run(self) -> None:
        self._welcome()
        self.narrate(self.game.opening)
        try:
            self._play()
        except (WalkOut, KeyboardInterrupt):
            self._walk_out()
            return
        self._goodbye()

    def _play(self) -> None:
        while not self.game.over:
            event = next_event(self.game, self.players)
            self.narrate(self.game.apply(event))
            if event.seat != HUMAN:
                self._pause()

    def narrate(self, happenings: Iterable[Happening]) -> None:
        for h in happenings:
            line = describe(h, self.names)
            if line is not None:
                self.say(line)
            if isinstance(h, ev.VuileWasOutcome) and HUMAN in h.checkers:
                self._show_laid_down()
            elif isinstance(h, ev.RoundWon):
                self.say(*render_slates(public_view(self.game), self.names))
            elif (isinstance(h, ev.PlayerOut) and h.seat == HUMAN and h.reason != "forfeit"
                  and not self.game.over):
                self.say("You are out. The computer players play on to the end.")

    def _show_laid_down(self) -> None:
        """R12: only the checkers see the cards of a checked, genuine call."""
        for laid in seat_view(self.game, HUMAN).laid_down[-1:]:
            self.say(f"You saw {self.names[laid.caller]}'s cards: {cards_text(laid.cards)}")

    def _pause(self) -> None:
        # Only so a person can follow the computer's moves; never in tests.
        if self.args.pause > 0 and not self.game.out[HUMAN]:
            time.sleep(self.args.pause)

    def _welcome(self) -> None:
        seats = ", ".join([f"{self.names[0]} (you)"] + [
            f"{name} ({level})" for name, level in zip(self.names[1:], self.args.levels,
                                                       strict=True)])
        rules = self.args.rules
        self.say(f"Toepen: {seats}.", f"Out at {rules.limit} marks. Seed {self.args.seed}. "
                 "Type a number to choose, 'help' for more, 'quit' to walk out.")

    def _walk_out(self) -> None:
        if self.game.out[HUMAN]:
            self.say("Stopped watching: the game ends here.")
        else:
            self.narrate(self.game.apply(ev.act(ev.FORFEIT, HUMAN)))
            self.say("You walked out: that counts as a forfeit (R16). The game ends here.")
        self._save_record()

    def _goodbye(self) -> None:
        winner = self.game.winner
        self.say("", "Game over.", *render_slates(public_view(self.game), self.names))
        if winner == HUMAN:
            self.say("You win. Well played!")
        elif winner is not None:
            self.say(f"{self.names[winner]} wins.")
        self._save_record()

    def _save_record(self) -> None:
        path = self.args.record
        if path is None:
            return
        with open(path, "w", encoding="utf-8") as f:
            json.dump(to_record(self.game, self.args.seed), f, indent=1)
        self.say(f"Record written to {path}.")


def main(argv: Sequence[str] | None = None, stdin: LineSource | None = None,
         stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    err = sys.stderr if stderr is None else stderr
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
    except UsageError as problem:
        print(f"play: error: {problem}".replace("\n", " "), file=err)
        return 2
    game = TerminalGame(args, sys.stdin if stdin is None else stdin,
                        sys.stdout if stdout is None else stdout)
    try:
        game.run()
    except OSError as problem:
        print(f"play: error: {problem}", file=err)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
