"""`setanon anonymize`: a verified release of transactions, on DuckDB (default) or Spark."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import ParamsError
from . import options as o
from .app import app
from .dp import Epsilon, dp_catalogue, dp_exit, dp_notes, dp_options
from .output import emit, warn
from .stores import inputs, open_data


@app.command("anonymize")
def anonymize_cmd(
    ctx: typer.Context,
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
        typer.Option("--engine", help="duckdb (default) or spark (algorithms aa, da, partition)."),
    ] = "duckdb",
    spark_master: Annotated[
        str | None,
        typer.Option("--spark-master", help="Spark master URL (default local[2])."),
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
    epsilon: Epsilon = None,
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
    from .. import api
    from ..params import Params
    from ..store.publish import RunOutputs
    from .progress import cli_progress

    src = o.SourceOpts(source, format, table, tid_col, item_col, dataset, encoding)
    hier = o.HierOpts(hierarchy, hierarchy_format, fanout, code_prefix, order, hierarchy_encoding)
    hier = dp_catalogue(algorithm, hier)
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
    o.refuse_unless(
        not replace or (run, output_table, output, sql_log) != (None, None, None, None),
        "--replace replaces the run named by --run, the --output-table, or the file or "
        "folder of -o or --sql-log; give one",
    )
    if engine == "spark":  # before Params, whose complaints are about other algorithms
        from ..algorithms import get, on_engine
        from ..store.spark_store import check_algorithm

        check_algorithm(get(algorithm), on_engine("spark"))
    params = Params(
        algorithm=algorithm,
        k=k,
        m=m,
        keep_intermediate=keep,
        run_name=run,
        replace=replace,
        options=o.option_pairs(dp_options(ctx, algorithm, epsilon, option or [], hier)),
    )
    if engine == "spark":
        o.refuse_unless(
            not (output_table is not None or (temp_dir, threads) != (None, None) or files),
            "--engine spark writes a Parquet folder and sizes its tasks: --output-table, "
            "--files, --temp-dir and --threads are DuckDB's (--memory-limit sizes its driver)",
        )
        spark = (spark_master, spark_warehouse, memory_limit)
        summary = anonymize_spark(src, hier, db, spark, params, output, sql_log, per_transaction)
        return emit(summary, as_json, verdict_title(algorithm), quiet=quiet)
    read = inputs(src, hier, dbo)
    refuse_release_options(params, output, files, per_transaction, output_table)
    from ..algorithms import get

    outputs = RunOutputs.asked(
        params, get(params.algorithm), path=output, files=files, per_transaction=per_transaction, table=output_table,
        sql_log=sql_log,
    )  # fmt: skip
    outputs.check(read, replace=params.replace)  # before any work (the registry's: in the run)
    if output_table is not None and db is None:
        raise ParamsError("--output-table needs --db (a table of an in-memory database is lost)")
    show = not (as_json or quiet) and sys.stderr.isatty()
    with open_data(src, hier, dbo) as store, cli_progress(show) as progress:
        result = api.anonymize(store, params, progress=progress, outputs=outputs, read=read)
    warn(dp_notes(result))
    summary = run_summary(result, output)
    if output_table is not None:
        summary["output_table"] = output_table
    emit(summary, as_json, verdict_title(params.algorithm), quiet=quiet)
    dp_exit(result)


def verdict_title(algorithm: str) -> str:
    """The summary's title: what the tool checked of the release. A differentially private
    one is checked by its budget record only (#44): no output proves its promise."""
    from ..algorithms import get
    from ..runs import DP_CHECKED

    return f"release: {DP_CHECKED}" if get(algorithm).model == "dp" else "release (verified)"


def refuse_release_options(
    params: Any,
    output: Path | None,
    files: str | None,
    per_transaction: bool,
    output_table: str | None,
) -> None:
    """The release options that do not apply to a disassociated release folder, or apply
    only to one, refused (#28); what is written, and how, is the library's
    (`RunOutputs.asked`)."""
    from ..algorithms import get
    from ..measure.kinds import Route, route, unhandled

    match route("anonymize", get(params.algorithm).kind):
        case Route.GENERALIZED | Route.SYNTHETIC | Route.TABLE | Route.TABLE_SETS:
            o.refuse_unless(files is None, "--files is for the release folder of -a disassociation")
            return
        case Route.DISASSOCIATED:
            pass
        case unknown:
            unhandled(unknown)
    o.refuse_unless(
        not per_transaction and output_table is None,
        "a disassociated release is its own tables: --per-transaction and --output-table do "
        "not apply (use -o DIR, or the run's tables in --db)",
    )
    o.refuse_unless(output is not None or files is None, "--files goes with -o DIR")


def run_summary(result: Any, output: Path | None, **extra: Any) -> dict[str, Any]:
    """What `anonymize` prints of a verified run, on either engine."""
    shown = result.as_dict()  # k and m left out where they mean nothing (dpsets, #44)
    return {
        "run": result.run,
        "algorithm": result.algorithm,
        "k": shown["k"],
        "m": shown["m"],
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
        **_checked(result.algorithm),
        "output": str(output) if output else None,
        **extra,
        **result.info,
    }


def _checked(algorithm: str) -> dict[str, str]:
    """Beside `verified`, what a differentially private run's check covers (#44): its budget
    record only, so a script reading the JSON cannot take it for a checked promise."""
    from ..algorithms import get
    from ..runs import DP_CHECKED

    return {"checked": DP_CHECKED} if get(algorithm).model == "dp" else {}


def anonymize_spark(
    src: o.SourceOpts,
    hier: o.HierOpts,
    db: Path | None,
    spark: tuple[str | None, Path | None, str | None],
    params: Any,
    output: Path | None,
    sql_log: Path | None,
    per_transaction: bool,
) -> dict[str, Any]:
    """`anonymize --engine spark`: what does not apply refused before a JVM starts, then the
    one front door (`api.open_spark`, `api.anonymize`); the run in a Spark database, the
    release a Parquet folder (a row per item, or with `per_transaction` per transaction);
    `spark` is the master, the warehouse and the driver's memory."""
    from .. import api
    from ..engine.spark_session import driver_memory
    from ..store.publish import RunOutputs
    from ..store.spark_release import check_outputs
    from ..store.spark_store import SparkSource, check_run_name

    o.refuse_unless(
        src.dataset is None and src.format in (None, "parquet"),
        "--engine spark reads a Parquet INPUT or a Spark --table (no --dataset or --format)",
    )
    o.refuse_unless(db is None, "--engine spark keeps its run in the Spark warehouse, not in --db")
    check_run_name(params.run_name)
    o.refuse_unless(
        (src.source is None) != (src.table is None),
        "--engine spark reads a Parquet INPUT path or a Spark --table, one",
    )
    o.refuse_unless(
        src.encoding is None, "--encoding applies to text inputs; --engine spark reads Parquet"
    )
    spec = hier.spec()
    if spec is None:
        raise ParamsError("--engine spark needs --hierarchy FILE, --fanout F or --code-prefix")
    read = [src.source, spec.path]
    from ..algorithms import get

    outputs = RunOutputs.asked(
        params, get(params.algorithm), path=output, per_transaction=per_transaction,
        sql_log=sql_log,
    )  # fmt: skip
    check_outputs(outputs, read, replace=params.replace)  # before a JVM starts
    source = SparkSource(
        path=src.source if src.table is None else None,
        table=src.table,
        tid_col=src.tid_col or "tid",
        item_col=src.item_col or "item",
    )
    master, warehouse, memory_limit = spark
    driver_memory(memory_limit)  # a size the JVM cannot start with: refused before it starts
    store, notes = api.open_spark(
        source, spec, params, master=master, warehouse=warehouse, memory_limit=memory_limit
    )
    with store:
        result = api.anonymize(store, params, outputs=outputs, read=read)
    warn(notes)
    return run_summary(result, output, engine="spark")
