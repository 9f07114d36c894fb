"""The Spark side of the engine boundary: the same named statements, run on a Spark session.

The statements are transpiled by `spark_sql`; the session is made by `spark_session`; the
run's tables are held by `spark_memory` (cached) or `spark_local` (small: local relations);
the warehouse's folders are `spark_warehouse`'s.

`SparkExecutor` has the interface algorithms use on the DuckDB `Executor` (`execute`, `run`,
`query`, `scalar`, `put_rows`, `unordered`, the log), so the drivers are not forked: Partition,
the verifier and the metrics run unchanged. Every statement is logged as the Spark SQL that ran.

Where a run's tables live while it runs: in memory. A `CREATE TABLE ... AS` becomes a DataFrame
made once and `localCheckpoint()`ed (computed, kept in the executors' block stores, its lineage
cut) under a temporary view of the table's name, and an `INSERT` appends to it. Partition
rewrites its frontier tables every round: as Parquet tables each round paid a write, a read and
a metastore round trip (Spark's fixed cost dominates on one machine), and without the checkpoint
each round's plan would hold every earlier one. Only what the run leaves behind is written as
Parquet tables of the run's database (`SparkExecutor.persist`, at the end of a run). A small
table (from Python, or a query Spark expects to be small) is a local relation instead: its rows
sit in the plan, with no cache to build, checkpoint and count (`spark_local`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import sqlglot
from sqlglot import exp

from ..errors import InputError, Terminated
from . import interrupts, spark_local, spark_memory, sqlfiles
from .log import Answer, Logged, Rows, StatementLog
from .spark_session import out_of_memory, session, shuffle_partitions
from .spark_sql import (
    _SPARK_TYPES,
    COUNT,
    DIALECT,
    _count_sql,
    _reads,
    _returns_rows,
    _target,
    _unordered,
    _unqualify_temp,
    bind,
    create_database,
    drop_database,
    drop_table,
    duckdb_setting,
    rewrite,
    to_spark,
)
from .spark_sql import ident as _ident

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql import SparkSession

# what callers import from here: the executor's module names the session and the transpiler too
__all__ = [
    "DIALECT",
    "SparkExecutor",
    "bind",
    "rewrite",
    "session",
    "shuffle_partitions",
    "to_spark",
]


class LazyCount:
    """The row count of a CREATE TABLE AS or INSERT, as DuckDB reports it, counted only when
    read (most are never read); reading it after a later statement ran is a bug and raises."""

    columns = ["Count"]

    def __init__(self, ex: SparkExecutor, count_sql: str) -> None:
        self._ex, self._sql, self._seq = ex, count_sql, ex.seq
        self._rows: list[tuple] | None = None

    @property
    def rows(self) -> list[tuple]:
        if self._rows is None:
            if self._ex.seq != self._seq:
                raise RuntimeError("a statement's row count was read after another statement ran")
            self._rows = [(_row_count(self._ex.spark, self._sql),)]
        return self._rows

    def one(self) -> dict[str, Any]:
        return {"Count": self.rows[0][0]}


class SparkExecutor(StatementLog):
    """A Spark session that every statement goes through, logged, in one database (the run's).

    Example (not run: starts a JVM):
        ex = SparkExecutor(session(), "setanon_run1"); ex.scalar("SELECT $a + 1", {"a": 1})
    """

    engine = "spark"
    read_only = False
    path = None

    def __init__(self, spark: SparkSession, database: str) -> None:
        """Work in a new database `database` (refused when its folder exists: a database
        this executor did not make is never written to nor dropped)."""
        from .spark_warehouse import Folders

        self.spark = spark
        self.catalog = database
        self.log: list[Logged] = []
        self._sinks: list[list[Logged]] = []
        self.seq = 0
        self._held: dict[str, spark_memory.Held] = {}  # the run's tables, in memory
        self._views: set[str] = set()  # the run's views
        folders = Folders(spark)
        if folders.exists(folders.of(database)):
            raise InputError(
                f"Spark database folder {folders.of(database).toString()} exists: choose "
                "another --run, or --replace a run of this tool"
            )
        self._raw(create_database(database))
        self.spark.catalog.setCurrentDatabase(database)
        interrupts.watch(self)

    @contextmanager
    def interruptible(self) -> Iterator[None]:
        """Spark work that Ctrl-C or SIGTERM may stop (`interrupts.deferred`): a signal noted
        before it starts is raised at once, and the Spark error of a job it cancelled is the
        interrupt itself, so every cleanup and the exit code treat it so. Spark out of memory
        is the machine's (`out_of_memory`: exit 5, one line), not a bug of ours."""
        interrupts.raise_pending()
        try:
            yield
        except Exception as e:
            interrupts.raise_pending()
            if interrupts.was_terminated():
                raise Terminated("terminated") from e
            short = out_of_memory(e, self.spark.sparkContext.getConf().get("spark.driver.memory"))
            if short is not None:
                raise short from e
            raise
        interrupts.raise_pending()

    def interrupt(self) -> None:
        """Cancel the running Spark jobs (called from a thread of `interrupts`, never the
        main one)."""
        self.spark.sparkContext.cancelAllJobs()

    def _raw(self, sql: str) -> None:
        self.spark.sql(sql)

    def execute(
        self,
        sql: str,
        params: Mapping[str, Any] | None = None,
        *,
        step: str = "sql",
        bookkeeping: bool = False,
    ) -> Answer:
        """Run one DuckDB-dialect statement on Spark, record the Spark SQL, fetch its result."""
        with self.interruptible():
            return self._execute(sql, params, step=step, bookkeeping=bookkeeping)

    def _execute(
        self, sql: str, params: Mapping[str, Any] | None, *, step: str, bookkeeping: bool
    ) -> Answer:
        self.seq += 1
        bound = dict(params) if params else None
        result: Any = Answer([], [])
        for tree in sqlglot.parse(sql, read="duckdb"):
            if tree is None:
                continue
            tree = bind(tree, bound or {})
            if duckdb_setting(tree):
                self._record(
                    Logged(
                        step, f"-- a DuckDB setting, nothing on Spark: {tree.sql()}", bound, 0.0
                    ),
                    bookkeeping=bookkeeping,
                )
                continue
            self.spark.sparkContext.setJobGroup(step, step)  # Spark's jobs by step
            held = self._in_memory(tree, step, bound, bookkeeping)
            if held is not None:
                result = held
                continue
            count = _count_sql(tree)
            if isinstance(tree, exp.Insert) and count and _reads(tree.expression, tree.this.name):
                count_now = _row_count(self.spark, count)  # before the insert changes it
                count = None
            else:
                count_now = None
            for st in rewrite(tree):
                text = st.sql(DIALECT)
                started = time.perf_counter()
                try:
                    frame = self.spark.sql(text)
                    if _returns_rows(st):
                        rows = [tuple(r) for r in frame.collect()]
                        result = Answer(list(frame.columns), rows)
                finally:
                    self._record(
                        Logged(step, text, bound, time.perf_counter() - started),
                        bookkeeping=bookkeeping,
                    )
            if count_now is not None:
                result = Answer(["Count"], [(count_now,)])
            elif count:
                result = LazyCount(self, count)
        return result

    def _in_memory(
        self, tree: exp.Expr, step: str, bound: dict | None, bookkeeping: bool
    ) -> Answer | None:
        """Run a CREATE TABLE or VIEW, INSERT or DROP on the run's in-memory tables and views
        (`spark_memory`) and return its row count; None for any other statement (it runs as
        Spark SQL)."""
        _unqualify_temp(tree)
        insert = view = False
        if isinstance(tree, exp.Create) and tree.kind == "TABLE":
            name = _target(tree).name
            if tree.expression is not None:
                query = _unordered(tree.expression)
                text = f"CREATE OR REPLACE TEMPORARY VIEW {_ident(name)} AS {query.sql(DIALECT)}"
                make = lambda: self.spark.sql(query.sql(DIALECT))  # noqa: E731
            elif isinstance(tree.this, exp.Schema):
                columns = [
                    f"{_ident(c.name)} {c.args['kind'].sql(DIALECT)}"
                    for c in tree.this.expressions
                    if isinstance(c, exp.ColumnDef)
                ]
                text = f"CREATE OR REPLACE TEMPORARY VIEW {_ident(name)} ({', '.join(columns)})"
                make = lambda: self.spark.createDataFrame([], ", ".join(columns))  # noqa: E731
            else:
                return None
        elif isinstance(tree, exp.Insert) and _target(tree).name in self._held:
            if isinstance(tree.this, exp.Schema):
                return None  # a column list: Spark's own INSERT
            name, query, insert = _target(tree).name, tree.expression, True
            if isinstance(query, exp.Values):
                query = exp.select("*").from_(
                    exp.Subquery(this=query, alias=exp.to_identifier("v"))
                )
            else:
                query = _unordered(query)
            text = tree.sql(DIALECT)
            make = lambda: self._appended(name, query.sql(DIALECT))  # noqa: E731
        elif isinstance(tree, exp.Create) and tree.kind == "VIEW" and tree.expression is not None:
            name, query = _target(tree).name, tree.expression
            text = f"CREATE OR REPLACE TEMPORARY VIEW {_ident(name)} AS {query.sql(DIALECT)}"
            make = lambda: self.spark.sql(query.sql(DIALECT))  # noqa: E731
            view = True
        elif isinstance(tree, exp.Drop) and tree.kind in ("TABLE", "VIEW"):
            names = [t.name for t in tree.args.get("tables") or []]
            if not names or any(n not in self._held and n not in self._views for n in names):
                return None
            text, make = tree.sql(DIALECT), None
        else:
            return None
        started = time.perf_counter()
        rows = 0
        try:
            if make is None:
                for n in names:
                    self._release(n)
            elif view:
                make().createOrReplaceTempView(name)
                self._views.add(name)
            else:
                rows = self._hold(name, make(), append=insert)
        finally:
            self._record(
                Logged(step, text, bound, time.perf_counter() - started), bookkeeping=bookkeeping
            )
        return Answer(["Count"], [(rows,)])

    def _appended(self, name: str, query: str) -> Any:
        """The rows of `query`, cast by position to the columns of `name`, as INSERT INTO
        casts them."""
        fields = self._held[name].view().schema.fields
        new = self.spark.sql(query)
        if len(new.columns) != len(fields):
            raise InputError(f"INSERT INTO {name}: {len(new.columns)} columns for {len(fields)}")
        return new.select(*(new[i].cast(f.dataType).alias(f.name) for i, f in enumerate(fields)))

    def _hold(self, name: str, frame: Any, *, append: bool = False) -> int:
        """Compute `frame` now into Spark's cache and let statements read it as `name`: as the
        table (which it replaces, released) or, with `append`, as the table's next piece.
        Returns its row count."""
        cached, leaf, rows = self._made(frame)
        if append:
            held = self._held[name]
            held.add(cached, leaf, rows)
        else:
            fresh = spark_memory.Held()
            fresh.add(cached, leaf, rows)
            self._release(name, keep=set(fresh.ids))
            held = self._held[name] = fresh
        if len(held.pieces) > spark_memory.MAX_PIECES:
            merged = spark_memory.Held()
            merged.add(*self._made(held.view()))
            self._held[name] = merged
            held.release(keep=self._live_ids())
            held = merged
        held.view().createOrReplaceTempView(name)
        return rows

    def _made(self, frame: Any) -> tuple[Any, Any, int]:
        """Compute `frame` once: the cached frame (None for a local relation), the frame
        statements read, its row count. A table Spark expects to be small and that has no tid
        column is collected into a local relation (`spark_local.collected`); any other is
        cached, a tid table partitioned by tid (`spark_memory.cache`)."""
        if spark_memory.TID not in frame.columns and (
            spark_local.expected_bytes(frame) <= spark_local.LOCAL_BYTES
        ):
            leaf, rows = spark_local.collected(self.spark, frame)
            return None, leaf, rows
        partitions = int(self.spark.conf.get("spark.sql.shuffle.partitions") or 200)
        return spark_memory.cache(frame, partitions)

    def _hold_local(self, name: str, frame: Any, rows: int) -> None:
        """Let statements read a local relation (`spark_local`) as the table `name`, which it
        replaces: nothing to compute nor count, so no job."""
        fresh = spark_memory.Held()
        fresh.add(None, frame, rows)
        self._release(name)
        self._held[name] = fresh
        frame.createOrReplaceTempView(name)

    def _release(self, name: str, *, keep: set[int | None] | None = None) -> None:
        """Drop the table or view `name` of the run. Through the catalog's dropTempView: a
        DROP statement would also uncache every table whose query read a view made by SQL
        text (Spark's cascade), and the run's tables are its cache."""
        if name in self._views:
            self._views.discard(name)
            self.spark.catalog.dropTempView(name)
        held = self._held.pop(name, None)
        if held is None:
            return
        self.spark.catalog.dropTempView(name)
        held.release(keep=self._live_ids() | (keep or set()))

    def _live_ids(self) -> set[int | None]:
        """The cached columns the tables still held read."""
        return {i for held in self._held.values() for i in held.ids}

    def persist(self) -> list[str]:
        """Write every in-memory table the run still holds as a Parquet table of the run's
        database (what the run leaves for an analyst: as on DuckDB, what it did not drop), and
        free the memory. Returns the tables written."""
        written = []
        for name in list(self._held):
            frame = self._held[name].view()
            target = f"{_ident(self.catalog)}.{_ident(name)}"
            started = time.perf_counter()
            self.spark.sparkContext.setJobGroup("persist", "persist")
            with self.interruptible():
                self._raw(drop_table(name, self.catalog))
                frame.write.format("parquet").saveAsTable(target)
            self._release(name)
            self._record(
                Logged(
                    "persist",
                    f"CREATE TABLE {target} USING PARQUET AS SELECT * FROM {_ident(name)}",
                    None,
                    time.perf_counter() - started,
                ),
                bookkeeping=True,
            )
            written.append(name)
        return written

    def arrow(
        self, sql: str, params: Mapping[str, Any] | None = None, *, step: str = "sql"
    ) -> pa.Table:
        """Run a query and hand its result to Python as an Arrow table."""
        import pyarrow as pa

        result = self.execute(sql, params, step=step)
        return pa.table({c: [r[i] for r in result.rows] for i, c in enumerate(result.columns)})

    def run(self, name: str, params: Mapping[str, Any] | None = None) -> Answer:
        """Run the named statement from `sql/`, its Spark variant when it has one."""
        return self.execute(sqlfiles.statement(name, DIALECT).sql, params, step=name)

    def put_rows(
        self, name: str, rows: Rows, *, temp: bool = False, bookkeeping: bool = False
    ) -> None:
        """Columns held in Python as a temporary view (`temp`) or a table of the run."""
        types = [_SPARK_TYPES[t] for t in rows.types]
        values = [v for _, v in rows.columns.values()]
        self._put(name, rows.column_names, types, values, temp=temp, bookkeeping=bookkeeping)

    def put_arrow(
        self, name: str, table: Any, *, temp: bool = False, bookkeeping: bool = False
    ) -> None:
        """An Arrow table from Python as a table of the run (`put_rows` for the drivers that
        hand Arrow tables to DuckDB)."""
        types = [spark_local.spark_type_of(f.type) for f in table.schema]
        values = [table.column(i).to_pylist() for i in range(table.num_columns)]
        self._put(name, table.column_names, types, values, temp=temp, bookkeeping=bookkeeping)

    def _put(
        self,
        name: str,
        columns: list[str],
        types: list[str],
        values: list[list[Any]],
        *,
        temp: bool,
        bookkeeping: bool,
    ) -> None:
        self.seq += 1
        types = [
            "BIGINT" if c == spark_memory.TID and t == "INT" else t
            for c, t in zip(columns, types, strict=True)
        ]
        schema = ", ".join(f"{_ident(c)} {t}" for c, t in zip(columns, types, strict=True))
        rows = len(values[0]) if values else 0
        started = time.perf_counter()
        self.spark.sparkContext.setJobGroup(f"put_{name}", f"put_{name}")
        with self.interruptible():
            frame = spark_local.local_frame(self.spark, columns, types, values)
            if frame is None:  # a type with no Arrow form here: Spark's own parallelize
                data = list(zip(*values, strict=True)) if values else []
                frame = self.spark.createDataFrame(data, schema=schema)
            if temp:
                frame.createOrReplaceTempView(name)
            elif rows <= spark_local.LOCAL_ROWS and spark_memory.TID not in columns:
                self._hold_local(name, frame, rows)
            else:
                self._hold(name, frame)
        kind = "TEMPORARY VIEW" if temp else "TABLE"
        sql = f"CREATE {kind} {name} AS <{rows} rows from Python>"
        self._record(
            Logged(f"put_{name}", sql, None, time.perf_counter() - started), bookkeeping=bookkeeping
        )

    @contextmanager
    def unordered(self) -> Iterator[None]:
        """Spark tables have no row order to keep: every statement orders what it depends on."""
        yield

    def tables(self) -> list[str]:
        """The tables of the run's database: written (Parquet) and held in memory."""
        written = {t.name for t in self.spark.catalog.listTables(self.catalog) if not t.isTemporary}
        return sorted(written | set(self._held))

    def stages(self) -> dict[str, tuple[int, int]]:
        """Per step, the Spark jobs and stages its statements ran (what Spark still tracks:
        `spark.ui.retainedJobs`); stages beyond one per job are shuffle boundaries."""
        tracker = self.spark.sparkContext.statusTracker()
        out: dict[str, tuple[int, int]] = {}
        for step in dict.fromkeys(e.step for e in self.log):
            jobs = [tracker.getJobInfo(j) for j in tracker.getJobIdsForGroup(step)]
            stages = sum(len(j.stageIds) for j in jobs if j is not None)
            out[step] = (len(jobs), stages)
        return out

    def drop_database(self) -> None:
        """Remove the run's database and its folder: a failed run leaves nothing behind."""
        from .spark_warehouse import Folders

        self.close()
        self.spark.catalog.setCurrentDatabase("default")
        self._raw(drop_database(self.catalog))
        folders = Folders(self.spark)
        folders.delete(folders.of(self.catalog))

    def close(self) -> None:
        """The session stays (one per process, as Spark wants); the temporary views and the
        tables held in memory go (`persist` first what must stay)."""
        for name in list(self._held):
            self._release(name)
        for view in self.spark.catalog.listTables():
            if view.isTemporary:
                self.spark.catalog.dropTempView(view.name)


def _row_count(spark: Any, sql: str) -> int:
    """The `rows` column of a count statement's one row."""
    row = spark.sql(sql).first()
    if row is None:
        raise RuntimeError(f"a row count returned no row: {sql}")
    return int(row[COUNT])
