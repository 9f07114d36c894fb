"""Rich progress display for the command line; the library itself calls a quiet callback."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ..progress import Progress as Callback


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
        TaskID,
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
    tasks: dict[str, TaskID] = {}

    def update(step: str, done: int, total: int | None) -> None:
        if step not in tasks:
            tasks[step] = bars.add_task(step, total=total)
        bars.update(tasks[step], completed=done, total=total)

    with bars:
        yield update
