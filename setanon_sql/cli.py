"""The `setanon` command line: parse, check, make one library call, print.

Heavy modules (DuckDB, pyarrow, sqlglot, rich) are imported inside the commands, so `--help`
and a mistyped option answer at once. The input, hierarchy and database options that several
commands share are declared once, as option groups (`SourceOpts`, `HierOpts`, `DbOpts`).
"""

import dataclasses
import functools
import inspect
import json
import sys
import typing
from pathlib import Path
from typing import Annotated, Any

import typer

EXIT_CODES = (
    "Exit codes: 0 success; 1 violations found (verify); 2 usage error; 3 bad input (files, "
    "columns, hierarchy, database); 4 internal error; 130 interrupted (143 on SIGTERM)."
)

app = typer.Typer(
    help="Anonymize set-valued data (baskets, click streams, code sets) with SQL in DuckDB.",
    epilog=EXIT_CODES,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    add_completion=False,
)
hierarchy_app = typer.Typer(
    help="Build, check and show item hierarchies.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(hierarchy_app, name="hierarchy")
_state = {"debug": False}


@app.callback()
def _root(
    debug: Annotated[
        bool, typer.Option("--debug", help="Print the traceback of an error.")
    ] = False,
) -> None:
    """Anonymize set-valued data (baskets, click streams, code sets) with SQL in DuckDB."""
    _state["debug"] = debug


# -- option groups ---------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class SourceOpts:
    """Where the transactions come from: a file, or a dataset stored in --db."""

    source: Annotated[
        Path | None,
        typer.Argument(
            help="Transactions: SPMF/lines .txt, long tid,item .csv, .parquet or .duckdb "
            "(omit to use a dataset stored in --db)."
        ),
    ] = None
    format: Annotated[
        str | None, typer.Option("--format", help="spmf, lines, csv, parquet or duckdb.")
    ] = None
    table: Annotated[str | None, typer.Option("--table", help="Table of a DuckDB input.")] = None
    tid_col: Annotated[str, typer.Option("--tid-col", help="Transaction id column.")] = "tid"
    item_col: Annotated[str, typer.Option("--item-col", help="Item column (or a LIST column).")] = (
        "item"
    )
    dataset: Annotated[
        int | None,
        typer.Option("--dataset", help="Id of a dataset stored in --db (see `setanon datasets`)."),
    ] = None


@dataclasses.dataclass(frozen=True)
class HierOpts:
    """Where the item hierarchy comes from."""

    hierarchy: Annotated[
        Path | None,
        typer.Option("--hierarchy", "-H", help="child,parent CSV or leaf;...;root file."),
    ] = None
    hierarchy_format: Annotated[
        str | None, typer.Option("--hierarchy-format", help="csv or paths.")
    ] = None
    fanout: Annotated[
        int | None,
        typer.Option("--fanout", help="Build a balanced hierarchy of this fan-out.", min=2),
    ] = None
    code_prefix: Annotated[
        bool,
        typer.Option("--code-prefix", help="Build a hierarchy by dropping trailing code digits."),
    ] = False
    order: Annotated[
        str | None,
        typer.Option(
            "--order",
            help="Leaf order of --fanout: support (most frequent first; default) or id.",
        ),
    ] = None

    def spec(self) -> Any:
        from .api import HierarchySpec

        if self.hierarchy is None and self.fanout is None and not self.code_prefix:
            return None
        return HierarchySpec(
            path=self.hierarchy,
            format=self.hierarchy_format,
            fanout=self.fanout,
            code_prefix=self.code_prefix,
            order=self.order,
        )


@dataclasses.dataclass(frozen=True)
class DbOpts:
    """The DuckDB database and how much of the machine it may use."""

    db: Annotated[
        Path | None,
        typer.Option("--db", help="DuckDB file to use (created if missing; default: in memory)."),
    ] = None
    memory_limit: Annotated[
        str | None,
        typer.Option("--memory-limit", help="DuckDB memory limit, e.g. 4GB (spills beyond)."),
    ] = None
    temp_dir: Annotated[
        Path | None, typer.Option("--temp-dir", help="Folder for DuckDB's spill files.")
    ] = None
    threads: Annotated[
        int | None, typer.Option("--threads", help="DuckDB worker threads.", min=1)
    ] = None

    def settings(self) -> dict[str, Any]:
        return {
            "memory_limit": self.memory_limit,
            "temp_dir": self.temp_dir,
            "threads": self.threads,
        }


@dataclasses.dataclass(frozen=True)
class EngineOpts:
    """Which engine runs the statements: DuckDB (default) or a Spark session."""

    engine: Annotated[
        str,
        typer.Option("--engine", help="duckdb (default) or spark (algorithms partition, aa, da)."),
    ] = "duckdb"
    spark_master: Annotated[
        str | None,
        typer.Option("--spark-master", help="Spark master URL (default local[2]; see README)."),
    ] = None
    spark_warehouse: Annotated[
        Path | None,
        typer.Option("--spark-warehouse", help="Folder of the Spark run's tables (Parquet)."),
    ] = None


def with_groups(**groups: type) -> Any:
    """Give a command the options of these groups: each keyword names the parameter that
    receives the group's dataclass; its fields become the command's own options."""

    def decorate(fn: Any) -> Any:
        sig = inspect.signature(fn)
        hints = typing.get_type_hints(fn, include_extras=True)
        added: list[inspect.Parameter] = []
        for cls in groups.values():
            cls_hints = typing.get_type_hints(cls, include_extras=True)
            for f in dataclasses.fields(cls):
                added.append(
                    inspect.Parameter(
                        f.name, inspect.Parameter.KEYWORD_ONLY, default=f.default,
                        annotation=cls_hints[f.name],
                    )
                )  # fmt: skip
                hints[f.name] = cls_hints[f.name]
        own = [
            p.replace(kind=inspect.Parameter.KEYWORD_ONLY)
            for name, p in sig.parameters.items()
            if name not in groups
        ]

        @functools.wraps(fn)
        def command(**kwargs: Any) -> Any:
            for name, cls in groups.items():
                kwargs[name] = cls(**{f.name: kwargs.pop(f.name) for f in dataclasses.fields(cls)})
            return fn(**kwargs)

        params = added + own
        command.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
        command.__annotations__ = {p.name: hints[p.name] for p in params if p.name in hints}
        return command

    return decorate


JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output on stdout.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress display or table.")]
K = Annotated[int, typer.Option("--k", "-k", help="Anonymity parameter k.", min=1)]
M = Annotated[
    int | None, typer.Option("--m", "-m", help="Adversary knowledge m (k^m-anonymity).", min=1)
]
RunOpt = Annotated[str | None, typer.Option("--run", help="A run stored in --db.")]
ReleaseOpt = Annotated[
    Path | None,
    typer.Option("--release", "-r", help="Release file (long tid,item or per transaction)."),
]


# -- shared steps -----------------------------------------------------------------------------------
def _console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def _warn(notes: list[str]) -> None:
    for note in notes:
        _console(stderr=True).print(f"[yellow]warning:[/] {note}")


def _usage(message: str) -> Any:
    from .errors import ParamsError

    return ParamsError(message)


def _inputs(src: SourceOpts, hier: HierOpts, dbo: DbOpts) -> list[Path | None]:
    """Every file a command reads, so that no output may name one of them."""
    return [src.source, hier.hierarchy, dbo.db]


def _open(src: SourceOpts, hier: HierOpts, dbo: DbOpts, *, read_only: bool = False) -> Any:
    """A store holding the command's dataset (and hierarchy), warnings printed."""
    from . import api

    if src.source is None and dbo.db is None:
        raise _usage("give an INPUT file, or --db holding a loaded dataset")
    store, notes = api.open_store(
        src.source,
        hierarchy_spec=hier.spec(),
        db=dbo.db,
        format=src.format,
        table=src.table,
        tid_col=src.tid_col,
        item_col=src.item_col,
        dataset=src.dataset,
        read_only=read_only,
        **dbo.settings(),
    )
    _warn(notes)
    return store


def _inspect(dbo: DbOpts, *, read_only: bool = True) -> Any:
    """A database of the tool's that must exist: opened read-only for inspection, or to write
    into a stored run (evaluate)."""
    from .errors import InputError
    from .store import Store

    if dbo.db is None:
        raise _usage("--db is required")
    if not Path(dbo.db).exists():
        raise InputError(f"no DuckDB database at {dbo.db}")
    store = Store(dbo.db, read_only=read_only, **dbo.settings())
    try:
        store.registry.require()
    except BaseException:
        store.close()
        raise
    return store


def _run_only(src: SourceOpts, hier: HierOpts, what: str) -> None:
    """A stored run is judged with its own dataset and hierarchy: refuse others."""
    if src.source is not None or src.dataset is not None or hier.spec() is not None:
        raise _usage(
            f"--run {what} uses the run's own dataset and hierarchy; give no INPUT, --dataset "
            "or hierarchy with it"
        )


def _emit(data: dict[str, Any], as_json: bool, title: str, *, quiet: bool = False) -> None:
    if as_json:
        typer.echo(json.dumps(data, default=str))
        return
    if quiet:
        return
    from rich.table import Table

    t = Table(title=title, show_header=False)
    for key, value in data.items():
        if isinstance(value, dict):
            value = ", ".join(f"{a}={b}" for a, b in value.items())
        t.add_row(key, f"{value:.6g}" if isinstance(value, float) else str(value))
    _console().print(t)


def _rows(rows: list[dict[str, Any]], as_json: bool, title: str, columns: list[str]) -> None:
    if as_json:
        typer.echo(json.dumps(rows, default=str))
        return
    from rich.table import Table

    t = Table(*columns, title=title)
    for r in rows:
        t.add_row(*[_cell(r.get(c)) for c in columns])
    _console().print(t)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (dict, list)):
        return json.dumps(value, default=str)
    return str(value)


def _options(pairs: list[str]) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise _usage(f"--option wants key=value, got {pair!r}")
        if key.strip() in opts:
            raise _usage(f"--option {key.strip()} given twice")
        opts[key.strip()] = value
    return opts


# -- commands ----------------------------------------------------------------------------------------
@app.command("load")
@with_groups(src=SourceOpts, hier=HierOpts, dbo=DbOpts)
def load_cmd(
    src: SourceOpts, hier: HierOpts, dbo: DbOpts, as_json: JsonOpt = False, quiet: QuietOpt = False
) -> None:
    """Load transactions (and a hierarchy) into a DuckDB file as a dataset for later runs.

    Loading the same source again reuses its dataset; a changed source becomes a new one."""
    if dbo.db is None or src.source is None:
        raise _usage("load needs an INPUT file and --db")
    store = _open(src, hier, dbo)
    try:
        data = {
            "dataset": store.dataset.id,
            "schema": store.dataset.schema,
            "source": store.dataset.source,
            **store.stats(),
            "hierarchy": store.hierarchy.id if store.hierarchy else None,
        }
    finally:
        store.close()
    _emit(data, as_json, f"dataset in {dbo.db}", quiet=quiet)


@app.command("datasets")
@with_groups(dbo=DbOpts)
def datasets_cmd(dbo: DbOpts, as_json: JsonOpt = False) -> None:
    """List the datasets stored in a DuckDB file, with their hierarchies and runs."""
    cols = ["dataset_id", "kind", "schema_name", "source", "format", "rows", "hierarchies", "runs"]
    _listing(dbo, "list_datasets", cols, as_json)


@app.command("runs")
@with_groups(dbo=DbOpts)
def runs_cmd(
    dbo: DbOpts,
    spark_warehouse: Annotated[
        Path | None,
        typer.Option("--spark-warehouse", help="List the Spark runs of this warehouse instead."),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """List the runs stored in a DuckDB file: transactional and table runs, their dataset,
    parameters, status and time; or the Spark runs of a warehouse, with their tables."""
    if spark_warehouse is not None:
        if dbo.db is not None:
            raise _usage("give --db or --spark-warehouse, not both")
        from .spark_run import list_runs

        cols = ["name", "algorithm", "k", "engine", "search_s", "tables"]
        _rows(list_runs(spark_warehouse), as_json, f"Spark runs in {spark_warehouse}", cols)
        return
    cols = ["name", "kind", "algorithm", "dataset_id", "params", "status", "started", "seconds"]
    _listing(dbo, "list_runs", cols, as_json)


def _listing(dbo: DbOpts, fetch: str, columns: list[str], as_json: bool) -> None:
    """Print what one of the api's list functions returns for a database, opened read-only."""
    from . import api

    store = _inspect(dbo)
    try:
        rows = getattr(api, fetch)(store)
    finally:
        store.close()
    _rows(rows, as_json, f"{fetch.removeprefix('list_')} in {dbo.db}", columns)


@app.command("anonymize")
@with_groups(src=SourceOpts, hier=HierOpts, dbo=DbOpts, eng=EngineOpts)
def anonymize_cmd(
    src: SourceOpts,
    hier: HierOpts,
    dbo: DbOpts,
    eng: EngineOpts,
    algorithm: Annotated[
        str, typer.Option("--algorithm", "-a", help="Algorithm name (see `setanon algorithms`).")
    ] = "aa",
    k: K = 10,
    m: M = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Release file: .csv or .parquet.")
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
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Anonymize transactions; the release is verified before it is written."""
    from . import api, release
    from .params import Params
    from .progress import cli_progress

    if eng.engine == "spark":  # before Params, whose complaints are about other algorithms
        from .spark_run import check_algorithm

        check_algorithm(algorithm)
    params = Params(
        algorithm=algorithm,
        k=k,
        m=m,
        keep_intermediate=keep,
        run_name=run,
        replace=replace,
        options=_options(option or []),
    )
    if eng.engine == "duckdb" and (eng.spark_master or eng.spark_warehouse):
        raise _usage("--spark-master and --spark-warehouse go with --engine spark")
    if eng.engine != "duckdb":
        return _anonymize_spark(
            src, hier, dbo, eng, params, output, sql_log, as_json, quiet,
            per_transaction=per_transaction, output_table=output_table,
        )  # fmt: skip
    inputs = _inputs(src, hier, dbo)
    if output is not None:
        release.check_output(output, inputs)
    if sql_log is not None:
        release.check_output(sql_log, inputs, fmt="sql", formats=("sql",))
    if output_table is not None and dbo.db is None:
        raise _usage("--output-table needs --db (a table of an in-memory database is lost)")
    store = _open(src, hier, dbo)
    try:
        target = (
            release.output_table_target(store, output_table, replace=replace)
            if output_table
            else None
        )
        show = not quiet and not as_json and sys.stderr.isatty()
        with cli_progress(show) as progress:
            result = api.anonymize(store, params, progress=progress)
        with store.in_run(result.run) as row:
            if output is not None:
                release.write_release(store, output, per_transaction=per_transaction)
            if target is not None:
                release.write_table(store, target, row["run_id"], per_transaction=per_transaction)
        if sql_log is not None:
            release.write_text_atomic(sql_log, store.replay_script(result.run))
    finally:
        store.close()
    summary = _run_summary(result, output, output_table=output_table)
    _emit(summary, as_json, "release (verified)", quiet=quiet)


def _run_summary(result: Any, output: Path | None, **extra: Any) -> dict[str, Any]:
    """What `anonymize` prints of a verified run, on either engine."""
    return {
        "run": result.run,
        "algorithm": result.algorithm,
        "k": result.params.k,
        "m": result.params.m,
        "release": "multiset" if result.multiset else "set",
        "seconds": round(result.seconds, 3),
        "ncp": result.loss["ncp"],
        "lm": result.loss["lm"],
        "suppressed": result.loss["suppressed"],
        "verified": result.report.ok,
        "output": str(output) if output else None,
        **extra,
        **result.info,
    }


def _anonymize_spark(
    src: SourceOpts,
    hier: HierOpts,
    dbo: DbOpts,
    eng: EngineOpts,
    params: Any,
    output: Path | None,
    sql_log: Path | None,
    as_json: bool,
    quiet: bool,
    *,
    per_transaction: bool,
    output_table: str | None,
) -> None:
    """`anonymize --engine spark`: the run in a Spark database, the release a Parquet folder."""
    from . import spark_run

    spark_run.check_options(
        engine=eng.engine, algorithm=params.algorithm, db=dbo.db, source=src.source,
        table=src.table, hierarchy=hier.spec(), output=output, run=params.run_name,
        source_format=src.format, dataset=src.dataset, output_table=output_table,
        memory_limit=dbo.memory_limit, threads=dbo.threads, temp_dir=dbo.temp_dir,
        per_transaction=per_transaction,
    )  # fmt: skip
    source = spark_run.SparkSource(
        path=src.source if src.table is None else None,
        table=src.table,
        tid_col=src.tid_col,
        item_col=src.item_col,
    )
    result, notes = spark_run.anonymize_source(
        source, hier.spec(), params, master=eng.spark_master or "local[2]",
        warehouse=eng.spark_warehouse,
        output=output, per_transaction=per_transaction, sql_log=sql_log,
    )  # fmt: skip
    _warn(notes)
    _emit(_run_summary(result, output, engine="spark"), as_json, "release (verified)", quiet=quiet)


@app.command("verify")
@with_groups(src=SourceOpts, hier=HierOpts, dbo=DbOpts)
def verify_cmd(
    src: SourceOpts,
    hier: HierOpts,
    dbo: DbOpts,
    k: Annotated[
        int | None,
        typer.Option("--k", "-k", help="Anonymity parameter k (default: the run's).", min=1),
    ] = None,
    m: M = None,
    model: Annotated[
        str | None,
        typer.Option("--model", help="k (transactional) or km; default km when --m is given."),
    ] = None,
    release_file: ReleaseOpt = None,
    run: RunOpt = None,
    allow_suppression: Annotated[
        bool, typer.Option("--allow-suppression", help="Items may be missing from the release.")
    ] = False,
    multiset: Annotated[
        bool, typer.Option("--multiset", help="The release may repeat a node in a transaction.")
    ] = False,
    show: Annotated[int, typer.Option("--show", help="How many offending rows to print.")] = 10,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Check a release file, a stored run, or (with neither) the data itself for k- or
    k^m-anonymity. Exit code 1 when anything is violated; the offending rows are printed."""
    from . import api
    from .verify import violations

    if model is not None and model not in ("k", "km"):
        raise _usage(f"--model must be k or km, got {model!r}")
    if run is not None:
        _run_only(src, hier, "verify")
        store = _inspect(dbo)
    else:
        store = _open(src, hier, dbo)
    try:
        report = api.verify_release(
            store,
            k=k,
            model=model,
            m=m,
            release=release_file,
            run=run,
            allow_suppression=allow_suppression or None,
            multiset=multiset or None,
        )
        names = ["violations_validity", "violations_k" if report.model == "k" else "violations_km"]
        with store.in_run(run, scratch=True) if run else store.scratch():
            shown = {n: violations(store, n, show) for n in names}
    finally:
        store.close()
    data = report.as_dict()
    if as_json:
        typer.echo(json.dumps(data | {"examples": shown}, default=str))
    elif not quiet:
        _emit(
            {key: v for key, v in data.items() if key != "schema"},
            False,
            "verification: " + ("passed" if report.ok else "FAILED"),
        )
        for name, rows in shown.items():
            if rows:
                _rows(rows, False, f"{name} (first {len(rows)})", list(rows[0]))
    raise typer.Exit(0 if report.ok else 1)


@app.command("metrics")
@with_groups(src=SourceOpts, hier=HierOpts, dbo=DbOpts)
def metrics_cmd(
    src: SourceOpts,
    hier: HierOpts,
    dbo: DbOpts,
    release_file: ReleaseOpt = None,
    run: RunOpt = None,
    multiset: Annotated[
        bool, typer.Option("--multiset", help="Each released copy stands for one item.")
    ] = False,
    per_copy: Annotated[
        bool,
        typer.Option(
            "--per-copy",
            help="Match every released copy to one original item (unmatched items suppressed).",
        ),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Information loss of a release file or a stored run: NCP, LM and suppressed items."""
    from . import api

    if run is not None:
        _run_only(src, hier, "metrics")
        store = _inspect(dbo)
    else:
        store = _open(src, hier, dbo)
    try:
        loss = api.release_metrics(
            store, release=release_file, run=run, multiset=multiset or None, per_copy=per_copy
        )
    finally:
        store.close()
    _emit(loss, as_json, "information loss")


@app.command("algorithms")
def algorithms_cmd(
    name: Annotated[str | None, typer.Argument(help="Show this algorithm's options.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """List the algorithms and the privacy model each one guarantees, or one's options."""
    from .algorithms import ALGORITHMS, get

    chosen = [get(name)] if name else list(ALGORITHMS.values())
    rows = [
        {
            "name": a.name,
            "model": "k^m" if a.model == "km" else "k",
            "needs_m": a.needs_m,
            "summary": a.summary,
            "options": [o.describe() for o in a.options],
        }
        for a in chosen
    ]
    if as_json:
        typer.echo(json.dumps(rows))
        return
    if name is None:
        _rows(rows, False, "algorithms", ["name", "model", "needs_m", "summary"])
        return
    row = rows[0]
    typer.echo(f"{row['name']}: {row['summary']} (model {row['model']})")
    typer.echo("options (--option key=value):" if row["options"] else "no options")
    for line in row["options"]:
        typer.echo(f"  {line}")


@app.command("sql")
@with_groups(dbo=DbOpts)
def sql_cmd(
    dbo: DbOpts,
    name: Annotated[str | None, typer.Argument(help="A statement name from sql/.")] = None,
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
    from . import sqlfiles

    if spark_warehouse is not None and (run is None or dbo.db is not None):
        raise _usage("--spark-warehouse goes with --run (a Spark run), not with --db")
    if run is not None:
        if name is not None:
            raise _usage("give a statement NAME or --run, not both")
        if spark_warehouse is not None:
            from .spark_run import log_script

            typer.echo(log_script(spark_warehouse, run), nl=False)
            typer.echo(
                f"note: {run} ran on Spark; this is its log, replay is DuckDB-only", err=True
            )
            return
        store = _inspect(dbo)
        try:
            typer.echo(store.replay_script(run), nl=False)
        finally:
            store.close()
        return
    statements = sqlfiles.statements()
    if name is None:
        rows = [{"name": s.name, "file": s.file, "doc": s.doc} for s in statements.values()]
        _rows(rows, False, "named statements", ["name", "file", "doc"])
        return
    if name not in statements:
        raise _usage(f"no statement {name!r}; `setanon sql` lists them")
    st = statements[name]
    typer.echo(f"-- {st.name} ({st.file}): {st.doc}\n{st.sql};")


@hierarchy_app.command("build")
@with_groups(src=SourceOpts)
def hierarchy_build(
    src: SourceOpts,
    output: Annotated[Path, typer.Option("--output", "-o", help="child,parent CSV to write.")],
    fanout: Annotated[
        int | None, typer.Option("--fanout", help="Balanced fan-out over the items.", min=2)
    ] = None,
    code_prefix: Annotated[
        bool, typer.Option("--code-prefix", help="Drop trailing code digits level by level.")
    ] = False,
    order: Annotated[
        str | None,
        typer.Option("--order", help="Leaf order for --fanout: support (default) or id."),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Build a balanced fan-out (leaves by id or by support) or a code-prefix hierarchy over the
    data's items."""
    from . import api, hierarchy, release

    if src.source is None:
        raise _usage("hierarchy build needs the transactions file")
    if (fanout is None) == (not code_prefix):
        raise _usage("give exactly one of --fanout F or --code-prefix")
    release.check_output(output, [src.source], fmt="csv", formats=("csv",))
    store = _open(src, HierOpts(), DbOpts())
    try:
        spec = api.HierarchySpec(fanout=fanout, code_prefix=code_prefix, order=order)
        spec.check()
        h = spec.build(store)
    finally:
        store.close()
    hierarchy.write_csv(h, output)
    _emit(hierarchy.describe(h) | {"output": str(output)}, as_json, "hierarchy written")


@hierarchy_app.command("check")
def hierarchy_check(
    path: Annotated[Path, typer.Argument(help="Hierarchy file.")],
    data: Annotated[
        Path | None, typer.Option("--data", help="Also check it covers these transactions.")
    ] = None,
    hierarchy_format: Annotated[
        str | None, typer.Option("--hierarchy-format", help="csv or paths.")
    ] = None,
    fmt: Annotated[str | None, typer.Option("--format", help="Format of --data.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Validate a hierarchy (one root, no cycles, one parent each) and that it covers the data."""
    from . import hierarchy

    h = hierarchy.read(path, hierarchy_format)
    if data is not None:
        hier = HierOpts(hierarchy=path, hierarchy_format=hierarchy_format)
        _open(SourceOpts(source=data, format=fmt), hier, DbOpts()).close()
    _warn(h.warnings)
    _emit(hierarchy.describe(h) | {"covers data": bool(data)}, as_json, f"{path}: valid")


@hierarchy_app.command("show")
def hierarchy_show(
    path: Annotated[Path, typer.Argument(help="Hierarchy file.")],
    depth: Annotated[int, typer.Option("--depth", help="Levels to print below the root.")] = 2,
    hierarchy_format: Annotated[
        str | None, typer.Option("--hierarchy-format", help="csv or paths.")
    ] = None,
) -> None:
    """Print the top levels of a hierarchy as a tree, with leaf counts."""
    from rich.markup import escape
    from rich.tree import Tree

    from . import hierarchy

    h = hierarchy.read(path, hierarchy_format)
    trees = {0: Tree(f"{escape(h.labels[0])} [dim]({h.leaf_count[0]} leaves)[/]")}
    for i in range(1, h.size):
        if h.depth[i] <= depth:
            note = "" if h.is_leaf(i) else f" [dim]({h.leaf_count[i]} leaves)[/]"
            trees[i] = trees[h.parent[i]].add(f"{escape(h.labels[i])}{note}")
    _console().print(trees[0])


def _taxonomies(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        column, sep, spec = pair.partition("=")
        if not sep or not column or not spec:
            raise _usage(f"--taxonomy wants column=FILE or column=SPEC, got {pair!r}")
        out[column] = spec
    return out


@app.command("anonymize-table")
@with_groups(dbo=DbOpts)
def anonymize_table_cmd(
    dbo: DbOpts,
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
            "fanout:F, widths:W1,W2,... or edges:E1,E2,...;E1,... for numeric columns, or "
            "median or median:N (data-driven intervals: Mondrian's median cuts, none under N "
            "rows).",
        ),
    ],
    k: K = 10,
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
    run: Annotated[str | None, typer.Option("--run", help="Name of the run's schema.")] = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="Replace a run the tool made before.")
    ] = False,
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
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """k-anonymize a table's quasi-identifier columns by greedy set cover over closed frequent
    generalized records (Kenig & Tassa); the release is verified before it is written."""
    from . import release
    from .relational import COVER_CAP, MINE_BEAM, anonymize_table, export
    from .store import Store

    if output is not None:
        taxonomy_files = [Path(s) for _, s in _taxonomies(taxonomy).items() if Path(s).is_file()]
        release.check_output(output, [source, dbo.db, *taxonomy_files])
    store = Store(dbo.db, **dbo.settings())
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
            improve=not no_improve,
            mine_beam=MINE_BEAM if mine_beam is None else (mine_beam or None),
            cover_cap=COVER_CAP if cover_cap is None else (cover_cap or None),
        )
        if output is not None:
            export(store, result, output)
    finally:
        store.close()
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


# -- the entry point ---------------------------------------------------------------------------------
def _say(message: str) -> None:
    typer.echo(f"error: {message}", err=True)


def _interrupted() -> int:
    from .errors import ExitCode
    from .interrupts import was_terminated

    if was_terminated():
        _say("terminated")
        return int(ExitCode.TERMINATED)
    _say("interrupted")
    return int(ExitCode.INTERRUPTED)


def run_cli(args: list[str] | None = None) -> int:
    """Run the command line and return its exit code: one line per error, a traceback only
    with --debug, a documented code for every outcome."""
    from .errors import ExitCode, SetAnonError

    debug = "--debug" in (sys.argv[1:] if args is None else args)
    try:
        code = int(app(prog_name="setanon", args=args, standalone_mode=False) or 0)
        # typer turns Ctrl-C (and our SIGTERM) into exit code 130 after every cleanup ran
        return _interrupted() if code == int(ExitCode.INTERRUPTED) else code
    except typer.Abort:
        return _interrupted()
    except typer.exceptions.TyperException as e:  # click's usage errors
        show = getattr(e, "show", None)
        show() if show else _say(str(e))
        return int(ExitCode.USAGE)
    except SetAnonError as e:
        if debug:
            import traceback

            traceback.print_exc()
        _say(str(e))
        return int(e.exit_code)
    except KeyboardInterrupt:
        return _interrupted()
    except Exception as e:  # noqa: BLE001 - a bug still gets one line and a code
        if debug:
            import traceback

            traceback.print_exc()
        first = (str(e).strip().splitlines() or [type(e).__name__])[0]
        _say(f"internal error ({type(e).__name__}): {first} (run with --debug for the traceback)")
        return int(ExitCode.INTERNAL)


def main() -> None:
    """Console entry: route SIGTERM first (before any DuckDB connection), then run."""
    from .interrupts import guard

    guard()
    sys.exit(run_cli())


from . import cli_eval  # noqa: E402, F401 - registers evaluate, report, compare, sweep, synth
