"""The Spark side of the engine boundary: the same named statements, run on a Spark session.

Statements are written once, in DuckDB's dialect (`sql/*.sql`); here each is parsed with sqlglot,
its `$name` parameters replaced by sqlglot literals (never text pasted into SQL), and written as
Spark SQL. What Spark's session catalog does differently is rewritten on the syntax tree, not
in the text: `CREATE OR REPLACE TABLE t AS q` becomes a create, drop and rename (Spark replaces
only v2 tables, and `q` may read `t` itself), temp tables become plain tables of the run's
database, and DuckDB's unsigned integers become BIGINT. A statement that needs more than that has
a `-- name: NAME :spark` variant next to it in its .sql file (`sqlfiles.statement`).

`SparkExecutor` has the interface algorithms use on the DuckDB `Executor` (`execute`, `run`,
`query`, `scalar`, `put_rows`, `unordered`, the log), so the drivers are not forked: Partition,
the verifier and the metrics run unchanged. Every statement is logged as the Spark SQL that ran.

Where a run's tables live while it runs: in memory. A `CREATE TABLE ... AS` becomes a DataFrame
made once and `localCheckpoint()`ed (computed, kept in the executors' block stores, its lineage
cut) under a temporary view of the table's name, and an `INSERT` appends to it. Partition
rewrites its frontier tables every round: as Parquet tables each round paid a write, a read and
a metastore round trip (Spark's fixed cost dominates on one machine), and without the checkpoint
each round's plan would hold every earlier one. Only what the run leaves behind is written as
Parquet tables of the run's database (`SparkExecutor.persist`, at the end of a run).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlglot
from sqlglot import exp

from ..errors import InputError, Terminated
from . import interrupts, sqlfiles
from .log import Answer, Logged, Rows, StatementLog

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

DIALECT = "spark"
# DuckDB column types of `Rows` and of DDL, as Spark writes them
_SPARK_TYPES = {
    "INTEGER": "INT",
    "BIGINT": "BIGINT",
    "UBIGINT": "BIGINT",
    "HUGEINT": "DECIMAL(38,0)",
    "VARCHAR": "STRING",
    "DOUBLE": "DOUBLE",
    "BOOLEAN": "BOOLEAN",
    "INTEGER[]": "ARRAY<INT>",
    "BIGINT[]": "ARRAY<BIGINT>",
    "VARCHAR[]": "ARRAY<STRING>",
}
_UNSIGNED = {
    exp.DataType.Type.UBIGINT: exp.DataType.Type.BIGINT,
    exp.DataType.Type.UINT: exp.DataType.Type.BIGINT,
    exp.DataType.Type.USMALLINT: exp.DataType.Type.INT,
    exp.DataType.Type.UTINYINT: exp.DataType.Type.SMALLINT,
    exp.DataType.Type.INT128: exp.DataType.Type.BIGINT,
}


def session(
    master: str = "local[2]",
    *,
    warehouse: str | Path | None = None,
    app: str = "setanon-sql",
    config: Mapping[str, str] | None = None,
) -> SparkSession:
    """A Spark session for the tool: UI off, few shuffle partitions (small local data; a run
    sizes them to its data, `shuffle_partitions`), tables written as Parquet under `warehouse`
    so an analyst can read them after the run. Constraint propagation is off: it infers
    IS NOT NULL and equality predicates over every join of a plan, a cost paid per statement
    in the optimizer for filters the statements do not need."""
    try:
        from pyspark.sql import SparkSession
    except ImportError as e:  # pragma: no cover - pyspark is a declared extra
        raise InputError('--engine spark needs pyspark: pip install "setanon-sql[spark]"') from e
    builder = (
        SparkSession.builder.master(master)
        .appName(app)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.sources.default", "parquet")
        .config("spark.sql.constraintPropagation.enabled", "false")
    )
    if warehouse is not None:
        builder = builder.config("spark.sql.warehouse.dir", str(Path(warehouse).resolve()))
    for key, value in (config or {}).items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def shuffle_partitions(rows: int, cores: int) -> int:
    """Shuffle partitions for data of `rows` rows on `cores` cores: one per 2 million rows, a
    multiple of the cores and at least one per core (Spark's default of 200 is sized for a
    cluster: on small data each partition is a task's fixed cost for a few rows).

    Example:
        >>> shuffle_partitions(300_000, 2), shuffle_partitions(7_000_000, 2)
        (2, 4)
    """
    wanted = max(1, -(-rows // 2_000_000))
    return min(4000, -(-wanted // max(cores, 1)) * max(cores, 1))


def literal(value: Any) -> exp.Expression:
    """A bound value as a sqlglot literal; floats typed DOUBLE, as DuckDB binds them (a Spark
    number literal with a point would be DECIMAL).

    Example:
        >>> literal("o'brien").sql("spark"), literal(0.5).sql("spark"), literal(True).sql("spark")
        ("'o\\\\'brien'", 'CAST(0.5 AS DOUBLE)', 'TRUE')
    """
    if isinstance(value, float):
        return exp.cast(exp.convert(value), exp.DataType.Type.DOUBLE)
    return exp.convert(value)


def bind(tree: exp.Expression, params: Mapping[str, Any]) -> exp.Expression:
    """Replace every `$name` placeholder by the literal of its value."""

    def sub(node: exp.Expression) -> exp.Expression:
        if isinstance(node, exp.Placeholder) and node.name:
            if node.name not in params:
                raise KeyError(f"no value for parameter ${node.name}")
            return literal(params[node.name])
        if isinstance(node, exp.DataType) and node.this in _UNSIGNED:
            return exp.DataType.build(_UNSIGNED[node.this])
        return node

    return tree.transform(sub)


def _reads(query: exp.Expression, table: str) -> bool:
    return any(t.name == table and not t.db for t in query.find_all(exp.Table))


def _as_plain_table(create: exp.Create) -> exp.Create:
    """A CREATE without OR REPLACE and TEMP, stored as Parquet."""
    create = create.copy()
    create.set("replace", False)
    props = create.args.get("properties")
    kept = [
        p
        for p in (props.expressions if props else [])
        if not isinstance(p, (exp.TemporaryProperty, exp.FileFormatProperty))
    ]
    kept.append(exp.FileFormatProperty(this=exp.var("PARQUET")))
    create.set("properties", exp.Properties(expressions=kept))
    return create


def _drop(name: str) -> exp.Drop:
    return exp.Drop(tables=[exp.to_table(name, quoted=True)], kind="TABLE", exists=True)


def _unqualify_temp(tree: exp.Expression) -> None:
    """Drop the `temp.` qualifier (DuckDB's temp catalog): Spark's temporary views need none."""
    for table in tree.find_all(exp.Table):
        if table.db.lower() == "temp":
            table.set("db", None)


def _target(tree: exp.Create | exp.Insert) -> exp.Table:
    return tree.this.this if isinstance(tree.this, exp.Schema) else tree.this


def rewrite(tree: exp.Expression) -> list[exp.Expression]:
    """One bound DuckDB statement as the Spark statements that do the same.

    `CREATE [OR REPLACE] [TEMP] TABLE t ...` drops `t` first; when its query reads `t`, the new
    table is built under another name and renamed, so the old one is read before it goes.
    A `temp.` qualifier (DuckDB's temp catalog) is dropped: Spark's temporary views need none.
    """
    _unqualify_temp(tree)
    if not (isinstance(tree, exp.Create) and tree.kind == "TABLE"):
        return [tree]
    target = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
    name = target.name
    query = tree.expression
    drop = _drop(name)
    plain = _as_plain_table(tree)
    if query is not None and _reads(query, name):
        staged = f"{name}__next"
        plain_target = plain.this.this if isinstance(plain.this, exp.Schema) else plain.this
        plain_target.set("this", exp.to_identifier(staged, quoted=True))
        rename = exp.Alter(
            this=exp.to_table(staged, quoted=True),
            kind="TABLE",
            actions=[exp.AlterRename(this=exp.to_table(name, quoted=True))],
        )
        return [_drop(staged), plain, drop, rename]
    return [drop, plain]


def to_spark(sql: str, params: Mapping[str, Any] | None = None) -> list[str]:
    """DuckDB SQL with `$name` parameters as the Spark SQL statements to run.

    Example:
        >>> to_spark("CREATE OR REPLACE TABLE t AS SELECT $k::UBIGINT AS k", {"k": 3})
        ['DROP TABLE IF EXISTS t', 'CREATE TABLE t USING PARQUET AS SELECT CAST(3 AS BIGINT) AS k']
    """
    out: list[str] = []
    for tree in sqlglot.parse(sql, read="duckdb"):
        if tree is None:
            continue
        bound = bind(tree, params or {})
        out.extend(st.sql(DIALECT) for st in rewrite(bound))
    return out


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
            self._rows = [(self._ex.spark.sql(self._sql).collect()[0][0],)]
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

    def __init__(self, spark: SparkSession, database: str, *, replace: bool = False) -> None:
        self.spark = spark
        self.catalog = database
        interrupts.watch(self)
        self.log: list[Logged] = []
        self._sinks: list[list[Logged]] = []
        self.seq = 0
        self._held: dict[str, Any] = {}  # table name -> its checkpointed DataFrame
        folder = database_folder(spark, database)
        if folder is not None and folder.exists():
            if not (replace and (folder / "run_info").is_dir()):
                raise InputError(
                    f"Spark database folder {folder} exists: choose another --run, or --replace "
                    "a run of this tool"
                )
            self._raw(f"DROP DATABASE IF EXISTS {_ident(database)} CASCADE")
            shutil.rmtree(folder)
        self._raw(f"CREATE DATABASE IF NOT EXISTS {_ident(database)}")
        self.spark.catalog.setCurrentDatabase(database)

    @contextmanager
    def interruptible(self) -> Iterator[None]:
        """Spark work that Ctrl-C or SIGTERM may stop (`interrupts.deferred`): a signal noted
        before it starts is raised at once, and the Spark error of a job it cancelled is the
        interrupt itself, so every cleanup and the exit code treat it so."""
        interrupts.raise_pending()
        try:
            yield
        except Exception as e:
            interrupts.raise_pending()
            if interrupts.was_terminated():
                raise Terminated("terminated") from e
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
            count = _count_sql(tree)
            if isinstance(tree, exp.Insert) and count and _reads(tree.expression, tree.this.name):
                count_now = self.spark.sql(count).collect()[0][0]  # before the insert changes it
                count = None
            else:
                count_now = None
            self.spark.sparkContext.setJobGroup(step, step)  # Spark's jobs by step
            if self._in_memory(tree, step, bound, bookkeeping):
                if count_now is not None:
                    result = Answer(["Count"], [(count_now,)])
                elif count:
                    result = LazyCount(self, count)
                continue
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
        self, tree: exp.Expression, step: str, bound: dict | None, bookkeeping: bool
    ) -> bool:
        """Run a CREATE TABLE, INSERT or DROP TABLE on the run's in-memory tables; False for
        any other statement (it runs as Spark SQL)."""
        _unqualify_temp(tree)
        if isinstance(tree, exp.Create) and tree.kind == "TABLE":
            name = _target(tree).name
            if tree.expression is not None:
                query = tree.expression
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
                return False
        elif isinstance(tree, exp.Insert) and _target(tree).name in self._held:
            if isinstance(tree.this, exp.Schema):
                return False  # a column list: Spark's own INSERT
            name, query = _target(tree).name, tree.expression
            if isinstance(query, exp.Values):
                query = exp.select("*").from_(query.subquery("v"))
            text = tree.sql(DIALECT)
            make = lambda: self._appended(name, query.sql(DIALECT))  # noqa: E731
        elif isinstance(tree, exp.Drop) and tree.kind in ("TABLE", "VIEW"):
            names = [t.name for t in tree.args.get("tables") or []]
            if not names or any(n not in self._held for n in names):
                return False
            text, make = tree.sql(DIALECT), None
        else:
            return False
        started = time.perf_counter()
        try:
            if make is None:
                for n in names:
                    self._release(n)
            else:
                self._hold(name, make())
        finally:
            self._record(
                Logged(step, text, bound, time.perf_counter() - started), bookkeeping=bookkeeping
            )
        return True

    def _appended(self, name: str, query: str) -> Any:
        """The rows of `name` and then those of `query`, cast by position to name's columns,
        as INSERT INTO does."""
        old, new = self._held[name], self.spark.sql(query)
        fields = old.schema.fields
        if len(new.columns) != len(fields):
            raise InputError(f"INSERT INTO {name}: {len(new.columns)} columns for {len(fields)}")
        cast = new.select(*(new[i].cast(f.dataType).alias(f.name) for i, f in enumerate(fields)))
        return old.unionAll(cast)

    def _hold(self, name: str, frame: Any) -> None:
        """Compute `frame` now, keep its rows in memory with its lineage cut, and let statements
        read it as `name` (the table of that name it replaces is released)."""
        kept = _without_estimate(frame.localCheckpoint(eager=True))
        self._release(name)
        kept.createOrReplaceTempView(name)
        self._held[name] = kept

    def _release(self, name: str) -> None:
        frame = self._held.pop(name, None)
        if frame is None:
            return
        self.spark.catalog.dropTempView(name)
        _unpersist(frame)

    def persist(self) -> list[str]:
        """Write every in-memory table the run still holds as a Parquet table of the run's
        database (what the run leaves for an analyst: as on DuckDB, what it did not drop), and
        free the memory. Returns the tables written."""
        written = []
        for name in list(self._held):
            frame = self._held[name]
            target = f"{_ident(self.catalog)}.{_ident(name)}"
            started = time.perf_counter()
            self.spark.sparkContext.setJobGroup("persist", "persist")
            with self.interruptible():
                self.spark.sql(f"DROP TABLE IF EXISTS {target}")
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

    def run(self, name: str, params: Mapping[str, Any] | None = None) -> Answer:
        """Run the named statement from `sql/`, its Spark variant when it has one."""
        return self.execute(sqlfiles.statement(name, DIALECT).sql, params, step=name)

    def put_rows(
        self, name: str, rows: Rows, *, temp: bool = False, bookkeeping: bool = False
    ) -> None:
        """Columns held in Python as a temporary view (`temp`) or a Parquet table."""
        self.seq += 1
        schema = ", ".join(
            f"{exp.to_identifier(c, quoted=True).sql(DIALECT)} {_SPARK_TYPES[t]}"
            for c, t in zip(rows.column_names, rows.types, strict=True)
        )
        values = [v for _, v in rows.columns.values()]
        data = list(zip(*values, strict=True)) if values else []
        started = time.perf_counter()
        frame = self.spark.createDataFrame(data, schema=schema)
        if temp:
            frame.createOrReplaceTempView(name)
        else:
            with self.interruptible():
                self._hold(name, frame)
        kind = "TEMPORARY VIEW" if temp else "TABLE"
        sql = f"CREATE {kind} {name} AS <{rows.num_rows} rows from Python>"
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
        self.close()
        self.spark.catalog.setCurrentDatabase("default")
        self._raw(f"DROP DATABASE IF EXISTS {_ident(self.catalog)} CASCADE")
        folder = database_folder(self.spark, self.catalog)
        if folder is not None and folder.is_dir():
            shutil.rmtree(folder)

    def close(self) -> None:
        """The session stays (one per process, as Spark wants); the temporary views and the
        tables held in memory go (`persist` first what must stay)."""
        for name in list(self._held):
            self._release(name)
        for view in self.spark.catalog.listTables():
            if view.isTemporary:
                self.spark.catalog.dropTempView(view.name)


def _without_estimate(frame: Any) -> Any:
    """The checkpointed DataFrame with no carried size estimate. A checkpoint keeps its query's
    estimated size, and the estimate of a join is the product of its inputs': carried from
    round to round it grows to numbers of millions of digits (WV2: minutes of the optimizer in
    BigInteger multiplication). Without it the table counts as large when a plan is made and
    adaptive execution broadcasts it at run time if it is small."""
    from pyspark.sql import DataFrame

    plan = frame._jdf.queryExecution().analyzed()
    if plan.nodeName() != "LogicalRDD":
        return frame
    jvm = frame.sparkSession._jvm
    none = jvm.scala.Option.empty()
    session = frame.sparkSession._jsparkSession
    bare = jvm.org.apache.spark.sql.execution.LogicalRDD(
        plan.output(), plan.rdd(), plan.outputPartitioning(), plan.outputOrdering(),
        plan.isStreaming(), session, none, none,
    )  # fmt: skip
    return DataFrame(jvm.org.apache.spark.sql.Dataset.ofRows(session, bare), frame.sparkSession)


def _unpersist(frame: Any) -> None:
    """Free the blocks of a checkpointed DataFrame (its plan is the checkpointed RDD)."""
    plan = frame._jdf.queryExecution().analyzed()
    if plan.nodeName() == "LogicalRDD":
        plan.rdd().unpersist(False)


def _ident(name: str) -> str:
    return exp.to_identifier(name, quoted=True).sql(DIALECT)


def database_folder(spark: SparkSession, database: str) -> Path | None:
    """Where Spark's session catalog keeps a database's tables (a local warehouse only)."""
    warehouse = spark.conf.get("spark.sql.warehouse.dir")
    if warehouse is None:
        return None
    if warehouse.startswith("file:"):
        warehouse = warehouse.removeprefix("file:")
    elif "://" in warehouse:
        return None
    return Path(warehouse) / f"{database.lower()}.db"


def _returns_rows(tree: exp.Expression) -> bool:
    return isinstance(tree, exp.Query)


def _count_sql(tree: exp.Expression) -> str | None:
    """The query that counts what a CREATE TABLE AS or INSERT ... SELECT writes."""
    if isinstance(tree, exp.Create) and tree.kind == "TABLE" and tree.expression is not None:
        target = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
        return f"SELECT count(*) FROM {exp.to_identifier(target.name, quoted=True).sql(DIALECT)}"
    if isinstance(tree, exp.Insert) and isinstance(tree.expression, exp.Query):
        inner = tree.expression.copy()
        return exp.select(exp.Count(this=exp.Star())).from_(inner.subquery("inserted")).sql(DIALECT)
    return None
