"""The steps that lead to a click's first answer run ahead of the event loop's queue.

Discord drops a click whose first answer does not arrive within 3 seconds. Each
turn of asyncio's event loop runs every callback that was ready when it began,
and a new task's first step waits for the next turn. After the turn in which the
gateway's task read a click, two more passed before its answer was on the wire:
one for discord.py's listener task, one for aiohttp's task that writes the
request's body (on Python 3.12 and later aiohttp starts that one at once; on
3.11, ours, it waits a turn). Past capacity a turn is as long as the queue: at
800 tables on one process up to 1-2 s.

`jump_the_queue` moves a task's first step from the back of the loop's queue to
its front: it runs in the same turn, right after the step that made it. Two kinds
of task jump: the listener of an interaction (`ToepBot._schedule_event`), and,
through the loop's task factory (`install`), the command tree's invoker and
aiohttp's writer of a request's body. None of them adds work: each runs what would
have run one turn later, and what it pushes out runs first in the next turn.

Only first steps jump, as Python 3.12's eager tasks start at once. A later step
is a wake-up among the other callbacks of the future it waited for, and asyncio
relies on those running in the order they were added. When every step of these
tasks jumped (an experiment, not kept), a task that had just connected a socket
ran before asyncio let go of that socket's writer, and the writer fired for
ever. Sockets are not read ahead of the queue either, for the same reason.
"""

from __future__ import annotations

import asyncio
import collections
import weakref
from collections.abc import Callable, Coroutine, Generator
from typing import Any

# Coroutines (by qualified name) whose tasks start in the turn that makes them.
JUMPERS = frozenset({
    "ClientRequest.write_bytes",  # aiohttp: a request's body, the answer itself
    "CommandTree._from_interaction.<locals>.wrapper",  # discord.py: a slash command
})


class _Front:
    """How many steps that jumped still wait at the front of one loop's queue,
    in the order they jumped: a click read after another still runs after it."""

    def __init__(self) -> None:
        self.waiting = 0

    def run(self, callback: Callable[..., object], *args: object) -> None:
        self.waiting -= 1
        callback(*args)


_fronts: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Front] = (
    weakref.WeakKeyDictionary())


def jump_the_queue(task: asyncio.Future[Any]) -> bool:
    """Run a just-made `task`'s first step before everything else that waits in
    its loop's queue, after the steps that jumped before it. False (and nothing
    changed) when that step is not the last thing queued, or the loop keeps no
    queue of asyncio's kind."""
    loop = task.get_loop()
    ready = getattr(loop, "_ready", None)
    if not isinstance(ready, collections.deque) or not ready:
        return False
    step = ready[-1]
    if not isinstance(step, asyncio.Handle) or getattr(
            getattr(step, "_callback", None), "__self__", None) is not task:
        return False
    front = _fronts.get(loop)
    if front is None:
        front = _fronts[loop] = _Front()
    # Not moved but queued anew in front, the original cancelled (the loop skips
    # it): other threads queue their callbacks at the back at any moment
    # (`call_soon_threadsafe`, aiosqlite's results), and taking the last one off
    # could take theirs and lose it. Only this thread adds anywhere but the back.
    ahead = asyncio.Handle(front.run, (step._callback, *step._args),  # type: ignore[attr-defined]
                           loop, context=step._context)  # type: ignore[attr-defined]
    step.cancel()
    ready.insert(min(front.waiting, len(ready)), ahead)
    front.waiting += 1
    return True


def _jumps(coro: Coroutine[Any, Any, Any] | Generator[Any, None, Any]) -> bool:
    return getattr(coro, "__qualname__", None) in JUMPERS


def install(loop: asyncio.AbstractEventLoop) -> Callable[[], None]:
    """Make the JUMPERS' tasks on `loop` jump the queue; returns what gives the
    loop back the task factory it had before."""
    previous = loop.get_task_factory()

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Future[Any]:
        if previous is not None:
            task = previous(loop, coro, **kwargs)
        else:
            task = asyncio.Task(coro, loop=loop, **kwargs)
        if _jumps(coro):
            jump_the_queue(task)
        return task

    loop.set_task_factory(factory)
    return lambda: loop.set_task_factory(previous)
