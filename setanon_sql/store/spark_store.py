"""Spark's store, beside DuckDB's `database.Store`: a run's Spark database seen through the same
`Workspace` the algorithms, the verifier and the metrics use, the dataset and hierarchy loaded
into it by the statements that load them on DuckDB, and the run's life on Spark (`making`).

Where things live: a Spark run has no DuckDB registry. Everything it makes is a table of one
Spark database named after the run (`--run`, default `run_partition_k<k>`): the dataset's
`tids` and `tx_raw`, the hierarchy's `node`, `closure` and `tx`, the algorithm's intermediate
tables (with `keep_intermediate`), the `release`, the verifier's `violations_*`, `run_info` and
the `sql_log` of every Spark statement. It is built as a staging database that takes the run's
name only once everything is written (`engine.spark_warehouse.StagedRun`). With Spark's default
(in-memory) catalog they are Parquet folders under the warehouse, `<warehouse>/<run>.db/<table>`,
readable by Spark, DuckDB or pyarrow after the run.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..catalog import Algorithm
from ..engine import ddl, interrupts
from ..engine.contract import Forwarding
from ..engine.log import Rows
from ..engine.spark import SparkExecutor, shuffle_partitions
from ..engine.spark_warehouse import ASIDE, STAGING, StagedRun
from ..errors import InputError, ParamsError
from .dataset import check_covers, check_problems, node_columns, save_log
from .hierarchy import Hierarchy, natural_key
from .hierarchy_spec import HierarchySpec
from .sources import nested_column

if TYPE_CHECKING:
    from .publish import RunOutputs

SOURCE_VIEW = "source_input"
DEFAULT_MASTER = "local[2]"
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


def check_algorithm(algo: Algorithm, runnable: Sequence[str]) -> None:
    """Only what declares Spark among its engines runs there; say so in one line, naming
    `runnable` (the registry's `on_engine("spark")`, which this layer cannot import)."""
    if "spark" not in algo.engines:
        listed = ", ".join(runnable)
        raise ParamsError(f"--engine spark runs algorithm {listed} only, not {algo.name!r}")


def check_run_name(run: str | None) -> None:
    """Refuse a run name that is one of the warehouse's own (staging or set aside)."""
    if run is not None and run.startswith((STAGING, ASIDE)):
        raise ParamsError(f"run names starting {STAGING} or {ASIDE} are the tool's own")


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
        self.staged: StagedRun | None = None  # set by `open_run`: the run's staging and lock
        self.swapped = False
        self._held = ExitStack()  # what `close` lets go: the signal deferral, the lock, a session

    def item_labels(self) -> list[str]:
        """The dataset's distinct item labels, in natural order."""
        found = self.execute(ddl.distinct_values("label", "tx_raw"), step="item_labels")
        return sorted((label for (label,) in found.tuples("label")), key=natural_key)

    def build_fanout(self, fanout: int, *, by_support: bool) -> Hierarchy:
        """The fan-out tree, built by the same statements as on DuckDB (fanout.py)."""
        from . import fanout as builder

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
        """End the store: a staged run never swapped in is discarded, its lock let go, and a
        session this store started stopped."""
        try:
            self.ex.close()
            if self.staged is not None and not self.swapped:
                self.staged.discard()
        finally:
            self._held.close()

    def __enter__(self) -> SparkStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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
    check_problems(problems, source.describe())
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


def open_run(
    source: SparkSource,
    spec: HierarchySpec,
    *,
    run: str,
    replace: bool = False,
    master: str = DEFAULT_MASTER,
    warehouse: str | Path | None = None,
    spark: Any = None,
    memory_limit: str | None = None,
) -> tuple[SparkStore, list[str]]:
    """The store of the Spark run `run`, its data and hierarchy loaded into its staging
    database (checked first under the run's lock: an earlier run is replaced only with
    `replace`), and warnings. Until the store is closed Ctrl-C and SIGTERM are deferred
    (`interrupts.deferred`: Py4J must not be left mid-answer). With no `spark` session given,
    the active one is used, or one is started on `master` (its driver given `memory_limit`)
    and stopped by `close`."""
    from pyspark.sql import SparkSession

    from ..engine.spark import session

    check_run_name(run)
    if spark is not None and memory_limit is not None:
        raise ParamsError("memory_limit sizes a Spark session this call starts, not one given")
    held = ExitStack()
    store: SparkStore | None = None
    try:
        if spark is None:
            own = SparkSession.getActiveSession() is None  # stop only what we start
            spark = session(master, warehouse=warehouse, memory_limit=memory_limit)
            if own:
                held.callback(spark.stop)
        staged = StagedRun(spark, run, replace)
        held.callback(staged.unlock)
        held.enter_context(interrupts.deferred())  # entered after the session: PySpark sets its own
        staged.check()
        store = SparkStore(SparkExecutor(spark, staged.staging), run=staged.run)
        store.staged, store._held = staged, held
        notes = load(store, source, spec)
    except BaseException:
        if store is not None:
            store.close()  # discards the staging database, then lets go of `held`
        else:
            held.close()
        raise
    return store, notes


@dataclass
class SparkRun:
    """The run being made on Spark, as `runs.making` yields DuckDB's `Run`."""

    schema: str
    results: dict[str, Any] = field(default_factory=dict)


@contextmanager
def making(
    store: SparkStore, outputs: RunOutputs | None = None, read: Iterable[str | Path | None] = ()
) -> Iterator[SparkRun]:
    """A Spark run's life, as `runs.making` is DuckDB's: the body fills the run; then its
    `sql_log` is saved, its tables written to its database, the release folder written under a
    temporary name, and (for a store opened by `open_run`) the staged database swapped in and
    the release folder renamed into place; the SQL log file last. Any failure or signal
    discards the staged run and the temporary folder: the earlier run stays as it was."""
    from . import spark_release

    if outputs is not None:
        spark_release.check_outputs(outputs, read, replace=True)  # the CLI asks --replace before
    run = SparkRun(store.run_name)
    written: Path | None = None
    try:
        yield run
        save_log(store.ex, store.ex.log)  # type: ignore[arg-type]
        store.ex.persist()
        if outputs is not None and outputs.path is not None:
            written = spark_release.write_release(
                store.ex, outputs.path, per_transaction=outputs.per_transaction
            )
        if store.staged is not None:
            store.ex.close()
            interrupts.raise_pending()
            store.staged.swap()
            store.swapped = True
        if written is not None and outputs is not None and outputs.path is not None:
            spark_release.replace_folder(written, Path(outputs.path))
    except BaseException:
        if store.staged is not None and not store.swapped:
            store.staged.discard()
        if written is not None:
            shutil.rmtree(written, ignore_errors=True)
        raise
    if outputs is not None and outputs.sql_log is not None:
        spark_release.write_log(store.log, store.run_name, outputs.sql_log)
