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

import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlglot
from sqlglot import exp

from ..errors import InputError, Terminated
from . import interrupts, spark_memory, sqlfiles
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
    in the optimizer for filters the statements do not need.

    On a local master (or a cluster on this machine's loopback address) every component binds
    to 127.0.0.1 (`LOOPBACK`). The driver's JVM is started in a process session of its own
    (`start_gateway`), so that a signal sent to our process group stops the run through
    Python's cleanup, not by killing the JVM under it."""
    try:
        from pyspark import SparkConf
        from pyspark.sql import SparkSession
    except ImportError as e:  # pragma: no cover - pyspark is a declared extra
        raise InputError('--engine spark needs pyspark: pip install "setanon-sql[spark]"') from e
    settings = {
        "spark.master": master,
        "spark.app.name": app,
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.shuffle.partitions": "2",
        "spark.sql.sources.default": "parquet",
        "spark.sql.constraintPropagation.enabled": "false",
        # plans fixed when made: every shuffle makes exactly spark.sql.shuffle.partitions
        # parts, so the tid-keyed tables stay co-partitioned (spark_memory), and the cached
        # tables' real sizes decide broadcasts up front
        "spark.sql.adaptive.enabled": "false",
        # a join of two tables partitioned alike builds a hash table of the smaller side
        # instead of sorting both
        "spark.sql.join.preferSortMergeJoin": "false",
        **(LOOPBACK if on_loopback(master) else {}),
    }
    if warehouse is not None:
        settings["spark.sql.warehouse.dir"] = str(Path(warehouse).resolve())
    settings.update(config or {})
    start_gateway(SparkConf(loadDefaults=False).setAll(list(settings.items())), master)
    builder = SparkSession.builder
    for key, value in settings.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


# Every listening socket of a local Spark on the loopback address: the driver's RPC and block
# manager (bind and advertised address), and through SPARK_LOCAL_IP what a JVM would otherwise
# pick from the machine's interfaces ("hostname resolves to a loopback address ... using
# 192.0.2.2 instead").
LOOPBACK = {"spark.driver.bindAddress": "127.0.0.1", "spark.driver.host": "127.0.0.1"}


def on_loopback(master: str) -> bool:
    """Whether every Spark process runs on this machine: a local master, or a cluster whose
    master listens on the loopback address (as the tests' standalone cluster does). A real
    cluster's executors must reach the driver, so it is left to the cluster's configuration.

    Example:
        >>> [on_loopback(m) for m in ("local[2]", "spark://127.0.0.1:7077", "spark://h:7077")]
        [True, True, False]
    """
    if master == "local" or master.startswith(("local[", "local-cluster[")):
        return True
    host = master.split("://", 1)[-1].split(":", 1)[0]
    return host in ("127.0.0.1", "localhost")


def start_gateway(conf: Any, master: str) -> None:
    """Start the driver's JVM as PySpark does (`spark-submit`, with the session's settings),
    unless this process has one, but in a process session of its own: a Ctrl-C or SIGTERM sent
    to our process group (a terminal, `timeout`, a scheduler) then reaches only Python, whose
    handlers cancel the Spark jobs and clean up (`interrupts`) while the JVM still answers.
    PySpark only makes the JVM ignore SIGINT; SIGTERM killed it first, and the run ended in
    "ConnectionRefusedError" with its database left behind. The JVM still ends with us: it
    exits when its standard input, a pipe from this process, closes."""
    import os

    from pyspark import SparkContext
    from pyspark.java_gateway import launch_gateway

    if SparkContext._gateway is not None:
        return
    loopback = on_loopback(master) and "SPARK_LOCAL_IP" not in os.environ
    if loopback:  # read by the JVM at start; launch_gateway copies our environment
        os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    try:
        gateway = launch_gateway(conf, popen_kwargs={"start_new_session": True})
    finally:
        if loopback:
            del os.environ["SPARK_LOCAL_IP"]
    SparkContext._ensure_initialized(gateway=gateway)


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
    """Replace every `$name` placeholder by the literal of its value; make every `tid` column
    a BIGINT (`spark_memory`: tid-keyed tables must hash alike to be co-partitioned); drop the
    NULLs of a `list_distinct`, as DuckDB does (Spark's array_distinct keeps one).

    Example:
        >>> bind(sqlglot.parse_one("SELECT x::INTEGER AS tid, $k AS k"), {"k": 2}).sql("spark")
        'SELECT CAST(x AS BIGINT) AS tid, 2 AS k'
    """

    def sub(node: exp.Expression) -> exp.Expression:
        if isinstance(node, exp.Placeholder) and node.name:
            if node.name not in params:
                raise KeyError(f"no value for parameter ${node.name}")
            return literal(params[node.name])
        if isinstance(node, exp.DataType) and node.this in _UNSIGNED:
            return exp.DataType.build(_UNSIGNED[node.this])
        if isinstance(node, exp.Alias) and node.alias == spark_memory.TID:
            cast = node.this
            if isinstance(cast, exp.Cast) and cast.to.this in _INTEGERS:
                cast.set("to", exp.DataType.build("BIGINT"))
        if isinstance(node, exp.ColumnDef) and node.name == spark_memory.TID:
            kind = node.args.get("kind")
            if isinstance(kind, exp.DataType) and kind.this in _INTEGERS:
                node.set("kind", exp.DataType.build("BIGINT"))
        return node

    tree = tree.transform(sub)
    for distinct in list(tree.find_all(exp.ArrayDistinct)):  # DuckDB's list_distinct drops NULLs
        distinct.replace(exp.func("array_compact", distinct.copy()))
    for table in list(tree.find_all(exp.Table)):  # DuckDB's query_table('t'): the table t
        call = table.this
        if isinstance(call, exp.Anonymous) and call.name.lower() == "query_table":
            (name,) = call.expressions
            named = exp.to_table(name.name, quoted=True)
            if table.alias:
                named.set("alias", table.args["alias"])
            table.replace(named)
    return tree


def duckdb_setting(tree: exp.Expression) -> bool:
    """A DuckDB SET or RESET (of a DuckDB setting, such as the join order of a statement):
    nothing for Spark to do.

    Example:
        >>> duckdb_setting(sqlglot.parse_one("SET disabled_optimizers = 'join_order'"))
        True
    """
    return isinstance(tree, exp.Set) or (
        isinstance(tree, exp.Command) and str(tree.this).upper() in ("SET", "RESET")
    )


_INTEGERS = {exp.DataType.Type.INT, exp.DataType.Type.SMALLINT, exp.DataType.Type.TINYINT}


def _unordered(query: exp.Expression) -> exp.Expression:
    """A table's query without its final ORDER BY (unless a LIMIT needs it): a Spark table
    has no row order to keep, and the sort is a shuffle of every row (readers order what
    they depend on)."""
    bounded = query.args.get("limit") is not None or query.args.get("offset") is not None
    if query.args.get("order") is not None and not bounded:
        query = query.copy()
        query.set("order", None)
    return query


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
        self._raw(f"CREATE DATABASE {_ident(database)}")
        self.spark.catalog.setCurrentDatabase(database)
        interrupts.watch(self)

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
                count_now = self.spark.sql(count).collect()[0][0]  # before the insert changes it
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
        self, tree: exp.Expression, step: str, bound: dict | None, bookkeeping: bool
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
                query = exp.select("*").from_(query.subquery("v"))
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
        partitions = int(self.spark.conf.get("spark.sql.shuffle.partitions"))
        cached, leaf, rows = spark_memory.cache(frame, partitions)
        if append:
            held = self._held[name]
        else:
            self._release(name)
            held = self._held[name] = spark_memory.Held()
        held.pieces.append(cached)
        held.leaves.append(leaf)
        held.rows += rows
        if len(held.pieces) > spark_memory.MAX_PIECES:
            merged, merged_leaf, total = spark_memory.cache(held.view(), partitions)
            held.release()
            held.pieces.append(merged)
            held.leaves.append(merged_leaf)
            held.rows = total
        held.view().createOrReplaceTempView(name)
        return rows

    def _release(self, name: str) -> None:
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
        held.release()

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

    def arrow(self, sql: str, params: Mapping[str, Any] | None = None, *, step: str = "sql"):
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
        types = [_arrow_type(f.type) for f in table.schema]
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
        schema = ", ".join(
            f"{_ident(c)} {'BIGINT' if c == spark_memory.TID and t == 'INT' else t}"
            for c, t in zip(columns, types, strict=True)
        )
        data = list(zip(*values, strict=True)) if values else []
        started = time.perf_counter()
        frame = self.spark.createDataFrame(data, schema=schema)
        if temp:
            frame.createOrReplaceTempView(name)
        else:
            with self.interruptible():
                self._hold(name, frame)
        kind = "TEMPORARY VIEW" if temp else "TABLE"
        sql = f"CREATE {kind} {name} AS <{len(data)} rows from Python>"
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
        self._raw(f"DROP DATABASE IF EXISTS {_ident(self.catalog)} CASCADE")
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


def _arrow_type(kind: Any) -> str:
    """The Spark type of an Arrow column type (those the drivers hand over)."""
    import pyarrow as pa

    if pa.types.is_list(kind):
        return f"ARRAY<{_arrow_type(kind.value_type)}>"
    for test, spark_type in (
        (pa.types.is_int32, "INT"),
        (pa.types.is_int64, "BIGINT"),
        (pa.types.is_boolean, "BOOLEAN"),
        (pa.types.is_floating, "DOUBLE"),
        (pa.types.is_string, "STRING"),
    ):
        if test(kind):
            return spark_type
    raise TypeError(f"no Spark type for Arrow type {kind}")


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
