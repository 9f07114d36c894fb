"""What the command line prints: data on stdout (tables, or JSON with `--json`), warnings on
stderr. rich is imported only when something is drawn."""

from __future__ import annotations

import json
from typing import Any

import typer


def console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def show(table: Any) -> None:
    """A table on stdout, whole: on a terminal rich fits it to the window; into a pipe or a
    file it gets the width it needs, where rich's 80 columns cut cells to `ad…`."""
    from rich.measure import Measurement

    out = console()
    if not out.is_terminal:
        wide = out.options.update_width(1 << 20)
        out.width = max(out.width, Measurement.get(out, wide, table).maximum)
    out.print(table)


def warn(notes: list[str] | tuple[str, ...]) -> None:
    for note in notes:
        console(stderr=True).print(f"[yellow]warning:[/] {note}")


def emit(data: dict[str, Any], as_json: bool, title: str, *, quiet: bool = False) -> None:
    """One record: a two-column table, or JSON. Keys whose value is None are not shown in the
    table (a figure that does not apply), JSON keeps them."""
    if as_json:
        typer.echo(json.dumps(data, default=str))
        return
    if quiet:
        return
    from rich.table import Table

    t = Table(title=title, show_header=False)
    for key, value in data.items():
        if value is None:
            continue
        if isinstance(value, dict):
            value = ", ".join(f"{a}={b}" for a, b in value.items())
        t.add_row(key, f"{value:.6g}" if isinstance(value, float) else str(value))
    show(t)


def rows(records: list[dict[str, Any]], as_json: bool, title: str, columns: list[str]) -> None:
    """Several records: a table of these columns, or JSON with every key."""
    if as_json:
        typer.echo(json.dumps(records, default=str))
        return
    from rich.table import Table

    t = Table(*columns, title=title)
    for r in records:
        t.add_row(*[cell(r.get(c)) for c in columns])
    show(t)


def cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (dict, list)):
        return json.dumps(value, default=str)
    return str(value)
