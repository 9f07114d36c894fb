"""The `setanon` command line: parse, build Params, make one library call, print."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.tree import Tree

from . import api, hierarchy, load, sqlfiles
from .errors import ExitCode, SetAnonError
from .params import Params
from .progress import cli_progress
from .relational import anonymize_table, export
from .store import Store

app = typer.Typer(
    help="Anonymize set-valued data (baskets, click streams, code sets) with SQL in DuckDB.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
hierarchy_app = typer.Typer(help="Build, check and show item hierarchies.", no_args_is_help=True)
app.add_typer(hierarchy_app, name="hierarchy")
out = Console()
err = Console(stderr=True)

Input = Annotated[
    Path | None,
    typer.Argument(help="Transactions: SPMF/lines .txt, long tid,item .csv, .parquet or .duckdb."),
]
Db = Annotated[
    Path | None, typer.Option("--db", help="DuckDB file to use or create (default: in memory).")
]
Fmt = Annotated[str | None, typer.Option("--format", help="spmf, lines, csv, parquet or duckdb.")]
TableOpt = Annotated[str | None, typer.Option("--table", help="Table of a DuckDB input file.")]
TidCol = Annotated[str, typer.Option("--tid-col", help="Transaction id column.")]
ItemCol = Annotated[str, typer.Option("--item-col", help="Item column (or a LIST column).")]
Hier = Annotated[
    Path | None, typer.Option("--hierarchy", "-H", help="child,parent CSV or leaf;...;root file.")
]
HierFmt = Annotated[str | None, typer.Option("--hierarchy-format", help="csv or paths.")]
Fanout = Annotated[
    int | None, typer.Option("--fanout", help="Build a balanced hierarchy of this fan-out.")
]
Prefix = Annotated[
    bool, typer.Option("--code-prefix", help="Build a hierarchy by dropping trailing code digits.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable output on stdout.")]
K = Annotated[int, typer.Option("--k", "-k", help="Anonymity parameter k.")]
M = Annotated[int | None, typer.Option("--m", "-m", help="Adversary knowledge m (k^m-anonymity).")]


def _fail(e: SetAnonError) -> None:
    err.print(f"[bold red]error:[/] {e}", highlight=False, soft_wrap=True)
    raise typer.Exit(int(e.exit_code))


def _spec(
    path: Path | None, fmt: str | None, fanout: int | None, prefix: bool
) -> api.HierarchySpec | None:
    if path is None and fanout is None and not prefix:
        return None
    return api.HierarchySpec(path=path, format=fmt, fanout=fanout, code_prefix=prefix)


def _open(source, db, fmt, table, tid_col, item_col, spec) -> Any:
    store, notes = api.open_store(
        source,
        hierarchy_spec=spec,
        db=db,
        format=fmt,
        table=table,
        tid_col=tid_col,
        item_col=item_col,
    )
    for note in notes:
        err.print(f"[yellow]warning:[/] {note}", highlight=False)
    return store


def _emit(data: dict[str, Any], as_json: bool, title: str) -> None:
    if as_json:
        out.print_json(json.dumps(data, default=str))
        return
    t = Table(title=title, show_header=False)
    for key, value in data.items():
        t.add_row(key, f"{value:.6g}" if isinstance(value, float) else str(value))
    out.print(t)


@app.command("load")
def load_cmd(
    source: Annotated[Path, typer.Argument(help="Transactions file (see `anonymize --help`).")],
    db: Annotated[
        Path, typer.Option("--db", help="DuckDB file to load into (created if missing).")
    ],
    fmt: Fmt = None,
    table: TableOpt = None,
    tid_col: TidCol = "tid",
    item_col: ItemCol = "item",
    as_json: JsonOpt = False,
) -> None:
    """Load transactions into a DuckDB file (schema `setanon`) for later runs."""
    try:
        with Store(db) as store:
            summary = load.load(
                store, source, format=fmt, table=table, tid_col=tid_col, item_col=item_col
            )
    except SetAnonError as e:
        _fail(e)
    _emit(vars(summary), as_json, f"loaded into {db}")


@app.command("anonymize")
def anonymize_cmd(
    source: Input = None,
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
    hier: Hier = None,
    hier_fmt: HierFmt = None,
    fanout: Fanout = None,
    prefix: Prefix = False,
    db: Db = None,
    fmt: Fmt = None,
    table: TableOpt = None,
    tid_col: TidCol = "tid",
    item_col: ItemCol = "item",
    run: Annotated[str | None, typer.Option("--run", help="Name of the run's schema.")] = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="Replace a run or table of the same name.")
    ] = False,
    keep: Annotated[
        bool, typer.Option("--keep-intermediate", help="Keep every per-level table.")
    ] = False,
    option: Annotated[
        list[str] | None, typer.Option("--option", help="Algorithm option key=value.")
    ] = None,
    sql_log: Annotated[
        Path | None, typer.Option("--sql-log", help="Write every SQL statement run to this file.")
    ] = None,
    as_json: JsonOpt = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress display.")] = False,
) -> None:
    """Anonymize transactions; the release is verified before it is written."""
    from . import release

    try:
        params = Params(
            algorithm=algorithm,
            k=k,
            m=m,
            keep_intermediate=keep,
            run_name=run,
            replace=replace,
            options=_options(option or []),
        )
        store = _open(
            source, db, fmt, table, tid_col, item_col, _spec(hier, hier_fmt, fanout, prefix)
        )
        try:
            with cli_progress(not quiet and not as_json and sys.stderr.isatty()) as progress:
                result = api.anonymize(store, params, progress=progress)
            with store.in_run(result.run):
                if output is not None:
                    release.write_release(store, output, per_transaction=per_transaction)
                if output_table is not None:
                    release.write_table(
                        store, output_table, per_transaction=per_transaction, replace=replace
                    )
        finally:
            if sql_log is not None:
                store.write_sql_log(sql_log)
            store.close()
    except SetAnonError as e:
        _fail(e)
    summary = {
        "run": result.run,
        "algorithm": result.algorithm,
        "k": k,
        "m": m,
        "seconds": round(result.seconds, 3),
        "ncp": result.loss["ncp"],
        "lm": result.loss["lm"],
        "suppressed": result.loss["suppressed"],
        "verified": result.report.ok,
        "output": str(output) if output else None,
        **result.info,
    }
    _emit(summary, as_json, "release (verified)")


def _options(pairs: list[str]) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise typer.BadParameter(f"--option wants key=value, got {pair!r}")
        try:
            opts[key] = json.loads(value)
        except json.JSONDecodeError:
            opts[key] = value
    return opts


@app.command("verify")
def verify_cmd(
    source: Input = None,
    k: K = 10,
    m: M = None,
    model: Annotated[
        str | None,
        typer.Option("--model", help="k (transactional) or km; default km when --m is given."),
    ] = None,
    release_file: Annotated[
        Path | None, typer.Option("--release", "-r", help="Release file (long tid,item labels).")
    ] = None,
    run: Annotated[
        str | None, typer.Option("--run", help="Verify the release of a run stored in --db.")
    ] = None,
    allow_suppression: Annotated[
        bool, typer.Option("--allow-suppression", help="Items may be missing from the release.")
    ] = False,
    multiset: Annotated[
        bool, typer.Option("--multiset", help="The release may repeat a node in a transaction.")
    ] = False,
    show: Annotated[int, typer.Option("--show", help="How many offending rows to print.")] = 10,
    hier: Hier = None,
    hier_fmt: HierFmt = None,
    fanout: Fanout = None,
    prefix: Prefix = False,
    db: Db = None,
    fmt: Fmt = None,
    table: TableOpt = None,
    tid_col: TidCol = "tid",
    item_col: ItemCol = "item",
    as_json: JsonOpt = False,
) -> None:
    """Check a release (or, with no --release/--run, the data itself) for k- or k^m-anonymity.

    Exit code 1 when anything is violated; the offending rows are printed.
    """
    from .verify import violations

    model = model or ("km" if m else "k")
    try:
        store = _open(
            source, db, fmt, table, tid_col, item_col, _spec(hier, hier_fmt, fanout, prefix)
        )
        try:
            report = api.verify_release(
                store,
                k=k,
                model=model,
                m=m,
                release=release_file,
                run=run,
                allow_suppression=allow_suppression,
                multiset=multiset,
            )
            with store.in_run(report.schema):
                names = ["violations_validity", "violations_k" if model == "k" else "violations_km"]
                shown = {n: violations(store, n, show) for n in names}
        finally:
            store.close()
    except SetAnonError as e:
        _fail(e)
    data = report.as_dict()
    if as_json:
        out.print_json(json.dumps(data | {"examples": shown}, default=str))
    else:
        _emit(
            {key: v for key, v in data.items() if key != "schema"},
            False,
            "verification: " + ("passed" if report.ok else "FAILED"),
        )
        for name, rows in shown.items():
            if rows:
                t = Table(title=f"{name} (first {len(rows)})")
                for c in rows[0]:
                    t.add_column(c)
                for r in rows:
                    t.add_row(
                        *[
                            ", ".join(map(str, v)) if isinstance(v, list) else str(v)
                            for v in r.values()
                        ]
                    )
                out.print(t)
    raise typer.Exit(int(ExitCode.OK if report.ok else ExitCode.VIOLATED))


@app.command("metrics")
def metrics_cmd(
    source: Input = None,
    release_file: Annotated[
        Path | None, typer.Option("--release", "-r", help="Release file (long tid,item labels).")
    ] = None,
    run: Annotated[str | None, typer.Option("--run", help="A run stored in --db.")] = None,
    multiset: Annotated[
        bool, typer.Option("--multiset", help="Each released copy stands for one item.")
    ] = False,
    hier: Hier = None,
    hier_fmt: HierFmt = None,
    fanout: Fanout = None,
    prefix: Prefix = False,
    db: Db = None,
    fmt: Fmt = None,
    table: TableOpt = None,
    tid_col: TidCol = "tid",
    item_col: ItemCol = "item",
    as_json: JsonOpt = False,
) -> None:
    """Information loss of a release: NCP, LM and suppressed item instances."""
    try:
        store = _open(
            source, db, fmt, table, tid_col, item_col, _spec(hier, hier_fmt, fanout, prefix)
        )
        try:
            loss = api.release_metrics(store, release=release_file, run=run, multiset=multiset)
        finally:
            store.close()
    except SetAnonError as e:
        _fail(e)
    _emit(loss, as_json, "information loss")


@app.command("algorithms")
def algorithms_cmd(as_json: JsonOpt = False) -> None:
    """List the algorithms and the privacy model each one guarantees."""
    from .algorithms import ALGORITHMS

    rows = [
        {
            "name": a.name,
            "model": "k^m" if a.model == "km" else "k",
            "needs_m": a.needs_m,
            "summary": a.summary,
        }
        for a in ALGORITHMS.values()
    ]
    if as_json:
        out.print_json(json.dumps(rows))
        return
    t = Table("name", "model", "needs m", "summary")
    for r in rows:
        t.add_row(r["name"], r["model"], str(r["needs_m"]), r["summary"])
    out.print(t)


@app.command("sql")
def sql_cmd(
    step: Annotated[
        str | None, typer.Argument(help="A statement name from sql/, or a step of --run.")
    ] = None,
    db: Db = None,
    run: Annotated[
        str | None, typer.Option("--run", help="Print the SQL a stored run executed.")
    ] = None,
) -> None:
    """Print SQL: a named statement of sql/, the list of them, or the steps a run executed."""
    try:
        if run is not None:
            if db is None:
                raise typer.BadParameter("--run needs --db")

            with Store(db) as store:
                entries = api.run_sql_log(store, run, step)
            for seq, name, sql, params in entries:
                typer.echo(f"-- {seq}: {name}" + (f"  params: {params}" if params else ""))
                typer.echo(sql.rstrip().rstrip(";") + ";\n")  # never wrapped: it must paste
            return
        statements = sqlfiles.statements()
        if step is None:
            t = Table("name", "file", "what it holds")
            for st in statements.values():
                t.add_row(st.name, st.file, st.doc)
            out.print(t)
            return
        if step not in statements:
            raise typer.BadParameter(f"no statement {step!r}; `setanon sql` lists them")
        st = statements[step]
        typer.echo(f"-- {st.name} ({st.file}): {st.doc}\n{st.sql};")
    except SetAnonError as e:
        _fail(e)


@app.command("runs")
def runs_cmd(
    db: Annotated[Path, typer.Option("--db", help="DuckDB file.")], as_json: JsonOpt = False
) -> None:
    """List the runs stored in a DuckDB file, with their parameters."""

    try:
        with Store(db) as store:
            runs = api.list_runs(store)
    except SetAnonError as e:
        _fail(e)
    if as_json:
        out.print_json(json.dumps(runs, default=str))
        return
    t = Table("run", "tables", "parameters")
    for r in runs:
        t.add_row(
            r["run"], ", ".join(r["tables"]), ", ".join(f"{a}={b}" for a, b in r["info"].items())
        )
    out.print(t)


@hierarchy_app.command("build")
def hierarchy_build(
    source: Annotated[Path, typer.Argument(help="Transactions whose items the hierarchy covers.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="child,parent CSV to write.")],
    fanout: Fanout = None,
    prefix: Prefix = False,
    fmt: Fmt = None,
    table: TableOpt = None,
    tid_col: TidCol = "tid",
    item_col: ItemCol = "item",
) -> None:
    """Build a balanced fan-out or a code-prefix hierarchy over the data's items."""
    try:
        if (fanout is None) == (not prefix):
            raise typer.BadParameter("give exactly one of --fanout F or --code-prefix")
        store = _open(source, None, fmt, table, tid_col, item_col, None)
        try:
            h = api.HierarchySpec(fanout=fanout, code_prefix=prefix).build(store.item_labels())
        finally:
            store.close()
        hierarchy.write_csv(h, output)
    except SetAnonError as e:
        _fail(e)
    _emit(hierarchy.describe(h), False, f"hierarchy written to {output}")


@hierarchy_app.command("check")
def hierarchy_check(
    path: Annotated[Path, typer.Argument(help="Hierarchy file.")],
    data: Annotated[
        Path | None, typer.Option("--data", help="Also check it covers these transactions.")
    ] = None,
    hier_fmt: HierFmt = None,
    fmt: Fmt = None,
    as_json: JsonOpt = False,
) -> None:
    """Validate a hierarchy (one root, no cycles, one parent each) and that it covers the data."""
    try:
        h = hierarchy.read(path, hier_fmt)
        if data is not None:
            _open(
                data, None, fmt, None, "tid", "item", api.HierarchySpec(path=path, format=hier_fmt)
            ).close()
    except SetAnonError as e:
        _fail(e)
    for w in h.warnings:
        err.print(f"[yellow]warning:[/] {w}", highlight=False)
    _emit(hierarchy.describe(h) | {"covers data": bool(data)}, as_json, f"{path}: valid")


@hierarchy_app.command("show")
def hierarchy_show(
    path: Annotated[Path, typer.Argument(help="Hierarchy file.")],
    depth: Annotated[int, typer.Option("--depth", help="Levels to print below the root.")] = 2,
    hier_fmt: HierFmt = None,
) -> None:
    """Print the top levels of a hierarchy as a tree, with leaf counts."""
    try:
        h = hierarchy.read(path, hier_fmt)
    except SetAnonError as e:
        _fail(e)
    trees = {0: Tree(f"{h.labels[0]} [dim]({h.leaf_count[0]} leaves)[/]")}
    for i in range(1, h.size):
        if h.depth[i] <= depth:
            note = "" if h.is_leaf(i) else f" [dim]({h.leaf_count[i]} leaves)[/]"
            trees[i] = trees[h.parent[i]].add(f"{h.labels[i]}{note}")
    out.print(trees[0])


def _taxonomies(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        column, sep, spec = pair.partition("=")
        if not sep or not column or not spec:
            raise typer.BadParameter(f"--taxonomy wants column=FILE or column=SPEC, got {pair!r}")
        out[column] = spec
    return out


@app.command("anonymize-table")
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
        _fail(e)
    summary = {**result.as_dict(), "output": str(output) if output else None}
    if as_json:
        typer.echo(json.dumps(summary, default=str))
        return
    typer.echo(
        f"release (verified): {summary['rows']} rows, {summary['clusters']} clusters, "
        f"LM {summary['lm']:.4f}, {summary['seconds']} s, run {summary['run']}"
        + (f", written to {output}" if output else "")
    )


def main() -> None:
    """Console entry: an unexpected DuckDB error is a bug, but still one clear line and a code."""
    import duckdb

    try:
        app(prog_name="setanon")
    except duckdb.Error as e:
        err.print(
            f"[bold red]internal error[/] (please report): {str(e).splitlines()[0]}",
            highlight=False,
            soft_wrap=True,
        )
        sys.exit(int(ExitCode.INTERNAL))
