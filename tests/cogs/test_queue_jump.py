"""The steps toward a click's first answer jump the event loop's queue
(cogs/queue_jump.py): against a real aiohttp client and a server in a thread,
which sees the request while the loop's queue is not yet through."""

from __future__ import annotations

import asyncio
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import aiohttp
from aiohttp.client_reqrep import ClientRequest
from discord.app_commands import CommandTree

from cogs.queue_jump import JUMPERS, install, jump_the_queue

QUEUED = 20  # callbacks waiting in the loop's queue when the request is made
BUSY = 0.01  # seconds each of them holds the loop (a sleep: the server's thread runs)


def _queue_work(done: list[str], count: int = QUEUED, pause: float = 0.0) -> None:
    """`count` callbacks at the back of the running loop's queue, each noting
    itself in `done` once it has held the loop for `pause` seconds."""
    loop = asyncio.get_running_loop()

    def work() -> None:
        time.sleep(pause)
        done.append("queued")

    for _ in range(count):
        loop.call_soon(work)


async def _noted(done: list[str], what: str) -> None:
    done.append(what)


async def test_tasks_that_jump_run_before_what_was_queued_in_their_own_order() -> None:
    done: list[str] = []
    _queue_work(done, count=3)
    loop = asyncio.get_running_loop()
    first = loop.create_task(_noted(done, "first"))
    assert jump_the_queue(first)
    second = loop.create_task(_noted(done, "second"))  # waits its turn
    _queue_work(done, count=1)
    assert not jump_the_queue(second)  # its step is no longer the last queued
    third = loop.create_task(_noted(done, "third"))
    assert jump_the_queue(third)
    await asyncio.gather(first, second, third)
    await asyncio.sleep(0)
    # A click read after another is still answered after it.
    assert done == ["first", "third", "queued", "queued", "queued", "second", "queued"]


async def test_a_task_that_does_not_jump_waits_its_turn() -> None:
    done: list[str] = []
    _queue_work(done, count=3)
    await asyncio.get_running_loop().create_task(_noted(done, "task"))
    assert done == ["queued"] * 3 + ["task"]


async def test_a_task_whose_step_is_not_last_in_the_queue_stays_where_it_is() -> None:
    done: list[str] = []
    task = asyncio.get_running_loop().create_task(_noted(done, "task"))
    _queue_work(done, count=3)  # queued after the task's first step
    assert not jump_the_queue(task)
    await task
    await asyncio.sleep(0)
    assert done == ["task"] + ["queued"] * 3


@contextmanager
def _http_server(on_body: Callable[[], None]) -> Iterator[str]:
    """A keep-alive HTTP/1.1 server in a thread, which calls `on_body` the moment
    a request's body has arrived and answers 200; yields its URL."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def serve() -> None:
        connection, _ = listener.accept()
        with connection:
            pending = b""
            while True:
                chunk = connection.recv(65536)
                if not chunk:
                    return
                pending += chunk
                while b"\r\n\r\n" in pending:
                    head, rest = pending.split(b"\r\n\r\n", 1)
                    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                                   if line.lower().startswith(b"content-length:")), 0)
                    if len(rest) < length:
                        break
                    on_body()
                    pending = rest[length:]
                    connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/interactions/1/token/callback"
    finally:
        listener.close()
        thread.join(timeout=5)


async def _queued_done_when_the_answer_arrives() -> int:
    """How many of QUEUED busy callbacks had run when the server got a request
    made behind them (on a connection already open, as the bot's are)."""
    done: list[str] = []
    seen: list[int] = []
    with _http_server(lambda: seen.append(len(done))) as url:
        async with aiohttp.ClientSession() as session:
            async with session.post(url, data=b'{"type": 6}'):
                pass
            _queue_work(done, pause=BUSY)
            async with session.post(url, data=b'{"type": 6}'):
                pass
    return seen[-1]


async def test_a_request_body_is_written_before_the_queued_work_runs() -> None:
    loop = asyncio.get_running_loop()
    undo = install(loop)
    try:
        assert await _queued_done_when_the_answer_arrives() < QUEUED // 2
    finally:
        undo()
    assert loop.get_task_factory() is None  # given back


async def test_without_it_the_request_waits_for_the_whole_queue() -> None:
    # What the module is for: on Python 3.11 aiohttp writes a body a turn later.
    assert await _queued_done_when_the_answer_arrives() == QUEUED


async def test_a_task_factory_already_there_still_makes_the_tasks() -> None:
    loop = asyncio.get_running_loop()
    made: list[str] = []

    def previous(loop: asyncio.AbstractEventLoop, coro: object, **kwargs: object) -> object:
        made.append(getattr(coro, "__qualname__", "?"))
        return asyncio.Task(coro, loop=loop, **kwargs)  # type: ignore[arg-type]

    loop.set_task_factory(previous)  # type: ignore[arg-type]
    try:
        undo = install(loop)
        await loop.create_task(_noted([], "task"))
        undo()
        assert loop.get_task_factory() is previous
    finally:
        loop.set_task_factory(None)
    assert made == ["_noted"]


async def test_a_callback_another_thread_queues_meanwhile_is_never_lost() -> None:
    # aiosqlite's thread hands its results to the loop this way: one lost was a
    # database transaction that never ended, and every table waiting for it.
    loop = asyncio.get_running_loop()
    sent, arrived = 20_000, [0]
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # the other thread gets in between anywhere

    def count() -> None:
        arrived[0] += 1

    def queue_from_a_thread() -> None:
        for _ in range(sent):
            loop.call_soon_threadsafe(count)

    thread = threading.Thread(target=queue_from_a_thread)
    try:
        thread.start()
        while thread.is_alive():
            for _ in range(10):
                jump_the_queue(loop.create_task(_noted([], "jumper")))
            await asyncio.sleep(0)
        thread.join()
        for _ in range(100):
            await asyncio.sleep(0)
    finally:
        sys.setswitchinterval(previous)
    assert arrived[0] == sent


def test_the_coroutines_that_jump_are_named_as_the_libraries_name_them() -> None:
    # A rename in aiohttp or discord.py would quietly send them to the back again.
    invokers = {const.co_qualname for const in CommandTree._from_interaction.__code__.co_consts
                if getattr(const, "co_qualname", "").endswith(".wrapper")}
    assert {ClientRequest.write_bytes.__qualname__} | invokers == JUMPERS
