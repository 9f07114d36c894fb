"""A run on Spark: load Parquet (or a Spark table), build the hierarchy's tables, run Partition,
verify and measure, with the same named statements and drivers as on DuckDB.

Where things live: a Spark run has no DuckDB registry. Everything it makes is a table of one
Spark database named after the run (`--run`, default `run_partition_k<k>`): the dataset's `tids` and `tx_raw`, the hierarchy's
`node`, `closure` and `tx`, Partition's intermediate tables (with `keep_intermediate`), the
`release`, the verifier's `violations_*`, `run_info` and the `sql_log` of every Spark statement.
With Spark's default (in-memory) catalog they are Parquet folders under the warehouse,
`<warehouse>/<run>.db/<table>`, readable by Spark, DuckDB or pyarrow after the run.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import runs
from .algorithms import get, on_engine
from .api import Result, checked_release, finished, run_info
from .engine import ddl, interrupts
from .engine.contract import Forwarding
from .engine.log import Logged, Rows
from .engine.spark import SparkExecutor, shuffle_partitions
from .engine.spark_warehouse import ASIDE, STAGING, lock_held, lock_path
from .errors import InputError, ParamsError
from .params import Params
from .progress import Progress, quiet
from .store.dataset import _check_problems, check_covers, node_columns, save_log
from .store.hierarchy import Hierarchy, natural_key
from .store.hierarchy_spec import HierarchySpec
from .store.sources import nested_column

ALGORITHMS = on_engine("spark")  # those that declare it (`Algorithm.engines`)
SOURCE_VIEW = "source_input"
_NESTED = ("struct<", "map<", "array<")  # Spark's simple names of nested types
NODE_TYPES = {
    "id": "INTEGER",
    "label": "VARCHAR",
    "parent": "INTEGER",
    "depth": "INTEGER",
    "last": "INTEGER",
    "leaf_count": "INTEGER",
    "is_leaf": "BOOLEAN",
    "ncp": "DOUBLE",
    "lm": "DOUBLE",
}


@dataclass(frozen=True)
class SparkSource:
    """Transactions for Spark: a Parquet path (file or folder) or a Spark table; long
    (tid, item) or one row per transaction with a list of items."""

    path: str | Path | None = None
    table: str | None = None
    tid_col: str = "tid"
    item_col: str = "item"

    def describe(self) -> str:
        return str(self.path) if self.path is not None else f"Spark table {self.table}"


class SparkStore(Forwarding):
    """The run's Spark database, seen through the interface the drivers use on a `Store`."""

    ex: SparkExecutor

    def __init__(self, ex: SparkExecutor, *, run: str | None = None) -> None:
        self.ex = ex
        self.run_name = run or ex.catalog  # the name the run will have (its database's, staged)
        self.loaded = False
        self.has_hierarchy = False

    def item_labels(self) -> list[str]:
        """The dataset's distinct item labels, in natural order."""
        found = self.execute(ddl.distinct_values("label", "tx_raw"), step="item_labels")
        return sorted((label for (label,) in found.tuples("label")), key=natural_key)

    def build_fanout(self, fanout: int, *, by_support: bool) -> Hierarchy:
        """The fan-out tree, built by the same statements as on DuckDB (fanout.py)."""
        from .store import fanout as builder

        return builder.build(self.ex, fanout, by_support=by_support)

    def current_schema(self) -> str:
        return self.ex.catalog

    def require_data(self) -> None:
        if not self.loaded:
            raise InputError("no transactions loaded on Spark")

    def require_hierarchy(self) -> None:
        self.require_data()
        if not self.has_hierarchy:
            raise InputError("no hierarchy on Spark")

    def close(self) -> None:
        self.ex.close()


def read_source(store: SparkStore, source: SparkSource) -> None:
    """Make `source_pairs(tid_label, label)` a view of the Parquet path or Spark table (through
    a temporary view: the path goes to Spark's reader, never into SQL text); `source_distinct`
    reads it once, so its rows are never kept."""
    spark = store.ex.spark
    with store.ex.interruptible():  # a signal here is the interrupt, not a bad input
        try:
            frame = (
                spark.read.parquet(str(source.path))
                if source.path is not None
                else spark.table(source.table or "")
            )
        except Exception as e:  # Spark's AnalysisException and friends
            raise InputError(
                f"cannot read {source.describe()}: {str(e).strip().splitlines()[0]}"
            ) from e
    types = {f.name: f.dataType.simpleString() for f in frame.schema.fields}
    for want in (source.tid_col, source.item_col):
        if want not in types:
            raise InputError(
                f"{source.describe()}: no column {want!r}; columns are "
                f"{', '.join(map(repr, types))} (choose with --tid-col / --item-col)"
            )
    for column, what, lists in (
        (source.tid_col, "a transaction id", False),
        (source.item_col, "an item column", True),
    ):
        kind = types[column]
        inner = kind[len("array<") : -1] if lists and kind.startswith("array<") else kind
        if inner.startswith(_NESTED) or inner == "variant":
            raise nested_column(source.describe(), column, kind, what, lists=lists)
    renamed(frame, source.tid_col, source.item_col).createOrReplaceTempView(SOURCE_VIEW)
    if types[source.item_col].startswith("array"):
        empty = store.run("source_empty_transactions").tuples("tid_label")
        if empty:
            raise InputError(
                f"{source.describe()}: empty transaction(s) with tid {[t for (t,) in empty]}"
            )
        store.run("source_pairs_from_lists")
    else:
        store.run("source_pairs_from_items")


def renamed(frame: Any, tid_col: str, item_col: str) -> Any:
    """The source's tid and item columns as `tid_label` and `item` (the names the load's
    statements read), picked by position: a column name is never parsed nor written into SQL."""
    from pyspark.sql import functions as F

    names = frame.columns
    plain = frame.toDF(*(f"c{i}" for i in range(len(names))))
    return plain.select(
        F.col(f"c{names.index(tid_col)}").alias("tid_label"),
        F.col(f"c{names.index(item_col)}").alias("item"),
    )


def load(store: SparkStore, source: SparkSource, spec: HierarchySpec) -> list[str]:
    """The dataset's and the hierarchy's tables in the run's database, made by the statements
    that make them on DuckDB. Returns warnings (collapsed duplicates, the tree's own)."""
    spec.check()
    read_source(store, source)
    store.run("source_distinct")
    store.execute(ddl.drop_view("source_pairs"), step="drop_source")
    problems = store.run("source_check").one()
    _check_problems(problems, source.describe())
    size_shuffles(store.ex, int(problems["pairs"]))
    store.run("make_tids")
    store.run("make_tx_raw")
    store.drop_tables("source_distinct")
    store.loaded = True
    notes = []
    if problems["duplicate_rows"]:
        notes.append(f"{problems['duplicate_rows']} duplicate (tid, item) row(s) collapsed")
    h = spec.build(store)
    notes.extend(h.warnings)
    check_covers(h, store.item_labels())
    columns = node_columns(h)
    store.put_rows("node", Rows({c: (NODE_TYPES[c], v) for c, v in columns.items()}))
    store.run("closure")
    store.run("encode_transactions")
    store.has_hierarchy = True
    return notes


def size_shuffles(ex: SparkExecutor, rows: int) -> None:
    """Shuffle partitions for the data's (tid, item) rows, set on the session for the run."""
    cores = ex.spark.sparkContext.defaultParallelism
    ex.spark.conf.set("spark.sql.shuffle.partitions", str(shuffle_partitions(rows, cores)))


def check_algorithm(name: str) -> None:
    """Only what has been carried over runs on Spark; say so in one line."""
    if name not in ALGORITHMS:
        raise ParamsError(
            f"--engine spark runs algorithm {', '.join(ALGORITHMS)} only, not {name!r}"
        )


def check_options(
    *,
    engine: str,
    algorithm: str,
    db: Path | None,
    source: Path | None,
    table: str | None,
    hierarchy: HierarchySpec | None,
    output: Path | None,
    run: str | None = None,
    encoding: str | None = None,
) -> None:
    """What `anonymize --engine spark` takes, checked before a JVM starts (the CLI refuses
    DuckDB's own options first)."""
    if engine != "spark":
        raise ParamsError(f"--engine must be duckdb or spark, not {engine!r}")
    check_algorithm(algorithm)
    if db is not None:
        raise ParamsError("--engine spark keeps its run in the Spark warehouse, not in --db")
    if run is not None and run.startswith((STAGING, ASIDE)):
        raise ParamsError(f"run names starting {STAGING} or {ASIDE} are the tool's own")
    if (source is None) == (table is None):
        raise ParamsError("--engine spark reads a Parquet INPUT path or a Spark --table, one")
    if encoding is not None:
        raise ParamsError("--encoding applies to text inputs; --engine spark reads Parquet")
    if hierarchy is None:
        raise ParamsError("--engine spark needs --hierarchy FILE, --fanout F or --code-prefix")
    if output is not None and output.suffix.lower() not in (".parquet", ".pq"):
        raise ParamsError(
            "--engine spark writes the release as a Parquet folder: --output X.parquet"
        )
    if output is not None:
        check_spark_output(output, [source, hierarchy.path])


def check_spark_output(output: Path, inputs: list[str | Path | None]) -> None:
    """A Spark release folder, checked before any work: no input, holding none, and new or a
    folder Spark wrote holding nothing else (only Spark's own files are ever deleted)."""
    from .store import outputs

    if output.exists() and not is_spark_output(output):
        raise ParamsError(f"output {output} exists and is not a Parquet folder Spark wrote")
    if not output.parent.is_dir():
        raise ParamsError(f"output folder does not exist: {output.parent}")
    for source in outputs.protected(inputs):
        if outputs.same_file(output, source) or outputs.inside(source, output):
            raise ParamsError(f"output {output} names or holds an input ({source})")
    foreign = sorted(p.name for p in output.iterdir() if not _sparks(p)) if output.exists() else []
    if foreign:
        raise ParamsError(
            f"output folder {output} holds files Spark did not write ({', '.join(foreign[:5])}); "
            "move them or choose another folder"
        )
    outputs.repair(output)


def _sparks(path: Path) -> bool:
    """A file Spark writes in a Parquet folder: its parts, its marker, their checksums."""
    name = path.name.removeprefix(".").removesuffix(".crc")
    return path.is_file() and (name == "_SUCCESS" or name.startswith("part-"))


def run_name(params: Params) -> str:
    """The run's name: --run, or as on DuckDB `run_<algorithm>_k<k>[_m<m>]`."""
    base = runs.default_base(params.algorithm, params.k, params.m)
    return params.run_name or f"{runs.RUN_PREFIX}{base}"


def anonymize(store: SparkStore, params: Params, *, progress: Progress = quiet) -> Result:
    """Run Partition on Spark, verify its release, measure its loss: `api.anonymize`'s steps,
    with the run's database in place of a run schema."""
    check_algorithm(params.algorithm)
    algo = get(params.algorithm)
    store.require_hierarchy()
    counted = store.execute(ddl.count_rows("tids"), step="transactions").one()
    runs.check_k(params.k, int(counted["rows"]))
    started = time.perf_counter()
    info = algo.run(store, params, progress) or {}
    info["search_s"] = round(time.perf_counter() - started, 3)
    progress("verify", 0, None)
    report, loss = checked_release(store, algo, params)
    runs.write_info(store, run_info(algo.name, params, info, engine="spark"))
    save_log(store.ex, store.ex.log)  # type: ignore[arg-type]
    store.ex.persist()
    return finished(store.run_name, algo, params, report, loss, info, started)


def write_release(store: SparkStore, path: str | Path, *, per_transaction: bool = False) -> Path:
    """The release with the original ids and labels as a Parquet folder written by Spark (one
    dataset to Spark, DuckDB's `read_parquet('DIR/*.parquet')` and pyarrow): one row per
    (transaction, item), or with `per_transaction` one per transaction with its list of
    items. Returns the folder it was written to, beside `path` under a temporary name: the
    caller renames it into place (`replace_folder`) when the run has taken its place."""
    from .engine import sqlfiles
    from .engine.spark import DIALECT, to_spark

    name = "release_per_transaction" if per_transaction else "release_labelled"
    (text,) = to_spark(sqlfiles.statement(name, DIALECT).sql)
    from .store.outputs import staged_name

    path = Path(path)
    tmp = staged_name(path, "tmp")  # Spark makes it; a killed run's is repaired by the next
    started = time.perf_counter()
    try:
        with store.ex.interruptible():
            store.ex.spark.sql(text).write.mode("overwrite").parquet(str(tmp))
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    store.ex._record(Logged("write_release", text, None, time.perf_counter() - started))
    return tmp


def replace_folder(new: Path, path: Path) -> None:
    """Rename the folder `new` to `path`, replacing the Spark output folder there (moved aside
    first: a folder cannot be renamed onto a full one)."""
    if not path.exists():
        os.replace(new, path)
        return
    from .store.outputs import staged_name

    old = staged_name(path, "old")  # Spark's files only (`check_spark_output`)
    os.replace(path, old)
    os.replace(new, path)
    shutil.rmtree(old)


def is_spark_output(path: Path) -> bool:
    """A folder Spark wrote (its `_SUCCESS` marker), which a new release may replace."""
    return path.is_dir() and (path / "_SUCCESS").is_file()


def release_rows(store: SparkStore) -> list[tuple]:
    """The release as (tid label, item label) rows in tid and node order (for tests)."""
    return store.run_all("release_labelled")


def anonymize_source(
    source: SparkSource,
    spec: HierarchySpec,
    params: Params,
    *,
    master: str = "local[2]",
    warehouse: str | Path | None = None,
    output: str | Path | None = None,
    per_transaction: bool = False,
    sql_log: str | Path | None = None,
    spark: Any = None,
    progress: Progress = quiet,
) -> tuple[Result, list[str]]:
    """`setanon anonymize --engine spark`: load, anonymize, verify and write, in a staging
    Spark database that takes the run's name only once everything is written
    (`spark_warehouse.StagedRun`): a failed or interrupted run leaves nothing (its staging
    database and the release's temporary folder are removed) and an earlier run it was to
    replace stays as it was. With no `spark` session given, the active one is used, or one is
    started on `master` (and stopped at the end)."""
    from .engine.log import replay_script
    from .engine.spark import session
    from .engine.spark_warehouse import StagedRun
    from .store.outputs import check_file, write_text

    check_algorithm(params.algorithm)
    from pyspark.sql import SparkSession

    own = spark is None and SparkSession.getActiveSession() is None  # stop only what we start
    spark = spark if spark is not None else session(master, warehouse=warehouse)
    staged = StagedRun(spark, run_name(params), params.replace)
    try:
        with interrupts.deferred():  # entered after the session: PySpark sets its own
            staged.check()
            ex = SparkExecutor(spark, staged.staging)
            store = SparkStore(ex, run=staged.run)
            written: Path | None = None
            try:
                notes = load(store, source, spec)
                result = anonymize(store, params, progress=progress)
                if output is not None:
                    written = write_release(store, output, per_transaction=per_transaction)
                ex.close()
                interrupts.raise_pending()
                staged.swap()
                if written is not None:
                    replace_folder(written, Path(output))  # type: ignore[arg-type]
            except BaseException:
                staged.discard()
                if written is not None:
                    shutil.rmtree(written, ignore_errors=True)
                raise
        if sql_log is not None:
            script = replay_script(ex.log, title=LOG_TITLE.format(run=staged.run))
            write_text(
                check_file(sql_log, fmt="sql", formats=("sql",))[0], script
            )
        return result, notes
    finally:
        staged.unlock()
        if own:
            spark.stop()


LOG_TITLE = "setanon-sql: statement log of Spark run {run}, as Spark SQL (replay is DuckDB-only)"


def run_folder(warehouse: str | Path, run: str) -> Path:
    """The folder of a Spark run's database in a local warehouse (Spark lower-cases database
    names); refuses a name that is not a folder of the warehouse or a database this tool did not
    make (no `run_info`)."""
    base = Path(warehouse).resolve()
    folder = base / f"{run.lower()}.db"
    if folder.parent != base or not (folder / "run_info").is_dir():
        raise InputError(f"no Spark run {run!r} of setanon-sql in warehouse {warehouse}")
    return folder


def list_runs(warehouse: str | Path) -> list[dict[str, Any]]:
    """The Spark runs of this tool in a local warehouse (databases with a `run_info`; a failed
    or interrupted run leaves none): each with its run_info and the tables it left, read from
    their Parquet folders without a Spark session."""
    import pyarrow.parquet as pq

    out = []
    for folder in sorted(Path(warehouse).glob("*.db")):
        tables = sorted(p.name for p in folder.iterdir() if p.is_dir())
        if folder.name.startswith(STAGING):
            out.append(staging_row(Path(warehouse), folder, tables))
        if folder.name.startswith((STAGING, ASIDE)) or not (folder / "run_info").is_dir():
            continue
        info = {r["key"]: r["value"] for r in pq.read_table(folder / "run_info").to_pylist()}
        name = folder.name.removesuffix(".db")
        out.append({"name": name, "status": "complete", **info, "tables": tables})
    return out


def staging_row(warehouse: Path, folder: Path, tables: list[str]) -> dict[str, Any]:
    """A staging folder as `runs` lists it: a run being made (its lock held by a live
    process), or stale, left by a killed one (`--replace` of its run removes it)."""
    run = folder.name.removesuffix(".db").removeprefix(STAGING)
    live = lock_held(lock_path(warehouse, run))
    status = "running" if live else "stale staging folder: --replace removes it"
    return {"name": run, "status": status, "staging": str(folder), "tables": tables}


def stored_log(warehouse: str | Path, run: str) -> list[Logged]:
    """A Spark run's `sql_log` table, read from its Parquet folder (no Spark session needed)."""
    import json

    import pyarrow.parquet as pq

    folder = run_folder(warehouse, run) / "sql_log"
    if not folder.is_dir():
        raise InputError(f"Spark run {run!r} has no sql_log table in {folder.parent}")
    rows = sorted(pq.read_table(folder).to_pylist(), key=lambda r: r["seq"])
    return [
        Logged(r["step"], r["sql"], json.loads(r["params"]) if r["params"] else None, r["seconds"])
        for r in rows
    ]


def log_script(warehouse: str | Path, run: str) -> str:
    """`setanon sql --run RUN --spark-warehouse DIR`: the run's statements as they ran on Spark."""
    from .engine.log import replay_script

    return replay_script(stored_log(warehouse, run), title=LOG_TITLE.format(run=run))
