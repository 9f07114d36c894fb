"""DuckDB SQL as Spark SQL: the same named statements, transpiled on the syntax tree.

Statements are written once, in DuckDB's dialect (`sql/*.sql`); here each is parsed with sqlglot,
its `$name` parameters replaced by sqlglot literals (never text pasted into SQL), and written as
Spark SQL. What Spark's session catalog does differently is rewritten on the syntax tree, not
in the text: `CREATE OR REPLACE TABLE t AS q` becomes a create, drop and rename (Spark replaces
only v2 tables, and `q` may read `t` itself), temp tables become plain tables of the run's
database, and DuckDB's unsigned integers become BIGINT. A statement that needs more than that has
a `-- name: NAME :spark` variant next to it in its .sql file (`sqlfiles.statement`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from typing import Any

import sqlglot
from sqlglot import exp

from . import spark_memory

if os.environ.get("SETANON_DEBUG", "") in ("", "0"):  # its fallbacks are expected: say none
    logging.getLogger("sqlglot").setLevel(logging.ERROR)

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


def literal(value: Any) -> exp.Expr:
    """A bound value as a sqlglot literal; floats typed DOUBLE, as DuckDB binds them (a Spark
    number literal with a point would be DECIMAL).

    Example:
        >>> literal("o'brien").sql("spark"), literal(0.5).sql("spark"), literal(True).sql("spark")
        ("'o\\\\'brien'", 'CAST(0.5 AS DOUBLE)', 'TRUE')
    """
    if isinstance(value, float):
        return exp.cast(exp.convert(value), exp.DataType.Type.DOUBLE)
    return exp.convert(value)


def bind(tree: exp.Expr, params: Mapping[str, Any]) -> exp.Expr:
    """Replace every `$name` placeholder by the literal of its value; make every `tid` column
    a BIGINT (`spark_memory`: tid-keyed tables must hash alike to be co-partitioned); drop the
    NULLs of a `list_distinct`, as DuckDB does (Spark's array_distinct keeps one).

    Example:
        >>> tree = sqlglot.parse_one("SELECT x::INTEGER AS tid, $k AS k", read="duckdb")
        >>> bind(tree, {"k": 2}).sql("spark")
        'SELECT CAST(x AS BIGINT) AS tid, 2 AS k'
    """

    def sub(node: exp.Expr) -> exp.Expr:
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


def duckdb_setting(tree: exp.Expr) -> bool:
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


def _unordered(query: exp.Expr) -> exp.Expr:
    """A table's query without its final ORDER BY (unless a LIMIT needs it): a Spark table
    has no row order to keep, and the sort is a shuffle of every row (readers order what
    they depend on)."""
    bounded = query.args.get("limit") is not None or query.args.get("offset") is not None
    if query.args.get("order") is not None and not bounded:
        query = query.copy()
        query.set("order", None)
    return query


def _reads(query: exp.Expr, table: str) -> bool:
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


def _unqualify_temp(tree: exp.Expr) -> None:
    """Drop the `temp.` qualifier (DuckDB's temp catalog): Spark's temporary views need none."""
    for table in tree.find_all(exp.Table):
        if table.db.lower() == "temp":
            table.set("db", None)


def _target(tree: exp.Create | exp.Insert) -> exp.Table:
    return tree.this.this if isinstance(tree.this, exp.Schema) else tree.this


def rewrite(tree: exp.Expr) -> list[exp.Expr]:
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


def _returns_rows(tree: exp.Expr) -> bool:
    return isinstance(tree, exp.Query)


COUNT = "rows"  # the column of a row count (`count_rows`, as `ddl.count_rows` names it)


def _count_sql(tree: exp.Expr) -> str | None:
    """The query that counts what a CREATE TABLE AS or INSERT ... SELECT writes, as `rows`."""
    if isinstance(tree, exp.Create) and tree.kind == "TABLE" and tree.expression is not None:
        return count_rows(_target(tree).name)
    if isinstance(tree, exp.Insert) and isinstance(tree.expression, exp.Query):
        inner = tree.expression.copy().subquery("inserted")
        return exp.select(_count_column()).from_(inner).sql(DIALECT)
    return None


def _count_column() -> exp.Expr:
    return exp.Count(this=exp.Star()).as_(COUNT, quoted=True)


def count_rows(name: str) -> str:
    """SELECT count(*) AS rows FROM name (a table or view of the run).

    Example:
        >>> count_rows("tids")
        'SELECT COUNT(*) AS `rows` FROM `tids`'
    """
    return exp.select(_count_column()).from_(_table(name)).sql(DIALECT)


def _table(name: str, database: str | None = None) -> exp.Table:
    db = exp.to_identifier(database, quoted=True) if database is not None else None
    return exp.Table(this=exp.to_identifier(name, quoted=True), db=db)


def create_database(name: str, *, if_missing: bool = False) -> str:
    """CREATE DATABASE [IF NOT EXISTS] name, as Spark SQL.

    Example:
        >>> create_database("run_x", if_missing=True)
        'CREATE SCHEMA IF NOT EXISTS `run_x`'
    """
    return exp.Create(this=_table(name), kind="SCHEMA", exists=if_missing).sql(DIALECT)


def drop_database(name: str) -> str:
    """DROP DATABASE IF EXISTS name CASCADE, as Spark SQL (the caller decides it may).

    Example:
        >>> drop_database("run_x")
        'DROP SCHEMA IF EXISTS `run_x` CASCADE'
    """
    drop = exp.Drop(tables=[_table(name)], kind="SCHEMA", exists=True, cascade=True)
    return drop.sql(DIALECT)


def drop_table(name: str, database: str) -> str:
    """DROP TABLE IF EXISTS database.name, as Spark SQL.

    Example:
        >>> drop_table("release", "run_x")
        'DROP TABLE IF EXISTS `run_x`.`release`'
    """
    return exp.Drop(tables=[_table(name, database)], kind="TABLE", exists=True).sql(DIALECT)


def ident(name: str) -> str:
    return exp.to_identifier(name, quoted=True).sql(DIALECT)
