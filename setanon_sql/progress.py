"""Progress of long work: the callback type the library calls (quiet by default), and the rich
display the CLI passes in."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

Progress = Callable[[str, int, "int | None"], None]
Callback = Progress


def quiet(step: str, done: int, total: int | None) -> None:
    """The library default: report nothing."""


@contextmanager
def cli_progress(enabled: bool = True) -> Iterator[Callback]:
    """A progress callback drawing one bar per step on stderr (nothing when disabled)."""
    if not enabled:
        yield lambda step, done, total: None
        return
    from rich.console import Console  # only when drawing: a quiet run never imports rich
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    bars = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    tasks: dict[str, int] = {}

    def update(step: str, done: int, total: int | None) -> None:
        if step not in tasks:
            tasks[step] = bars.add_task(step, total=total)
        bars.update(tasks[step], completed=done, total=total)

    with bars:
        yield update
