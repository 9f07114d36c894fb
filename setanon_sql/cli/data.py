"""Commands about what a database holds: `load`, `datasets`, `runs`, `sql`, `algorithms`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import ParamsError
from . import options as o
from .app import app
from .output import emit, rows
from .stores import open_data, open_db


@app.command("load")
def load_cmd(
    source: o.Source = None,
    format: o.Format = None,
    table: o.Table = None,
    tid_col: o.TidCol = None,
    item_col: o.ItemCol = None,
    encoding: o.Encoding = None,
    hierarchy: o.Hierarchy = None,
    hierarchy_format: o.HierarchyFormat = None,
    fanout: o.Fanout = None,
    code_prefix: o.CodePrefix = False,
    order: o.Order = None,
    hierarchy_encoding: o.HierarchyEncoding = None,
    db: o.Db = None,
    memory_limit: o.MemoryLimit = None,
    temp_dir: o.TempDir = None,
    threads: o.Threads = None,
    as_json: o.Json = False,
    quiet: o.Quiet = False,
) -> None:
    """Load transactions (and a hierarchy) into a DuckDB file as a dataset for later runs.

    Loading the same source again reuses its dataset; a changed source becomes a new one."""
    if db is None or source is None:
        raise ParamsError("load needs an INPUT file and --db")
    src = o.SourceOpts(source, format, table, tid_col, item_col, encoding=encoding)
    hier = o.HierOpts(hierarchy, hierarchy_format, fanout, code_prefix, order, hierarchy_encoding)
    with open_data(src, hier, o.DbOpts(db, memory_limit, temp_dir, threads)) as store:
        assert store.dataset is not None  # open_data loaded one
        data = {
            "dataset": store.dataset.id,
            "schema": store.dataset.schema,
            "source": store.dataset.source,
            **store.stats(),
            "hierarchy": store.hierarchy.id if store.hierarchy else None,
        }
    emit(data, as_json, f"dataset in {db}", quiet=quiet)


@app.command("datasets")
def datasets_cmd(
    db: o.Db = None,
    memory_limit: o.MemoryLimit = None,
    temp_dir: o.TempDir = None,
    threads: o.Threads = None,
    as_json: o.Json = False,
) -> None:
    """List the datasets stored in a DuckDB file, with their hierarchies and runs."""
    from .. import api

    with open_db(o.DbOpts(db, memory_limit, temp_dir, threads)) as store:
        found = api.list_datasets(store)
    cols = ["dataset_id", "kind", "schema_name", "source", "format", "rows", "hierarchies", "runs"]
    rows(found, as_json, f"datasets in {db}", cols)


@app.command("runs")
def runs_cmd(
    db: o.Db = None,
    memory_limit: o.MemoryLimit = None,
    temp_dir: o.TempDir = None,
    threads: o.Threads = None,
    spark_warehouse: Annotated[
        Path | None,
        typer.Option("--spark-warehouse", help="List the Spark runs of this warehouse instead."),
    ] = None,
    as_json: o.Json = False,
) -> None:
    """List the runs stored in a DuckDB file: transactional and table runs, their dataset,
    parameters, status and time; or the Spark runs of a warehouse, with their tables."""
    dbo = o.DbOpts(db, memory_limit, temp_dir, threads)
    if spark_warehouse is not None:
        o.refuse_unless(
            db is None and not dbo.settings_given,
            "--spark-warehouse lists Spark runs: --db, --memory-limit, --temp-dir and "
            "--threads are DuckDB's",
        )
        from ..store.spark_runs import list_runs

        cols = ["name", "status", "algorithm", "k", "engine", "search_s", "tables"]
        rows(list_runs(spark_warehouse), as_json, f"Spark runs in {spark_warehouse}", cols)
        return
    from .. import api

    with open_db(dbo) as store:
        found = api.list_runs(store)
    cols = ["name", "kind", "algorithm", "dataset_id", "params", "status", "started", "seconds"]
    rows(found, as_json, f"runs in {db}", cols)


@app.command("sql")
def sql_cmd(
    name: Annotated[str | None, typer.Argument(help="A statement name from sql/.")] = None,
    db: o.Db = None,
    memory_limit: o.MemoryLimit = None,
    temp_dir: o.TempDir = None,
    threads: o.Threads = None,
    run: Annotated[
        str | None,
        typer.Option("--run", help="Print the replayable SQL script of a run stored in --db."),
    ] = None,
    spark_warehouse: Annotated[
        Path | None,
        typer.Option("--spark-warehouse", help="Print the statement log of a Spark --run here."),
    ] = None,
) -> None:
    """Print SQL: the named statements of sql/, one of them, or the script of a stored run.

    A run's script, executed on a fresh DuckDB with the same input files where they were,
    rebuilds the run's dataset, hierarchy and tables. A Spark run (--spark-warehouse) prints
    the Spark SQL it ran: a log to read, not a script to replay (replay is DuckDB-only)."""
    from ..engine import sqlfiles

    dbo = o.DbOpts(db, memory_limit, temp_dir, threads)
    o.refuse_unless(
        spark_warehouse is None or (run is not None and db is None and not dbo.settings_given),
        "--spark-warehouse goes with --run (a Spark run), not with --db or its settings",
    )
    o.refuse_unless(
        run is not None or (db is None and not dbo.settings_given),
        "--db and its settings go with --run: the named statements need no database",
    )
    if run is not None:
        if name is not None:
            raise ParamsError("give a statement NAME or --run, not both")
        if spark_warehouse is not None:
            from ..store.spark_runs import log_script

            typer.echo(log_script(spark_warehouse, run), nl=False)
            typer.echo(
                f"note: {run} ran on Spark; this is its log, replay is DuckDB-only", err=True
            )
            return
        with open_db(dbo) as store:
            typer.echo(store.replay_script(run), nl=False)
        typer.echo(
            "note: this script is as private as the database (input paths and data, the "
            "disassociation row key); never publish it with a release",
            err=True,
        )
        return
    statements = sqlfiles.statements()
    if name is None:
        found = [{"name": s.name, "file": s.file, "doc": s.doc} for s in statements.values()]
        rows(found, False, "named statements", ["name", "file", "doc"])
        return
    if name not in statements:
        raise ParamsError(f"no statement {name!r}; `setanon sql` lists them")
    st = statements[name]
    typer.echo(f"-- {st.name} ({st.file}): {st.doc}\n{st.sql};")


MODEL_NAMES = {"k": "k", "km": "k^m", "dp": "epsilon-DP"}
"""What `algorithms` calls each privacy model: dpsets' is differential privacy (#44), not k."""


@app.command("algorithms")
def algorithms_cmd(
    name: Annotated[str | None, typer.Argument(help="Show this algorithm's options.")] = None,
    as_json: o.Json = False,
) -> None:
    """List the algorithms and the privacy model each one guarantees, or one's options."""
    import json

    from ..algorithms import ALGORITHMS, get

    chosen = [get(name)] if name else list(ALGORITHMS.values())
    found: list[dict[str, Any]] = [
        {
            "name": a.name,
            "model": MODEL_NAMES.get(a.model, a.model),
            "needs_m": a.needs_m,
            "summary": a.summary,
            "options": [opt.describe() for opt in a.options],
        }
        for a in chosen
    ]
    if as_json:
        typer.echo(json.dumps(found))
        return
    if name is None:
        rows(found, False, "algorithms", ["name", "model", "needs_m", "summary"])
        return
    row = found[0]
    typer.echo(f"{row['name']}: {row['summary']} (model {row['model']})")
    typer.echo("options (--option key=value):" if row["options"] else "no options")
    for line in row["options"]:
        typer.echo(f"  {line}")


@app.command("synth")
def synth_cmd(
    output: Annotated[Path, typer.Argument(help="Parquet file to write (tid, item).")],
    transactions: Annotated[
        int, typer.Option("--transactions", "-n", help="How many transactions.", min=1)
    ],
    items: Annotated[int, typer.Option("--items", help="Distinct items.", min=2)] = 10_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed: same seed, same file.")] = 0,
    patterns: Annotated[
        int | None, typer.Option("--patterns", help="Correlated patterns (default items/10).")
    ] = None,
    pattern_share: Annotated[
        float, typer.Option("--pattern-share", help="Share of transactions holding a pattern.")
    ] = 0.5,
    min_length: Annotated[
        float, typer.Option("--min-length", help="Pareto scale of lengths.")
    ] = 1.5,
    tail: Annotated[float, typer.Option("--tail", help="Pareto tail of lengths (> 1).")] = 1.8,
    max_length: Annotated[int, typer.Option("--max-length", help="Longest transaction.")] = 200,
    fanout: Annotated[
        int, typer.Option("--fanout", help="Fan-out the in-subtree patterns follow.", min=2)
    ] = 5,
    replace: o.ReplaceOutput = False,
    as_json: o.Json = False,
) -> None:
    """Write seeded synthetic baskets (Zipf-like popularity, correlated patterns) as Parquet,
    for scale tests and benchmarks."""
    from ..measure.synthetic import SynthSpec, write_baskets
    from ..store import outputs

    spec = SynthSpec(
        transactions=transactions, items=items, seed=seed, patterns=patterns,
        pattern_share=pattern_share, min_length=min_length, tail=tail,
        max_length=max_length, fanout=fanout,
    )  # fmt: skip
    output = outputs.check_file(output, [], replace=replace, formats=("parquet",))[0]
    emit(write_baskets(output, spec), as_json, f"baskets written to {output}")
