"""Progress of long work: the callback type the library calls, quiet by default (the command
line passes in a rich display, `cli/progress.py`)."""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[str, int, "int | None"], None]


def quiet(step: str, done: int, total: int | None) -> None:
    """The library default: report nothing."""
