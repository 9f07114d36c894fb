"""Ctrl-C and SIGTERM end a command cleanly: the running statement stops, every cleanup runs
(a half-made run is removed, a temporary output deleted), and the exit code says which signal.

DuckDB stops a statement on Ctrl-C by itself. SIGTERM is blocked in every thread (DuckDB's
workers inherit the mask, so none of them is killed by it) and taken by one waiting thread,
which interrupts the open connections and raises `Terminated` in the main thread.
"""

from __future__ import annotations

import _thread
import contextlib
import signal
import threading
import weakref
from typing import Any

from .errors import Terminated

_live: weakref.WeakSet[Any] = weakref.WeakSet()
_state = {"terminated": False}


def watch(connection_owner: Any) -> None:
    """Interrupt this object's statement (its `interrupt()`) when SIGTERM arrives."""
    _live.add(connection_owner)


def _raise_terminated(signum: int, frame: object) -> None:
    if _state["terminated"]:
        return  # a second SIGTERM must not break the cleanup of the first
    _state["terminated"] = True
    raise Terminated("terminated")


def _wait() -> None:
    while True:
        signal.sigwait({signal.SIGTERM})
        _interrupt_all()
        _thread.interrupt_main(signal.SIGTERM)


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
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    threading.Thread(target=_wait, name="setanon-sigterm", daemon=True).start()
