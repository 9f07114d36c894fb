"""Reading and writing releases: long (tid, item) or per-transaction files, or a DuckDB table.

Ids and labels are written back exactly as the source gave them. Outputs are checked before any
work and staged beside their target, then renamed into place (`outputs`), so a failure or an
interrupt never leaves a half-written output.
"""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path

import duckdb

from ..engine import ddl, sqlfiles
from ..engine.duckdb import names_catalog
from ..engine.sqltext import split_qualified
from ..errors import InputError, ParamsError, first_line
from .database import Store
from .outputs import Publication, check_file

OUTPUT_FORMATS = ("csv", "parquet")


def release_query(store: Store, *, per_transaction: bool = False) -> str:
    """The SELECT that renders the current run's release with the original ids and labels; a
    differentially private run's (it keeps a budget record, #44) with its own new tids."""
    name = "release_per_transaction" if per_transaction else "release_labelled"
    if store.has_table("dp_budget"):
        name = "dp_" + name
    return sqlfiles.statement(name).sql


def copy_to_file(
    store: Store,
    sql: str,
    path: Path,
    fmt: str,
    *,
    step: str,
    publication: Publication | None = None,
) -> Path:
    """COPY a query's result to `path`, staged beside it and put in place by `publication`
    (one of its own when none is given), so a failure never leaves a half-written output."""
    if publication is None:
        with Publication().written() as own:
            return copy_to_file(store, sql, path, fmt, step=step, publication=own)
    tmp = publication.file(path)
    store.execute(ddl.copy_to(sql, str(tmp), fmt), step=step)
    return path


def write_release(
    store: Store,
    path: str | Path,
    *,
    fmt: str | None = None,
    per_transaction: bool = False,
    publication: Publication | None = None,
) -> Path:
    """Write the current run's release to a CSV or Parquet file, atomically."""
    path, fmt = check_file(path, fmt=fmt, replace=True)  # its run checked it before the work
    sql = release_query(store, per_transaction=per_transaction)
    if per_transaction and fmt == "csv":  # a list is written as its JSON text
        sql = ddl.json_column(sql, "items")
    return copy_to_file(store, sql, path, fmt, step="write_release", publication=publication)


def output_table_target(store: Store, table: str, *, replace: bool) -> tuple[str, str]:
    """(schema, table) of an --output-table, checked before any work: in the --db, and new,
    or made by the tool before when `replace`."""
    if store.path is None:
        raise ParamsError("--output-table needs --db (a table of an in-memory database is lost)")
    parts = split_qualified(table)
    if len(parts) == 3:
        if not names_catalog(store.ex, parts[0]):
            raise ParamsError(
                f"--output-table {table!r}: catalog {parts[0]!r} is not the --db "
                f"({store.ex.catalog!r})"
            )
        parts = parts[1:]
    schema, name = (parts[0], parts[1]) if len(parts) == 2 else ("main", parts[0])
    where = {"catalog": store.ex.catalog, "schema": schema}
    if store.ex.run("table_exists_any_case", {**where, "table": name}).one()["found"]:
        owned = store.registry.owner_of(schema, name)
        if owned is None or owned["owner"] != "output":
            raise ParamsError(
                f"table {schema}.{name} exists and was not written by setanon-sql; "
                "choose another --output-table"
            )
        if not replace:
            raise ParamsError(f"table {schema}.{name} exists (use --replace)")
    if not store.ex.run("schema_exists_any_case", where).one()["found"]:
        raise ParamsError(f"--output-table {table!r}: no schema {schema!r} in the --db")
    return schema, name


def write_table(
    store: Store,
    target: tuple[str, str],
    run_id: int,
    *,
    per_transaction: bool = False,
    own: bool = True,
) -> str:
    """Copy the current run's labelled release into a table of the database and record it as
    the tool's (so a later --replace may replace it): in one transaction of its own, or with
    `own=False` inside the caller's (the one that swaps a run in)."""
    schema, name = target
    release = release_query(store, per_transaction=per_transaction)
    try:
        with store.ex.transaction() if own else nullcontext():
            if store.registry.owner_of(schema, name) is not None:
                store.registry.drop_table(schema, name)
            store.execute(
                ddl.create_table_as(name, release, schema=schema, replace=False),
                step="write_table",
            )
            store.registry.record_table(schema, name, "output", run_id)
    except duckdb.Error as e:
        raise ParamsError(f"cannot create table {schema}.{name}: {first_line(e)}") from e
    return f"{schema}.{name}"


def read_release(
    store: Store, path: str | Path, *, tid_col: str = "tid", item_col: str = "item"
) -> None:
    """Read a release file (or a folder of Parquet parts, as Spark writes one) into the
    current schema's `release`: long (tid, item) rows, or one row per transaction with a list
    of items (`items`: a LIST column in Parquet, a JSON array in CSV, as `--per-transaction`
    writes them). Ids and labels are matched exactly."""
    read_source(store, path, tid_col=tid_col, item_col=item_col)
    unknown = store.run("release_unknown_labels").tuples("kind", "label")
    if unknown:
        shown = ", ".join(f"{kind} {label!r}" for kind, label in unknown)
        raise InputError(f"{path}: labels not in the data or its hierarchy: {shown}")
    store.run("release_from_labels")


def read_source(
    store: Store, path: str | Path, *, tid_col: str = "tid", item_col: str = "item"
) -> None:
    """A release file's (tid label, item label) rows as the temporary `release_source`, read
    as `read_release` describes, before any label is matched."""
    path = Path(path)
    parts = path.is_dir() and any(path.glob("*.parquet"))  # a Spark run's release folder
    if not (path.is_file() or parts):
        raise InputError(f"release not found: {path}")
    from ..engine.builders import release_file, render  # sqlglot: only to read a release

    csv = not parts and path.suffix.lower() not in (".parquet", ".pq")
    where = {"path": str(path / "*.parquet") if parts else str(path)}
    try:
        described = store.run("release_file_columns_" + ("csv" if csv else "parquet"), where)
        cols = dict(described.tuples("column_name", "column_type"))
        if tid_col not in cols:
            raise InputError(f"{path}: no column {tid_col!r}; columns are {list(cols)}")
        if item_col in cols:
            select = release_file(tid_col, item_col, csv=csv)
        elif "items" in cols:
            listed = "list" if cols["items"].endswith("[]") else "json"
            select = release_file(tid_col, None, csv=csv, items=listed)
        else:
            raise InputError(
                f"{path}: no column {item_col!r} (long release) or 'items' (one row per "
                f"transaction); columns are {list(cols)}"
            )
        source = ddl.create_table_as("release_source", render(select), temp=True)
        store.execute(source, where, step="release_source")
    except duckdb.Error as e:
        raise InputError(f"cannot read release {path}: {first_line(e)}") from e
