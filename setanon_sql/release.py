"""Reading and writing releases: long (tid, item) or per-transaction files, or a DuckDB table.

Files are written next to their target under a temporary name and renamed into place, so a
failure never leaves a half-written output.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import duckdb

from . import sqlfiles
from .errors import InputError, ParamsError
from .store import Store, literal, quote

OUTPUT_FORMATS = ("csv", "parquet")


def _numeric_tids(store: Store) -> bool:
    return bool(store.scalar("SELECT bool_and(TRY_CAST(label AS BIGINT) IS NOT NULL) FROM tids"))


def release_query(store: Store, *, per_transaction: bool = False) -> str:
    """The SELECT that renders the current run's release with the original labels."""
    sql = sqlfiles.statement(
        "release_per_transaction" if per_transaction else "release_labelled"
    ).sql
    if _numeric_tids(store):
        sql = f"SELECT CAST(tid AS BIGINT) AS tid, * EXCLUDE (tid) FROM ({sql})"
    return sql


def output_format(path: Path, fmt: str | None = None) -> str:
    """The file format asked for (or told by the suffix), checked, with the folder existing."""
    fmt = (fmt or path.suffix.lstrip(".")).lower()
    if fmt not in OUTPUT_FORMATS:
        raise ParamsError(
            f"output format must be one of {OUTPUT_FORMATS} (got {fmt!r} from {path})"
        )
    if not path.parent.exists():
        raise ParamsError(f"output folder does not exist: {path.parent}")
    return fmt


def copy_to_file(store: Store, sql: str, path: Path, fmt: str, *, step: str) -> Path:
    """COPY a query's result to a file beside `path` under a temporary name, then rename it,
    so a failure never leaves a half-written output."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        opts = "FORMAT csv, HEADER true" if fmt == "csv" else "FORMAT parquet"
        store.execute(f"COPY ({sql}) TO {literal(tmp)} ({opts})", step=step)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def write_release(
    store: Store,
    path: str | Path,
    *,
    fmt: str | None = None,
    per_transaction: bool = False,
) -> Path:
    """Write the current run's release to a CSV or Parquet file, atomically."""
    path = Path(path)
    fmt = output_format(path, fmt)
    sql = release_query(store, per_transaction=per_transaction)
    if per_transaction and fmt == "csv":
        sql = f"SELECT tid, to_json(items) AS items FROM ({sql})"
    return copy_to_file(store, sql, path, fmt, step="write_release")


def write_table(
    store: Store, table: str, *, per_transaction: bool = False, replace: bool = False
) -> str:
    """Copy the current run's labelled release into a new table of the database's main schema."""
    from sqlglot import exp

    parts = exp.to_table(table)
    target = exp.table_(parts.name, db=parts.db or "main", quoted=True).sql("duckdb")
    verb = "CREATE OR REPLACE TABLE" if replace else "CREATE TABLE"
    store.execute("BEGIN TRANSACTION", step="begin")
    try:
        store.execute(
            f"{verb} {target} AS {release_query(store, per_transaction=per_transaction)}",
            step="write_table",
        )
        store.execute("COMMIT", step="commit")
    except duckdb.CatalogException as e:
        store.execute("ROLLBACK", step="rollback")
        raise ParamsError(f"cannot create table {table!r}: {str(e).splitlines()[0]}") from e
    except BaseException:
        store.execute("ROLLBACK", step="rollback")
        raise
    return target


def read_release(
    store: Store, path: str | Path, *, tid_col: str = "tid", item_col: str = "item"
) -> None:
    """Read a long (tid, item) release file of labels into the current run's `release`."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"release not found: {path}")
    reader = "read_parquet" if path.suffix.lower() in (".parquet", ".pq") else "read_csv"
    extra = "" if reader == "read_parquet" else ", header = true, all_varchar = true"
    relation = f"{reader}({literal(str(path))}{extra})"
    try:
        cols = [r[0] for r in store.query(f"DESCRIBE SELECT * FROM {relation}")]
        for want in (tid_col, item_col):
            if want not in cols:
                raise InputError(f"{path}: no column {want!r}; columns are {cols}")
        store.execute(
            "CREATE OR REPLACE TEMP TABLE release_source AS SELECT "
            f"CAST({quote(tid_col)} AS VARCHAR) AS tid_label, "
            f"trim(CAST({quote(item_col)} AS VARCHAR)) AS label FROM {relation}",
            step="release_source",
        )
    except duckdb.Error as e:
        raise InputError(f"cannot read release {path}: {str(e).splitlines()[0]}") from e
    unknown = store.run_all("release_unknown_labels")
    if unknown:
        shown = ", ".join(f"{kind} {label!r}" for kind, label in unknown)
        raise InputError(f"{path}: labels not in the data or its hierarchy: {shown}")
    store.run("release_from_labels")
