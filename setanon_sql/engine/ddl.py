"""The statements whose shape is fixed but whose names are computed: create a table as a query,
drop tables and schemas, count a table's rows, set a DuckDB option, attach a file, copy a
query to a file. Written once, here; every caller passes names and values, never SQL text it
pasted together.

Identifiers go through the one `quote`; values that DuckDB takes as bound parameters are
bound, and the few it may not take as parameters in every supported version (SET, ATTACH,
COPY TO: a file, a setting) are written with the one `literal`. These return text, not sqlglot
expressions: the paths that run them (Partition, LGR, Clump, the verifier, every process's
start) never import sqlglot, whose import costs a whole process about 0.2 s of CPU.

Example:
    >>> create_table_as("support_l2", "SELECT 1 AS x", temp=True)
    'CREATE OR REPLACE TEMP TABLE "support_l2" AS SELECT 1 AS x'
    >>> drop_table("walk batch", temp=True), count_rows("clump_order")
    ('DROP TABLE IF EXISTS temp."walk batch"', 'SELECT count(*) AS "rows" FROM "clump_order"')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .sqltext import literal, qualified, quote


def table(name: str, schema: str | None = None, *, temp: bool = False) -> str:
    """A table's name: unqualified (resolved along the search path), in `schema`, or in
    DuckDB's temp catalog."""
    if temp:
        return f"temp.{quote(name)}"
    return qualified(schema, name)


def create_table_as(
    name: str,
    query: str,
    *,
    schema: str | None = None,
    temp: bool = False,
    replace: bool = True,
) -> str:
    """CREATE [OR REPLACE] [TEMP] TABLE name AS query."""
    head = "CREATE OR REPLACE" if replace else "CREATE"
    kind = "TEMP TABLE" if temp else "TABLE"
    return f"{head} {kind} {qualified(schema, name)} AS {query}"


def create_table(name: str, columns: Sequence[tuple[str, str]], *, temp: bool = False) -> str:
    """CREATE OR REPLACE [TEMP] TABLE name (column type, ...): `columns` are (name, DuckDB
    type) pairs, the types the tool's own (`Rows.types`), never input."""
    kind = "TEMP TABLE" if temp else "TABLE"
    cols = ", ".join(f"{quote(c)} {t}" for c, t in columns)
    return f"CREATE OR REPLACE {kind} {quote(name)} ({cols})"


def insert_into(name: str, query: str) -> str:
    """INSERT INTO name query."""
    return f"INSERT INTO {quote(name)} {query}"


def unnest_columns(types: Sequence[str]) -> str:
    """SELECT of one typed list parameter per column ($1, $2, ...), unnested side by side:
    a whole table bound in one statement."""
    return "SELECT " + ", ".join(f"unnest(${i}::{t}[])" for i, t in enumerate(types, start=1))


def create_view_as(name: str, query: str, *, temp: bool = False) -> str:
    """CREATE OR REPLACE [TEMP] VIEW name AS query."""
    kind = "TEMP VIEW" if temp else "VIEW"
    return f"CREATE OR REPLACE {kind} {quote(name)} AS {query}"


def drop_view(name: str) -> str:
    """DROP VIEW IF EXISTS of one view."""
    return f"DROP VIEW IF EXISTS {quote(name)}"


def select_renamed(relation: str, names: Sequence[tuple[str, str]]) -> str:
    """SELECT column AS new name, ... FROM relation: an input's columns under the names the
    tool's statements read. `relation` is the tool's own text (see `select_from`).

    Example:
        >>> select_renamed('"t"', [("Tid", "tid_label"), ("Item", "item")])
        'SELECT "Tid" AS "tid_label", "Item" AS "item" FROM "t"'
    """
    cols = ", ".join(f"{quote(old)} AS {quote(new)}" for old, new in names)
    return f"SELECT {cols} FROM {relation}"


def select_from(relation: str) -> str:
    """SELECT * FROM relation, where `relation` is text the tool wrote: a name from `qualified`
    or a reader call (read_csv, read_parquet) whose path and options went through `literal`."""
    return f"SELECT * FROM {relation}"


def read_parquet(path: str) -> str:
    """DuckDB's reader of a Parquet file, as a relation for `select_from`."""
    return f"read_parquet({literal(path)})"


def read_csv(path: str, **options: Any) -> str:
    """DuckDB's reader of a CSV file with `options` (the tool's names, values as literals),
    as a relation for `select_from`.

    Example:
        >>> read_csv("/d/o'k.csv", all_varchar=True, names=["a", "b"])
        "read_csv('/d/o''k.csv', all_varchar = TRUE, names = ['a', 'b'])"
    """
    given = "".join(f", {key} = {literal(value)}" for key, value in options.items())
    return f"read_csv({literal(path)}{given})"


def json_column(query: str, column: str) -> str:
    """A query's rows with one list column written as its JSON text (for a CSV file), the
    other columns as they are, in their order."""
    return f"SELECT * REPLACE (to_json({quote(column)}) AS {quote(column)}) FROM ({query})"


def joined_list_column(query: str, column: str, sep: str) -> str:
    """A query's rows with one list column written as text (for a CSV file): its items joined
    by `sep`, an item holding a character of `sep` or a double quote quoted as in CSV (`"`
    doubled inside), as a text set column is read back; the other columns as they are."""
    q, s = quote(column), literal(sep)
    item = (
        f"CASE WHEN length(translate(x, {s}, '')) < length(x) OR contains(x, '\"') "
        f"THEN '\"' || replace(x, '\"', '\"\"') || '\"' ELSE x END"
    )
    joined = f"array_to_string(list_transform({q}, lambda x: {item}), {s})"
    return f"SELECT * REPLACE ({joined} AS {q}) FROM ({query})"


def describe_query(query: str) -> str:
    """A query's columns and their types, unrun (DESCRIBE: column_name, column_type...)."""
    return f"DESCRIBE {query}"


def select_all(name: str, schema: str | None = None) -> str:
    """SELECT * FROM [schema.]name."""
    return f"SELECT * FROM {qualified(schema, name)}"


def distinct_values(column: str, name: str, schema: str | None = None) -> str:
    """SELECT DISTINCT column FROM [schema.]name: a column's values, each once."""
    return f"SELECT DISTINCT {quote(column)} FROM {qualified(schema, name)}"


def drop_table(name: str, schema: str | None = None, *, temp: bool = False) -> str:
    """DROP TABLE IF EXISTS of one table."""
    return f"DROP TABLE IF EXISTS {table(name, schema, temp=temp)}"


def create_schema(name: str) -> str:
    return f"CREATE SCHEMA {quote(name)}"


def drop_schema(name: str) -> str:
    """DROP SCHEMA IF EXISTS ... CASCADE (the registry decides whether it may)."""
    return f"DROP SCHEMA IF EXISTS {quote(name)} CASCADE"


def count_rows(name: str, *, temp: bool = False) -> str:
    """How many rows a table holds, as column `rows`."""
    return f'SELECT count(*) AS "rows" FROM {table(name, temp=temp)}'


def describe(name: str) -> str:
    """A table's columns and their types (DuckDB's DESCRIBE: column_name, column_type...)."""
    return f"DESCRIBE {quote(name)}"


def setting(name: str, value: Any) -> str:
    """SET name = value (a DuckDB setting; `name` is the tool's, never input).

    Example:
        >>> setting("memory_limit", "4GB"), setting("threads", 2)
        ("SET memory_limit = '4GB'", 'SET threads = 2')
    """
    return f"SET {name} = {literal(value)}"


def reset(name: str) -> str:
    """RESET name: a DuckDB setting back to its default."""
    return f"RESET {name}"


def attach(path: str, catalog: str, *, read_only: bool = False) -> str:
    """ATTACH a DuckDB file under `catalog`."""
    mode = " (READ_ONLY)" if read_only else ""
    return f"ATTACH {literal(path)} AS {quote(catalog)}{mode}"


def detach(catalog: str) -> str:
    """DETACH a DuckDB file attached under `catalog`."""
    return f"DETACH {quote(catalog)}"


def use(catalog: str) -> str:
    return f"USE {quote(catalog)}"


def copy_to(query: str, path: str, fmt: str, **options: Any) -> str:
    """COPY a query's result to a CSV (with a header) or Parquet file; `options` are more of
    COPY's options (the tool's, never input), e.g. compression="zstd".

    Example:
        >>> copy_to("SELECT 1", "/tmp/o'k.csv", "csv")
        "COPY (SELECT 1) TO '/tmp/o''k.csv' (FORMAT csv, HEADER true)"
    """
    given = {"FORMAT": fmt, **({"HEADER": "true"} if fmt == "csv" else {})}
    given |= {key.upper(): value for key, value in options.items()}
    text = ", ".join(f"{key} {value}" for key, value in given.items())
    return f"COPY ({query}) TO {literal(path)} ({text})"
