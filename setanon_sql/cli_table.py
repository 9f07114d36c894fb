"""`setanon anonymize-table`: k-anonymize (and ℓ-diversify) a table of quasi-identifiers.

Register on the main app with `app.command("anonymize-table")(anonymize_table_command)`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from .errors import ParamsError, SetAnonError
from .relational import anonymize_table, export
from .store import Store

_err = Console(stderr=True)


def _taxonomies(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        column, sep, spec = pair.partition("=")
        if not sep or not column or not spec:
            raise ParamsError(f"--taxonomy wants column=FILE or column=SPEC, got {pair!r}")
        out[column] = spec
    return out


def anonymize_table_command(
    source: Annotated[
        Path, typer.Argument(help="Table: .csv (header row unless --columns), .parquet or .duckdb.")
    ],
    qi: Annotated[list[str], typer.Option("--qi", help="A quasi-identifier column (repeat).")],
    taxonomy: Annotated[
        list[str],
        typer.Option(
            "--taxonomy",
            "-t",
            help="column=FILE (child,parent CSV), or column=suppress, "
            "fanout:F, widths:W1,W2,... or edges:E1,E2,...;E1,... for numeric columns.",
        ),
    ],
    k: Annotated[int, typer.Option("--k", "-k", help="Anonymity parameter k.")] = 10,
    sensitive: Annotated[
        str | None, typer.Option("--sensitive", help="Sensitive column (for --l).")
    ] = None,
    l: Annotated[  # noqa: E741
        float | None, typer.Option("--l", help="ℓ-diversity of the sensitive column.")
    ] = None,
    w: Annotated[
        float, typer.Option("--w", help="Weight of added cost when merging for ℓ.")
    ] = 0.15,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Release file: .csv or .parquet.")
    ] = None,
    columns: Annotated[
        str | None,
        typer.Option("--columns", help="Comma-separated column names of a header-less CSV."),
    ] = None,
    table: Annotated[
        str | None, typer.Option("--table", help="Table of a DuckDB input file.")
    ] = None,
    missing: Annotated[
        str | None, typer.Option("--drop-missing", help="Drop rows holding this token (e.g. '?').")
    ] = None,
    db: Annotated[Path | None, typer.Option("--db", help="DuckDB file to keep the run in.")] = None,
    run: Annotated[str | None, typer.Option("--run", help="Name of the run's schema.")] = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="Replace a run of the same name.")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Machine-readable output on stdout.")
    ] = False,
) -> None:
    """k-anonymize a table's quasi-identifier columns by greedy set cover over closed frequent
    generalized records (Kenig & Tassa); the release is verified before it is written."""
    try:
        store = Store(db)
        try:
            result = anonymize_table(
                store,
                source,
                qi=qi,
                taxonomies=_taxonomies(taxonomy),
                k=k,
                sensitive=sensitive,
                l=l,
                w=w,
                columns=[c.strip() for c in columns.split(",")] if columns else None,
                table=table,
                drop_missing=missing,
                run_name=run,
                replace=replace,
            )
            if output is not None:
                export(store, result, output)
        finally:
            store.close()
    except SetAnonError as e:
        _err.print(f"[bold red]error:[/] {e}", highlight=False, soft_wrap=True)
        raise typer.Exit(int(e.exit_code)) from None
    summary = {**result.as_dict(), "output": str(output) if output else None}
    if as_json:
        typer.echo(json.dumps(summary, default=str))
        return
    typer.echo(
        f"release (verified): {summary['rows']} rows, {summary['clusters']} clusters, "
        f"LM {summary['lm']:.4f}, {summary['seconds']} s, run {summary['run']}"
        + (f", written to {output}" if output else "")
    )
