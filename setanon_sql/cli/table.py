"""`setanon anonymize-table`: relational k-anonymity (and l-diversity) of a table's
quasi-identifiers by set cover (k-ANON-CF)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from . import options as o
from .app import app

DEFAULT_W = 0.15


@app.command("anonymize-table")
def anonymize_table_cmd(
    source: o.TableSource,
    qi: o.Qi,
    taxonomy: o.Taxonomy,
    k: o.K = 10,
    keep: o.Keep = None,
    drop: o.Drop = None,
    sensitive: o.Sensitive = None,
    l: o.Ell = None,  # noqa: E741
    w: Annotated[
        float | None,
        typer.Option("--w", help=f"Weight of added cost when merging for ℓ ({DEFAULT_W})."),
    ] = None,
    output: o.TableOutput = None,
    columns: o.Columns = None,
    table: o.TableOfFile = None,
    missing: o.DropMissing = None,
    encoding: o.TableEncoding = None,
    run: o.TableRun = None,
    replace: o.TableReplace = False,
    no_improve: Annotated[
        bool,
        typer.Option("--no-improve", help="Release the set cover as it is (no moves or splits)."),
    ] = False,
    mine_beam: Annotated[
        int | None,
        typer.Option(
            "--mine-beam",
            help="Keep this many records per mining level (default 5000); 0: all (exact "
            "k-ANON-CF, slow).",
            min=0,
            max=10**9,
        ),
    ] = None,
    cover_cap: Annotated[
        float | None,
        typer.Option(
            "--cover-cap",
            help="Also try the greedy cover whose ratios count at most round(CAP*k) new rows "
            "(default 1.1; kept only when no dearer than the paper's); 0: the paper's alone.",
            min=0,
            max=2,
        ),
    ] = None,
    db: o.Db = None,
    memory_limit: o.MemoryLimit = None,
    temp_dir: o.TempDir = None,
    threads: o.Threads = None,
    as_json: o.Json = False,
    quiet: o.Quiet = False,
) -> None:
    """k-anonymize a table's quasi-identifier columns by greedy set cover over closed frequent
    generalized records (Kenig & Tassa); the release is verified before it is written."""
    from ..relational import COVER_CAP, MINE_BEAM, anonymize_table
    from ..store import outputs
    from ..store.database import Store

    o.refuse_unless(
        l is not None or (sensitive is None and w is None),
        "--sensitive and --w are the l-diversity's (--l); without --l they change nothing",
    )
    o.refuse_unless(
        not replace or run is not None or output is not None,
        "--replace replaces the run named by --run or the -o file",
    )
    dbo = o.DbOpts(db, memory_limit, temp_dir, threads)
    specs = o.taxonomies(taxonomy)
    read = [source, db, *o.taxonomy_files(specs)]
    if output is not None:
        outputs.check_file(output, read, replace=replace)
    with Store(db, **dbo.settings()) as store:
        result = anonymize_table(
            store,
            source,
            qi=qi,
            taxonomies=specs,
            k=k,
            sensitive=sensitive,
            l=l,
            w=DEFAULT_W if w is None else w,
            columns=[c.strip() for c in columns.split(",")] if columns is not None else None,
            table=table,
            drop_missing=missing,
            encoding=encoding,
            run_name=run,
            replace=replace,
            improve=not no_improve,
            mine_beam=MINE_BEAM if mine_beam is None else (mine_beam or None),
            cover_cap=COVER_CAP if cover_cap is None else (cover_cap or None),
            output=output,
            read=read,
            keep=keep or (),
            drop=drop or (),
        )
    summary = {**result.as_dict(), "output": str(output) if output else None}
    if as_json:
        typer.echo(json.dumps(summary, default=str))
        return
    if not quiet:
        typer.echo(
            f"release (verified): {summary['rows']} rows, {summary['clusters']} clusters, "
            f"LM {summary['lm']:.4f}, {summary['seconds']} s, run {summary['run']}"
            + (f", written to {output}" if output else "")
        )
