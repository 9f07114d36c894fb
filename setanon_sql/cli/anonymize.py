"""`setanon anonymize`: a verified release of transactions, on DuckDB (default) or Spark."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import ParamsError
from . import options as o
from .app import app
from .output import emit, warn
from .stores import inputs, open_data

SPARK_DEFAULT_MASTER = "local[2]"


@app.command("anonymize")
def anonymize_cmd(
    source: o.Source = None,
    format: o.Format = None,
    table: o.Table = None,
    tid_col: o.TidCol = None,
    item_col: o.ItemCol = None,
    encoding: o.Encoding = None,
    dataset: o.Dataset = None,
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
    engine: Annotated[
        str,
        typer.Option("--engine", help="duckdb (default) or spark (algorithms partition, aa, da)."),
    ] = "duckdb",
    spark_master: Annotated[
        str | None,
        typer.Option("--spark-master", help=f"Spark master URL (default {SPARK_DEFAULT_MASTER})."),
    ] = None,
    spark_warehouse: Annotated[
        Path | None,
        typer.Option("--spark-warehouse", help="Folder of the Spark run's tables (Parquet)."),
    ] = None,
    algorithm: Annotated[
        str, typer.Option("--algorithm", "-a", help="Algorithm name (see `setanon algorithms`).")
    ] = "aa",
    k: o.K = 10,
    m: o.M = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="Release file: .csv or .parquet (disassociation: a folder of files).",
        ),
    ] = None,
    files: Annotated[
        str | None,
        typer.Option(
            "--files", help="disassociation: the folder's files, csv (default) or parquet."
        ),
    ] = None,
    per_transaction: Annotated[
        bool,
        typer.Option("--per-transaction", help="One row per transaction with a list of items."),
    ] = False,
    output_table: Annotated[
        str | None,
        typer.Option("--output-table", help="Also write the release as this table of --db."),
    ] = None,
    run: Annotated[
        str | None, typer.Option("--run", help="Name of the run's schema (default run_...).")
    ] = None,
    replace: Annotated[
        bool,
        typer.Option("--replace", help="Replace a run or output table the tool made before."),
    ] = False,
    keep: Annotated[
        bool, typer.Option("--keep-intermediate", help="Keep every per-level table.")
    ] = False,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", help="Algorithm option key=value (see `setanon algorithms A`)."),
    ] = None,
    sql_log: Annotated[
        Path | None,
        typer.Option("--sql-log", help="Write the run's replayable SQL script to this file."),
    ] = None,
    as_json: o.Json = False,
    quiet: o.Quiet = False,
) -> None:
    """Anonymize transactions; the release is verified before it is written."""
    from ..params import Params

    src = o.SourceOpts(source, format, table, tid_col, item_col, dataset, encoding)
    hier = o.HierOpts(hierarchy, hierarchy_format, fanout, code_prefix, order, hierarchy_encoding)
    dbo = o.DbOpts(db, memory_limit, temp_dir, threads)
    o.refuse_unless(
        engine in ("duckdb", "spark"), f"--engine must be duckdb or spark, not {engine!r}"
    )
    o.refuse_unless(
        engine == "spark" or (spark_master is None and spark_warehouse is None),
        "--spark-master and --spark-warehouse go with --engine spark",
    )
    o.refuse_unless(
        not per_transaction or output is not None or output_table is not None,
        "--per-transaction shapes the release written by -o or --output-table; give one",
    )
    o.refuse_unless(
        output_table is None or bool(output_table.strip()), "--output-table needs a table name"
    )
    folder_out = output is not None and _disassociates(algorithm)  # a release folder (#28)
    o.refuse_unless(
        not replace or run is not None or output_table is not None or folder_out,
        "--replace replaces the run named by --run, the --output-table or a disassociated "
        "release folder (-o DIR); give one",
    )
    if engine == "spark":  # before Params, whose complaints are about other algorithms
        from ..spark_run import check_algorithm

        check_algorithm(algorithm)
    params = Params(
        algorithm=algorithm,
        k=k,
        m=m,
        keep_intermediate=keep,
        run_name=run,
        replace=replace,
        options=o.option_pairs(option or []),
    )
    if engine == "spark":
        o.refuse_unless(
            not (output_table is not None or dbo.settings_given or files),
            "--engine spark writes a Parquet folder and sizes itself: --output-table, --files, "
            "--memory-limit, --temp-dir and --threads are DuckDB's",
        )
        spark = (spark_master or SPARK_DEFAULT_MASTER, spark_warehouse)
        summary = anonymize_spark(src, hier, db, spark, params, output, sql_log, per_transaction)
        return emit(summary, as_json, "release (verified)", quiet=quiet)
    read = inputs(src, hier, dbo)
    folder = disassociation_folder(params, output, files, per_transaction, output_table, read)
    release_files(None if folder else output, sql_log, read)
    if output_table is not None and db is None:
        raise ParamsError("--output-table needs --db (a table of an in-memory database is lost)")
    with open_data(src, hier, dbo) as store:
        result = anonymize_into(
            store, params, output, output_table, sql_log, per_transaction, as_json or quiet,
            files=(files or "csv") if folder else None, read=read,
        )  # fmt: skip
    summary = run_summary(result, output)
    if output_table is not None:
        summary["output_table"] = output_table
    emit(summary, as_json, "release (verified)", quiet=quiet)


def _disassociates(algorithm: str) -> bool:
    """Whether `algorithm` names disassociation (an unknown name is refused later, by Params)."""
    from ..algorithms import ALGORITHMS
    from ..catalog import ReleaseKind

    found = ALGORITHMS.get(algorithm.lower())
    return found is not None and found.kind is ReleaseKind.DISASSOCIATED


def release_files(
    output: Path | None, sql_log: Path | None, read: Sequence[str | Path | None]
) -> None:
    """The files a run will write, checked before any work (and again against the registry's
    inputs once the database is open)."""
    from ..store.publish import RunOutputs

    RunOutputs(path=output, sql_log=sql_log).check(read, replace=False)


def anonymize_into(
    store: Any,
    params: Any,
    output: Path | None,
    output_table: str | None,
    sql_log: Path | None,
    per_transaction: bool,
    silent: bool,
    *,
    files: str | None = None,
    read: list[Path | None] | None = None,
) -> Any:
    """Run and write what was asked, as the run takes its place (`api.anonymize`): the release
    file (a disassociation run's: the folder of `files`), the release table, the SQL log."""
    from .. import api
    from ..store import release_io as release
    from ..store.publish import RunOutputs
    from .progress import cli_progress

    target = (
        release.output_table_target(store, output_table, replace=params.replace)
        if output_table is not None
        else None
    )
    outputs = RunOutputs(
        path=output,
        folder=files if output is not None else None,
        per_transaction=per_transaction,
        refined=bool(files is not None and params.options.get("refine")),
        table=target,
        sql_log=sql_log,
        manifest=folder_manifest(params) if files is not None else None,
    )
    with cli_progress(not silent and sys.stderr.isatty()) as progress:
        return api.anonymize(store, params, progress=progress, outputs=outputs, read=read or [])


def disassociation_folder(
    params: Any,
    output: Path | None,
    files: str | None,
    per_transaction: bool,
    output_table: str | None,
    read: list[Path | None],
) -> bool:
    """Whether the output is a disassociated release folder, checked before any work; the
    options that do not apply to one, or apply only to one, are refused (#28)."""
    from ..algorithms import get
    from ..measure.kinds import Route, route

    if route("anonymize", get(params.algorithm).kind) is not Route.DISASSOCIATED:
        o.refuse_unless(files is None, "--files is for the release folder of -a disassociation")
        return False
    o.refuse_unless(
        not per_transaction and output_table is None,
        "a disassociated release is its own tables: --per-transaction and --output-table do "
        "not apply (use -o DIR, or the run's tables in --db)",
    )
    if output is None:
        o.refuse_unless(files is None, "--files goes with -o DIR")
        return False
    from ..store.disassociated_files import check_folder

    check_folder(output, read, replace=params.replace, fmt=files or "csv")
    return True


def folder_manifest(params: Any) -> dict[str, Any]:
    """What a release folder's release.json says of its run (the run's name is added by the
    library)."""
    from ..algorithms import get

    return {
        "release": "disassociation",
        "algorithm": get(params.algorithm).name,
        "k": params.k,
        "m": params.m,
        "options": params.options,
    }


def run_summary(result: Any, output: Path | None, **extra: Any) -> dict[str, Any]:
    """What `anonymize` prints of a verified run, on either engine."""
    return {
        "run": result.run,
        "algorithm": result.algorithm,
        "k": result.params.k,
        "m": result.params.m,
        "release": result.release,
        "seconds": round(result.seconds, 3),
        "ncp": result.loss["ncp"],
        "lm": result.loss["lm"],
        "suppressed": result.loss["suppressed"],
        **(
            {"term_chunk_share": result.loss["term_chunk_share"]}
            if "term_chunk_share" in result.loss
            else {}
        ),
        "verified": result.report.ok,
        "output": str(output) if output else None,
        **extra,
        **result.info,
    }


def anonymize_spark(
    src: o.SourceOpts,
    hier: o.HierOpts,
    db: Path | None,
    spark: tuple[str, Path | None],
    params: Any,
    output: Path | None,
    sql_log: Path | None,
    per_transaction: bool,
) -> dict[str, Any]:
    """`anonymize --engine spark`: the run in a Spark database, the release a Parquet folder
    (a row per item, or with `per_transaction` per transaction); `spark` is the master and the
    warehouse."""
    from .. import spark_run

    o.refuse_unless(
        src.dataset is None and src.format in (None, "parquet"),
        "--engine spark reads a Parquet INPUT or a Spark --table (no --dataset or --format)",
    )
    spec = hier.spec()
    spark_run.check_options(
        engine="spark", algorithm=params.algorithm, db=db, source=src.source, table=src.table,
        hierarchy=spec, output=output, run=params.run_name, encoding=src.encoding,
    )  # fmt: skip
    assert spec is not None  # check_options refused a run without a hierarchy
    release_files(None, sql_log, [src.source, spec.path, output])
    source = spark_run.SparkSource(
        path=src.source if src.table is None else None,
        table=src.table,
        tid_col=src.tid_col or "tid",
        item_col=src.item_col or "item",
    )
    master, warehouse = spark
    result, notes = spark_run.anonymize_source(
        source, spec, params, master=master, warehouse=warehouse, output=output,
        per_transaction=per_transaction, sql_log=sql_log,
    )  # fmt: skip
    warn(notes)
    return run_summary(result, output, engine="spark")
