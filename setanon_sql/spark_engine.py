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

from . import sqlfiles
from .errors import InputError
from .executor import Logged, Result, Rows, StatementLog

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
    """A Spark session for the tool: UI off, few shuffle partitions (small local data), tables
    written as Parquet under `warehouse` so an analyst can read them after the run."""
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
    )
    if warehouse is not None:
        builder = builder.config("spark.sql.warehouse.dir", str(Path(warehouse).resolve()))
    for key, value in (config or {}).items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


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


def rewrite(tree: exp.Expression) -> list[exp.Expression]:
    """One bound DuckDB statement as the Spark statements that do the same.

    `CREATE [OR REPLACE] [TEMP] TABLE t ...` drops `t` first; when its query reads `t`, the new
    table is built under another name and renamed, so the old one is read before it goes.
    A `temp.` qualifier (DuckDB's temp catalog) is dropped: Spark's temporary views need none.
    """
    for table in tree.find_all(exp.Table):
        if table.db.lower() == "temp":
            table.set("db", None)
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
        self.log: list[Logged] = []
        self._sinks: list[list[Logged]] = []
        self.seq = 0
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

    def _raw(self, sql: str) -> None:
        self.spark.sql(sql)

    def execute(
        self,
        sql: str,
        params: Mapping[str, Any] | None = None,
        *,
        step: str = "sql",
        bookkeeping: bool = False,
    ) -> Result:
        """Run one DuckDB-dialect statement on Spark, record the Spark SQL, fetch its result."""
        self.seq += 1
        bound = dict(params) if params else None
        result: Any = Result([], [])
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
            for st in rewrite(tree):
                text = st.sql(DIALECT)
                started = time.perf_counter()
                try:
                    frame = self.spark.sql(text)
                    if _returns_rows(st):
                        rows = [tuple(r) for r in frame.collect()]
                        result = Result(list(frame.columns), rows)
                finally:
                    self._record(
                        Logged(step, text, bound, time.perf_counter() - started),
                        bookkeeping=bookkeeping,
                    )
            if count_now is not None:
                result = Result(["Count"], [(count_now,)])
            elif count:
                result = LazyCount(self, count)
        return result

    def run(self, name: str, params: Mapping[str, Any] | None = None) -> Result:
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
            self.spark.sql(f"DROP TABLE IF EXISTS {_ident(name)}")
            frame.write.format("parquet").saveAsTable(name)
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
        """The tables of the run's database."""
        return sorted(
            t.name for t in self.spark.catalog.listTables(self.catalog) if not t.isTemporary
        )

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
        """The session stays (one per process, as Spark wants); only the temporary views go."""
        for view in self.spark.catalog.listTables():
            if view.isTemporary:
                self.spark.catalog.dropTempView(view.name)


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
