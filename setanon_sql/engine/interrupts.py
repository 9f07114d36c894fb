"""Ctrl-C and SIGTERM end a command cleanly: the running statement stops, every cleanup runs
(a half-made run is removed, a temporary output deleted), and the exit code says which signal.

DuckDB stops a statement on Ctrl-C by itself. SIGTERM is blocked in every thread (DuckDB's
workers inherit the mask, so none of them is killed by it) and taken by one waiting thread,
which interrupts the open connections and raises `Terminated` in the main thread. A main thread
blocked in a system call (opening a FIFO nobody writes to) runs no Python until the call
returns, so if it has not raised within `WAKE_AFTER_S` the waiting thread sends it `WAKE`, a
signal of its own: the call ends (EINTR) and Python runs the SIGTERM handler.

A Spark run (`deferred`) must not have an exception raised in the main thread while it waits
for the JVM's answer: Py4J's connection would be left mid-answer (PySpark's own Ctrl-C
handler does that, and its cleanup then fails on the broken connection). There a signal only
cancels the running Spark jobs, from another thread, and is noted; the interrupted call returns
with Spark's error, and the executor raises the interrupt (`raise_pending`) at that point or
before its next statement.
"""

from __future__ import annotations

import _thread
import contextlib
import signal
import threading
import time
import weakref
from collections.abc import Iterator
from typing import Any

from ..errors import Terminated

_live: weakref.WeakSet[Any] = weakref.WeakSet()
_state = {"terminated": False, "raised": False, "deferred": False, "pending": False}
# the signal that wakes a blocked main thread: ignored by default, so taking it changes nothing
# else (Go's runtime preempts its threads with it for the same reason)
WAKE = signal.SIGURG
WAKE_AFTER_S = 0.25  # how long the main thread gets to raise on its own, between wake-ups
WAKE_TRIES = 40  # then stop: a thread inside a call that retries on EINTR is no better woken


def watch(connection_owner: Any) -> None:
    """Interrupt this object's statement (its `interrupt()`) when SIGTERM arrives."""
    _live.add(connection_owner)


def _raise_terminated(signum: int, frame: object) -> None:
    if _state["raised"]:
        return  # a second SIGTERM must not break the cleanup of the first
    raise termination()


def termination() -> Terminated:
    """The `Terminated` to raise for SIGTERM, once: the handler still pending in the main
    thread then raises nothing more (an interrupted statement may raise it first)."""
    _state["terminated"] = _state["raised"] = True
    return Terminated("terminated")


def _wake(signum: int, frame: object) -> None:
    """Nothing: `WAKE` only ends the main thread's blocking call, see the module's docstring."""


def _wait() -> None:
    while True:
        signal.sigwait({signal.SIGTERM})
        if _state["deferred"]:
            _note(signal.SIGTERM)
            continue
        _state["terminated"] = True
        _interrupt_all()
        _thread.interrupt_main(signal.SIGTERM)
        _wake_main()


def _wake_main() -> None:
    """Wake the main thread until it raised `Terminated` (a few seconds at most)."""
    main = threading.main_thread().ident
    for _ in range(WAKE_TRIES):
        time.sleep(WAKE_AFTER_S)
        if _state["raised"] or main is None:
            return
        with contextlib.suppress(OSError):  # the main thread has ended meanwhile
            signal.pthread_kill(main, WAKE)


def _note(signum: int) -> None:
    """A signal during a deferred block: remember it, stop the live work from a thread of its
    own (never from the main thread, which may be inside a call to the JVM)."""
    if signum == signal.SIGTERM:
        _state["terminated"] = True
    _state["pending"] = True
    threading.Thread(target=_interrupt_all, name="setanon-interrupt", daemon=True).start()


def _defer_sigint(signum: int, frame: object) -> None:
    _note(signum)


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Within the block, Ctrl-C and SIGTERM cancel the watched work and are raised by
    `raise_pending` (see the module's docstring). In the main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, _defer_sigint)
    _state["deferred"] = True
    try:
        yield
    finally:
        _state["deferred"] = False
        signal.signal(signal.SIGINT, before)


def raise_pending() -> None:
    """Raise the interrupt a deferred signal asked for, once."""
    if _state["pending"]:
        _state["pending"] = False
        raise termination() if _state["terminated"] else KeyboardInterrupt("interrupted")


def _interrupt_all() -> None:
    """Stop every live statement; hold no reference afterwards (a connection kept alive by
    this thread's frame would outlive the interpreter)."""
    for owner in list(_live):
        with contextlib.suppress(Exception):  # a closed connection has nothing to stop
            owner.interrupt()


def was_terminated() -> bool:
    """Whether SIGTERM arrived (an interrupt is then reported as termination)."""
    return _state["terminated"]


def guard() -> None:
    """Route SIGTERM as above. Call first thing in the main thread, before any connection."""
    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGTERM, _raise_terminated)
    signal.signal(WAKE, _wake)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    threading.Thread(target=_wait, name="setanon-sigterm", daemon=True).start()
