"""`setanon anonymize-rt`: (k, k^m)-anonymity of a table with a set-valued column: the QIs
k-anonymous, and inside every class the set column k^m-anonymous."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from . import options as o
from .app import app
from .table import DEFAULT_W, _taxonomies


@app.command("anonymize-rt")
def anonymize_rt_cmd(
    source: Annotated[
        Path, typer.Argument(help="Table: .csv (header row unless --columns), .parquet or .duckdb.")
    ],
    qi: Annotated[list[str], typer.Option("--qi", help="A quasi-identifier column (repeat).")],
    taxonomy: Annotated[
        list[str],
        typer.Option("--taxonomy", "-t", help="column=FILE or column=SPEC, as anonymize-table."),
    ],
    items: Annotated[
        str, typer.Option("--items", help="The set-valued column (a LIST, or text joined).")
    ],
    hierarchy: o.Hierarchy = None,
    hierarchy_format: o.HierarchyFormat = None,
    code_prefix: o.CodePrefix = False,
    hierarchy_encoding: o.HierarchyEncoding = None,
    items_sep: Annotated[
        str, typer.Option("--items-sep", help="Separator of the items of a text set column.")
    ] = ";",
    k: o.K = 10,
    m: Annotated[int, typer.Option("--m", "-m", help="Items an adversary knows.", min=1)] = 2,
    sensitive: Annotated[
        str | None, typer.Option("--sensitive", help="Sensitive column (for --l).")
    ] = None,
    l: Annotated[  # noqa: E741
        float | None, typer.Option("--l", help="ℓ-diversity of the sensitive column.")
    ] = None,
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
    encoding: Annotated[
        str | None,
        typer.Option("--encoding", help="Text encoding of a CSV table and taxonomy files."),
    ] = None,
    run: Annotated[str | None, typer.Option("--run", help="Name of the run's schema.")] = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="Replace a run the tool made before.")
    ] = False,
    db: o.Db = None,
    memory_limit: o.MemoryLimit = None,
    temp_dir: o.TempDir = None,
    threads: o.Threads = None,
    as_json: o.Json = False,
    quiet: o.Quiet = False,
) -> None:
    """Make a table with a set-valued column (k, k^m)-anonymous: classes of at least k on the
    QIs (the table engine), and inside each the items generalized in their hierarchy until
    every itemset of at most m items is held by none or at least k records; verified before it
    is written."""
    from ..relational.rt import anonymize_rt
    from ..store import outputs
    from ..store.database import Store
    from ..store.hierarchy_spec import HierarchySpec

    o.refuse_unless(
        l is not None or sensitive is None,
        "--sensitive is the l-diversity's (--l); without --l it changes nothing",
    )
    o.refuse_unless(not replace or run is not None, "--replace replaces the run named by --run")
    spec = HierarchySpec(
        path=hierarchy, format=hierarchy_format, code_prefix=code_prefix,
        encoding=hierarchy_encoding,
    )  # fmt: skip
    spec.check()
    dbo = o.DbOpts(db, memory_limit, temp_dir, threads)
    taxonomy_files = [Path(s) for _, s in _taxonomies(taxonomy).items() if Path(s).is_file()]
    read = [source, db, hierarchy, *taxonomy_files]
    if output is not None:
        outputs.check_file(output, read)
    with Store(db, **dbo.settings()) as store:
        result = anonymize_rt(
            store, source, qi=qi, taxonomies=_taxonomies(taxonomy), items=items,
            hierarchy=spec, k=k, m=m, items_sep=items_sep, sensitive=sensitive, l=l,
            w=DEFAULT_W, columns=[c.strip() for c in columns.split(",")] if columns is not None else None,
            table=table, drop_missing=missing, encoding=encoding, run_name=run,
            replace=replace, output=output, read=read,
        )  # fmt: skip
    summary = {**result.as_dict(), "output": str(output) if output else None}
    if as_json:
        typer.echo(json.dumps(summary, default=str))
        return
    if not quiet:
        typer.echo(
            f"release (verified (k, k^m)): {summary['rows']} rows, {summary['classes']} classes, "
            f"relational NCP {summary['relational_ncp']:.4f}, item NCP "
            f"{summary['item_ncp']:.4f}, {summary['seconds']} s, run {summary['run']}"
            + (f", written to {output}" if output else "")
        )
