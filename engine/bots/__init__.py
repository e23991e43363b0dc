"""Computer players. `make_bot(level, seed)` builds one; `LEVELS` names them."""

from __future__ import annotations

from importlib import import_module

from engine.bots.base import Bot, RandomBot

# level -> "module:class"; each class takes the seed as its only argument.
_CLASSES = {
    "random": "engine.bots.base:RandomBot",
    "easy": "engine.bots.easy:EasyBot",
    "normal": "engine.bots.normal:NormalBot",
    "hard": "engine.bots.hard:HardBot",
}
LEVELS = tuple(_CLASSES)
PLAYER_LEVELS = ("easy", "normal", "hard")  # what a table offers its players


def make_bot(level: str, seed: int = 0) -> Bot:
    path = _CLASSES.get(level)
    if path is None:
        raise ValueError(f"unknown computer level {level!r}: choose one of {', '.join(LEVELS)}")
    module, name = path.split(":")
    cls = getattr(import_module(module), name)
    bot: Bot = cls(seed)
    return bot


__all__ = ["LEVELS", "PLAYER_LEVELS", "Bot", "RandomBot", "make_bot"]
